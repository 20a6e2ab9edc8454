/**
 * Offline checks of manifest.xml against a real webpack build: namespace ROUTE, shared runtime
 * (one long-lived runtime whose page also hosts the functions), and every URL pointing at a file
 * the build produces.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { XMLParser } from "fast-xml-parser";

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
const urls = new Map(
  ((resources["bt:Urls"] as Node)["bt:Url"] as Node[]).map((u) => [
    u["@_id"] as string,
    u["@_DefaultValue"] as string,
  ])
);
const images = new Map(
  ((resources["bt:Images"] as Node)["bt:Image"] as Node[]).map((u) => [
    u["@_id"] as string,
    u["@_DefaultValue"] as string,
  ])
);
const shortStrings = new Map(
  ((resources["bt:ShortStrings"] as Node)["bt:String"] as Node[]).map((u) => [
    u["@_id"] as string,
    u["@_DefaultValue"] as string,
  ])
);
const customFunctions = (host.AllFormFactors as Node).ExtensionPoint as Node;
const resid = (node: unknown) => (node as Node)["@_resid"] as string;

describe("manifest.xml", () => {
  test("is an Excel task pane add-in", () => {
    expect(app["@_xsi:type"]).toBe("TaskPaneApp");
    expect((app.Hosts as Node).Host).toEqual({ "@_Name": "Workbook" });
    expect(app.Id).toMatch(/^[0-9a-f-]{36}$/);
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
    const all = [
      ...urls.values(),
      ...images.values(),
      (app.IconUrl as Node)["@_DefaultValue"] as string,
      (app.HighResolutionIconUrl as Node)["@_DefaultValue"] as string,
    ];
    for (const url of all.filter((u) => !u.startsWith("https://github.com/")))
      expect(url.startsWith(DEV_ORIGIN)).toBe(true);
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
    const files = [
      ...urls.values(),
      ...images.values(),
      (app.IconUrl as Node)["@_DefaultValue"] as string,
      (app.HighResolutionIconUrl as Node)["@_DefaultValue"] as string,
    ]
      .filter((u) => u.startsWith(DEV_ORIGIN))
      .map((u) => u.slice(DEV_ORIGIN.length));
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

  test("taskpane.html loads Office.js, then the runtime, functions and pane bundles", () => {
    const html = fs.readFileSync(path.join(out, "taskpane.html"), "utf8");
    const order = [
      "appsforoffice.microsoft.com/lib/1/hosted/office.js",
      "runtime.js",
      "functions.js",
      "taskpane.js",
    ].map((s) => html.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  test("functions.json declares the five functions with their parameters", () => {
    const meta = JSON.parse(fs.readFileSync(path.join(out, "functions.json"), "utf8")) as {
      functions: Array<{
        id: string;
        name: string;
        helpUrl: string;
        description: string;
        result: { type?: string; dimensionality?: string };
        options?: { volatile?: boolean };
        parameters: Array<{ name: string; optional?: boolean; type: string; description: string }>;
      }>;
    };
    const byId = new Map(meta.functions.map((f) => [f.id, f]));
    expect([...byId.keys()].sort()).toEqual([
      "DISTANCE",
      "EMISSIONS",
      "OPERATORS",
      "OPTIONS",
      "TERMINALS",
    ]);
    const params = (id: string) =>
      byId.get(id)!.parameters.map((p) => `${p.name}${p.optional ? "?" : ""}`);
    expect(params("DISTANCE")).toEqual([
      "origin",
      "destination",
      "modality?",
      "vesselInfo?",
      "unit?",
    ]);
    expect(params("EMISSIONS")).toEqual([
      "origin",
      "destination",
      "modality?",
      "per?",
      "containerType?",
      "fuelType?",
      "vesselInfo?",
    ]);
    expect(params("TERMINALS")).toEqual(["locode", "name?"]);
    expect(params("OPERATORS")).toEqual(["search?"]);
    expect(params("OPTIONS")).toEqual([
      "origin",
      "destination",
      "modalities?",
      "maxTransfers?",
      "sort?",
      "top?",
    ]);
    expect(byId.get("DISTANCE")!.result.type).toBe("number");
    expect(byId.get("EMISSIONS")!.result.type).toBe("number");
    for (const id of ["TERMINALS", "OPERATORS", "OPTIONS"])
      expect(byId.get(id)!.result.dimensionality).toBe("matrix");
    for (const f of meta.functions) {
      expect(f.options?.volatile).toBeFalsy();
      expect(f.description.length).toBeGreaterThan(20);
      expect(f.helpUrl).toBe(
        `https://github.com/route-sheets/route-sheets/blob/main/README.md#route${f.id.toLowerCase()}`
      );
      for (const p of f.parameters) expect(p.description.length).toBeGreaterThan(5);
    }
  });

  test("the functions bundle registers each function with CustomFunctions.associate", () => {
    const js = fs.readFileSync(path.join(out, "functions.js"), "utf8");
    for (const id of ["DISTANCE", "EMISSIONS", "TERMINALS", "OPERATORS", "OPTIONS"])
      expect(js).toContain(`associate("${id}"`);
  });
});
