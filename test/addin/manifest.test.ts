/**
 * Offline checks of manifest.xml, read by Microsoft's own reader (office-addin-manifest) and, for
 * the VersionOverrides it does not expose, as XML, against a real webpack build: namespace ROUTE,
 * shared runtime (one long-lived runtime whose page also hosts the functions), honest requirement
 * sets, help links on this server, and every URL pointing at a file the build produces.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { OfficeAddinManifest } from "office-addin-manifest";

const ROOT = path.resolve(__dirname, "../..");
const DEV_ORIGIN = "https://localhost:3000/";

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  isArray: (name) => ["bt:Url", "bt:Image", "bt:String", "Runtime", "Set"].includes(name),
});
const doc = parser.parse(fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8")) as {
  OfficeApp: Node;
};
const app = doc.OfficeApp;
const overrides = app.VersionOverrides as Node;
const host = (overrides.Hosts as Node).Host as Node;
const resources = overrides.Resources as Node;
/** A resource list (bt:Urls, bt:Images, bt:ShortStrings) as id → DefaultValue. */
const byId = (list: string, item: string) =>
  new Map(
    ((resources[list] as Node)[item] as Node[]).map((u) => [
      u["@_id"] as string,
      u["@_DefaultValue"] as string,
    ])
  );
const urls = byId("bt:Urls", "bt:Url");
const images = byId("bt:Images", "bt:Image");
const shortStrings = byId("bt:ShortStrings", "bt:String");
const customFunctions = (host.AllFormFactors as Node).ExtensionPoint as Node;
const resid = (node: unknown) => (node as Node)["@_resid"] as string;
/** Every URL of the manifest: the resource URLs and images, and the two icons. */
const allUrls = () => [
  ...urls.values(),
  ...images.values(),
  (app.IconUrl as Node)["@_DefaultValue"] as string,
  (app.HighResolutionIconUrl as Node)["@_DefaultValue"] as string,
];

describe("manifest.xml", () => {
  test("office-addin-manifest reads it as an Excel task pane add-in on the development origin", async () => {
    const read = await OfficeAddinManifest.readManifestFile(path.join(ROOT, "manifest.xml"));
    expect(read.officeAppType).toBe("TaskPaneApp");
    expect(read.hosts).toEqual(["Workbook"]);
    expect(read.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(read.id).toBe(app.Id);
    expect(read.displayName).toBe("Route Sheets");
    expect(read.defaultSettings?.sourceLocation).toBe(`${DEV_ORIGIN}taskpane.html`);
    expect(read.iconUrl).toBe(`${DEV_ORIGIN}assets/icon-32.png`);
    expect(read.highResolutionIconUrl).toBe(`${DEV_ORIGIN}assets/icon-64.png`);
    // Support and "learn more" are this server's help pages, not a repository address.
    expect(read.supportUrl).toBe(`${DEV_ORIGIN}help/`);
    expect(urls.get("GetStarted.LearnMoreUrl")).toBe(`${DEV_ORIGIN}help/`);
    expect(read.permissions).toBe("ReadWriteDocument");
  });

  test("requirement sets: shared runtime 1.1, CustomFunctionsRuntime 1.2 (CustomFunctions.Error)", () => {
    const sets = ((app.Requirements as Node).Sets as Node).Set as Node[];
    const version = new Map(sets.map((s) => [s["@_Name"] as string, s["@_MinVersion"] as string]));
    expect(version.get("SharedRuntime")).toBe("1.1");
    expect(version.get("CustomFunctionsRuntime")).toBe("1.2");
  });

  test("custom functions live in the ROUTE namespace", () => {
    expect(customFunctions["@_xsi:type"]).toBe("CustomFunctions");
    expect(shortStrings.get(resid(customFunctions.Namespace))).toBe("ROUTE");
  });

  test("shared runtime: one long-lived runtime whose page hosts the functions and the pane", () => {
    const runtimes = (host.Runtimes as Node).Runtime as Node[];
    expect(runtimes).toHaveLength(1);
    expect(runtimes[0]["@_lifetime"]).toBe("long");
    const page = resid(runtimes[0]);
    expect(resid((customFunctions.Page as Node).SourceLocation)).toBe(page);
    const desktop = host.DesktopFormFactor as Node;
    expect(resid(desktop.FunctionFile)).toBe(page);
    const button = (((desktop.ExtensionPoint as Node).OfficeTab as Node).Group as Node)
      .Control as Node;
    expect(resid((button.Action as Node).SourceLocation)).toBe(page);
    expect(urls.get(page)).toBe(`${DEV_ORIGIN}taskpane.html`);
    expect(((app.DefaultSettings as Node).SourceLocation as Node)["@_DefaultValue"]).toBe(
      `${DEV_ORIGIN}taskpane.html`
    );
    const sets = ((app.Requirements as Node).Sets as Node).Set as Node[];
    expect(sets.map((s) => s["@_Name"])).toContain("SharedRuntime");
  });

  test("every URL uses the development origin the server rewrites", () => {
    const all = allUrls();
    for (const url of all) expect(url.startsWith(DEV_ORIGIN)).toBe(true);
  });
});

describe("webpack build (npm run build:addin)", () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-addin-"));
  beforeAll(() => {
    execFileSync(
      process.execPath,
      [require.resolve("webpack-cli/bin/cli.js"), "--mode", "production", "--output-path", out],
      {
        cwd: ROOT,
        stdio: "pipe",
      }
    );
  }, 180_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  test("every manifest URL names a file of the build", () => {
    const files = allUrls()
      .filter((u) => u.startsWith(DEV_ORIGIN))
      .map((u) => u.slice(DEV_ORIGIN.length))
      // The server itself serves the help pages (test/service/start-and-tls.test.ts).
      .filter((file) => !file.startsWith("help/"));
    expect(files).toEqual(
      expect.arrayContaining([
        "taskpane.html",
        "functions.json",
        "functions.js",
        "assets/icon-16.png",
        "assets/icon-32.png",
        "assets/icon-80.png",
      ])
    );
    for (const file of files) expect(fs.existsSync(path.join(out, file))).toBe(true);
  });

  test("icons are PNGs of their nominal size", () => {
    for (const size of [16, 32, 64, 80, 128]) {
      const png = fs.readFileSync(path.join(out, "assets", `icon-${size}.png`));
      expect(png.subarray(1, 4).toString()).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
  });

  test("taskpane.html loads Office.js, the old-runtime check, then the runtime, functions and pane bundles", () => {
    const html = fs.readFileSync(path.join(out, "taskpane.html"), "utf8");
    const order = [
      "appsforoffice.microsoft.com/lib/1/hosted/office.js",
      "__routeSheetsUnsupported",
      "runtime.js",
      "functions.js",
      "taskpane.js",
    ].map((s) => html.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test("functions.json: every function documented (help links are the server's to write)", () => {
    // Signatures and results are the functions' own contract (test/functions); here: what Excel shows.
    const meta = JSON.parse(fs.readFileSync(path.join(out, "functions.json"), "utf8")) as {
      functions: Array<{
        id: string;
        name: string;
        description: string;
        options?: { volatile?: boolean };
        parameters: Array<{ name: string; optional?: boolean; description: string }>;
      }>;
    };
    const ids = meta.functions.map((f) => f.id);
    expect(ids).toEqual(
      expect.arrayContaining(["DISTANCE", "EMISSIONS", "TERMINALS", "OPERATORS", "OPTIONS"])
    );
    const distance = meta.functions.find((f) => f.id === "DISTANCE")!;
    expect(distance.parameters.slice(0, 2).map((p) => [p.name, !!p.optional])).toEqual([
      ["origin", false],
      ["destination", false],
    ]);
    for (const f of meta.functions) {
      expect(f.options?.volatile).toBeFalsy();
      expect(f.description.length).toBeGreaterThan(20);
      // Help links are written once, by the server as it serves functions.json (addin-static test).
      expect(f).not.toHaveProperty("helpUrl");
      for (const p of f.parameters) expect(p.description.length).toBeGreaterThan(5);
    }
  });

  test("the build writes its stamp (.built), dated when it started, so npm start does not rebuild it", () => {
    const stamp = path.join(out, ".built");
    expect(fs.existsSync(stamp)).toBe(true);
    const started = Date.parse(fs.readFileSync(stamp, "utf8").trim());
    expect(Math.abs(fs.statSync(stamp).mtimeMs - started)).toBeLessThan(1);
    expect(started).toBeLessThanOrEqual(fs.statSync(path.join(out, "functions.js")).mtimeMs);
  });

  test("the functions bundle registers each function with CustomFunctions.associate", () => {
    const js = fs.readFileSync(path.join(out, "functions.js"), "utf8");
    for (const id of ["DISTANCE", "EMISSIONS", "TERMINALS", "OPERATORS", "OPTIONS"])
      expect(js).toContain(`associate("${id}"`);
  });
});
