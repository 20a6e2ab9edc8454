/**
 * The pane's pure parts: the connection diagnosis (with a stand-in fetch: the real browser runs in
 * connection-failures.e2e.test.ts), the theme choice, which formulas "Freeze as values" pins,
 * the manual recalculation per platform, the missing-runtime notice.
 */
import fc from "fast-check";
import {
  diagnoseUnreachable,
  isLoopbackHost,
  isMixedContent,
} from "../../src/taskpane/connection-diagnosis";
import { callsRoute, routeFormulaCells } from "../../src/taskpane/freeze";
import { missingRuntime } from "../../src/taskpane/office-host";
import { manualRecalculation } from "../../src/taskpane/recalculate";
import { chooseTheme, luminance, officeThemeName } from "../../src/taskpane/theme";

describe("connection diagnosis", () => {
  const PAGE = "https://sheets.example.com/taskpane.html";
  /** A fetch where cors / no-cors requests succeed or fail as told; records what was asked. */
  const fetchThat = (cors: boolean, noCors: boolean) => {
    const asked: Array<[string, string]> = [];
    const fetch = async (url: string, init?: RequestInit) => {
      asked.push([url, String(init?.mode)]);
      if ((init?.mode === "no-cors" ? noCors : cors) === false)
        throw new TypeError("Failed to fetch");
      return new Response("");
    };
    return { fetch, asked };
  };

  test("http:// from an https:// pane, not this computer: mixed content, without a request", async () => {
    const { fetch, asked } = fetchThat(true, true);
    const d = await diagnoseUnreachable("http://routes.example.com:8080", { pageUrl: PAGE, fetch });
    expect(d.cause).toBe("mixed");
    expect(d.message).toContain(
      "use the service's https:// address (https://routes.example.com:8080)"
    );
    expect(asked).toEqual([]);
  });

  test("answers without CORS: names the origin to allow", async () => {
    const { fetch, asked } = fetchThat(false, true);
    const d = await diagnoseUnreachable("https://api.example.org/", { pageUrl: PAGE, fetch });
    expect(d).toEqual({
      cause: "cors",
      message:
        "https://api.example.org/ answers, but does not allow requests from this pane (CORS): the service must send Access-Control-Allow-Origin for https://sheets.example.com (route-sheets serve --cors-origin https://sheets.example.com).",
    });
    expect(asked).toEqual([
      ["https://api.example.org/health", "cors"],
      ["https://api.example.org/health", "no-cors"],
    ]);
  });

  test("on this computer: listening means the certificate, closed means down", async () => {
    const { fetch } = fetchThat(false, false);
    const ports: number[] = [];
    const listening = (open: boolean) => async (port: number) => (ports.push(port), open);
    const cert = await diagnoseUnreachable("https://localhost:3000", {
      pageUrl: PAGE,
      fetch,
      listening: listening(true),
    });
    expect(cert.cause).toBe("certificate");
    const down = await diagnoseUnreachable("https://127.0.0.1", {
      pageUrl: PAGE,
      fetch,
      listening: listening(false),
    });
    expect(down.cause).toBe("down");
    expect(down.message).toContain("(port 443 is closed)");
    expect(ports).toEqual([3000, 443]);
  });

  test("elsewhere, or when the port check cannot tell: both causes for https, down for http", async () => {
    const { fetch } = fetchThat(false, false);
    const elsewhere = await diagnoseUnreachable("https://api.example.org", {
      pageUrl: PAGE,
      fetch,
      listening: async () => true,
    });
    expect(elsewhere.cause).toBe("down-or-certificate");
    const unknown = await diagnoseUnreachable("https://localhost:9", {
      pageUrl: PAGE,
      fetch,
      listening: async () => undefined,
    });
    expect(unknown.cause).toBe("down-or-certificate");
    const plain = await diagnoseUnreachable("http://localhost:9", {
      pageUrl: "http://localhost:3000/taskpane.html",
      fetch,
    });
    expect(plain.cause).toBe("down");
  });

  test("answers when asked again: says so", async () => {
    const { fetch } = fetchThat(true, true);
    expect((await diagnoseUnreachable("https://a.example", { pageUrl: PAGE, fetch })).cause).toBe(
      "intermittent"
    );
  });

  test("mixed content: exactly https page → http service on another computer", () => {
    const host = fc.constantFrom(
      "localhost",
      "127.0.0.1",
      "[::1]",
      "app.localhost",
      "a.example",
      "10.0.0.5"
    );
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), host, (pageHttps, serviceHttps, h) => {
        const mixed = isMixedContent(
          `${pageHttps ? "https" : "http"}://pane.example/x.html`,
          `${serviceHttps ? "https" : "http"}://${h}:8080`
        );
        expect(mixed).toBe(
          pageHttps && !serviceHttps && !isLoopbackHost(new URL(`http://${h}`).hostname)
        );
      })
    );
  });
});

describe("theme", () => {
  test("luminance: black 0, white 1, #rgb as #rrggbb, anything else unknown", () => {
    expect(luminance("#000000")).toBe(0);
    expect(luminance("#ffffff")).toBeCloseTo(1, 10);
    expect(luminance("#abc")).toBe(luminance("#aabbcc"));
    expect(luminance("rgb(0,0,0)")).toBeUndefined();
  });

  test("Office's dark and light backgrounds (its themes' body colours); Office wins over the system", () => {
    for (const dark of ["#262626", "#1f1f1f", "#000000", "#333333"])
      expect(officeThemeName({ bodyBackgroundColor: dark })).toBe("dark");
    for (const light of ["#ffffff", "#f3f2f1", "#e6e6e6", "#d4d4d4"])
      expect(officeThemeName({ bodyBackgroundColor: light })).toBe("light");
    expect(chooseTheme({ bodyBackgroundColor: "#ffffff" }, true)).toBe("light");
    expect(chooseTheme({ bodyBackgroundColor: "#262626" }, false)).toBe("dark");
    expect(chooseTheme(undefined, true)).toBe("dark");
    expect(chooseTheme({}, false)).toBe("light");
  });

  test("darker never flips to light: the choice is monotonic in the grey level", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 254 }), (v) => {
        const grey = (n: number) => `#${n.toString(16).padStart(2, "0").repeat(3)}`;
        const order = { dark: 0, light: 1 };
        expect(order[officeThemeName({ bodyBackgroundColor: grey(v) })!]).toBeLessThanOrEqual(
          order[officeThemeName({ bodyBackgroundColor: grey(v + 1) })!]
        );
      })
    );
  });
});

describe("freeze as values: which formulas", () => {
  test("ROUTE calls anywhere in a formula; not text, not other functions, not values", () => {
    for (const f of [
      '=ROUTE.DISTANCE("CNSHA","NLRTM")',
      "=route.lane(A2:A9,B2:B9)",
      "=2*ROUTE.EMISSIONS(A2,B2)",
      '=IFERROR(ROUTE.OPTIONS(A1,B1),"")',
      "=ROUTE.DISTANCE (A1,B1)",
    ])
      expect(callsRoute(f)).toBe(true);
    for (const f of [
      '="ROUTE.DISTANCE("',
      "=SUM(A1:A3)",
      "=MYROUTE.DISTANCE(A1)",
      "ROUTE.DISTANCE(A1,B1)",
      '=A1&"ROUTE.LANE("',
      19338.4,
      "",
      null,
    ])
      expect(callsRoute(f)).toBe(false);
  });

  test("the cells found are exactly those whose formula calls ROUTE, row by row", () => {
    const cell = fc.oneof(
      fc.constantFrom("=ROUTE.DISTANCE(A1,B1)", "=SUM(1,2)", '="ROUTE.LANE("', "x", ""),
      fc.double({ noNaN: true })
    );
    fc.assert(
      fc.property(fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 6 }), (grid) => {
        const found = routeFormulaCells(grid);
        const expected: Array<[number, number]> = [];
        grid.forEach((row, r) =>
          row.forEach((v, c) => v === "=ROUTE.DISTANCE(A1,B1)" && expected.push([r, c]))
        );
        expect(found).toEqual(expected);
      })
    );
  });
});

describe("Excel's abilities", () => {
  test("recalculating by hand, per platform", () => {
    expect(manualRecalculation("PC")).toMatch(/Ctrl\+Alt\+F9/);
    expect(manualRecalculation("Mac")).toMatch(/Formulas → Calculate Now/);
    expect(manualRecalculation("OfficeOnline")).toMatch(/Calculate Workbook/);
    expect(manualRecalculation(undefined)).toMatch(/Ctrl\+Alt\+F9 in Excel for Windows/);
  });

  test("a missing shared runtime is named; present or unknown: no notice", () => {
    const office = (missing: string[]) => ({
      context: { requirements: { isSetSupported: (name: string) => !missing.includes(name) } },
    });
    expect(missingRuntime(office([]))).toBeUndefined();
    expect(missingRuntime(office(["SharedRuntime"]))).toMatch(
      /^This version of Excel lacks SharedRuntime 1\.1, which Route Sheets needs/
    );
    expect(missingRuntime(office(["CustomFunctionsRuntime"]))).toBeUndefined();
    expect(missingRuntime({})).toBeUndefined();
    expect(missingRuntime(undefined)).toBeUndefined();
  });
});
