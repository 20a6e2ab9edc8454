/**
 * Issue 28, item 4 (names), every example of the issue through the place search and the name
 * choice that GET /route-information/api/places, `route-sheets data places` and `route-sheets
 * lanes` share, then through the real `lanes` command (dist/); and a property over random codes of
 * the shipped UN/LOCODE list: a code's own name, in any case and with its accents folded away,
 * resolves to the code (or the same place under another code), or to an ambiguity listing it, or
 * to a larger namesake, and never to "unknown place".
 */
import { spawnSync } from "child_process";
import fc from "fast-check";
import { parse } from "csv-parse/sync";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DATA_ROOT, loadPlaces } from "../../../src/data/places";
import { chooseByName } from "../../../src/engine/places";
import { foldText } from "../../../src/engine/places/text-fold";
import { fastGeodesicMeters } from "../../../src/engine/geo/geodesy";

const { finder } = loadPlaces();
const choose = (name: string) => chooseByName(name, finder.search(name, 20));

describe("every example of issue 28.4", () => {
  test.each([
    ["Sao Paulo", "BRSAO"],
    ["São Paulo", "BRSAO"],
    ["SAO PAULO", "BRSAO"],
    ["Ho Chi Minh City", "VNSGN"],
    ["ho chi minh city", "VNSGN"],
    ["Duisburg", "DEDUI"],
    ["Chongqing", "CNCKG"],
    ["Antwerp", "BEANR"],
    ["Antwerpen", "BEANR"],
    ["Vienna", "ATVIE"],
    ["Wien", "ATVIE"],
    ["Prague", "CZPRG"],
    ["Praha", "CZPRG"],
    ["Gothenburg", "SEGOT"],
    ["Göteborg", "SEGOT"],
    ["Goteborg", "SEGOT"],
    ["Canton", "CNCAN"],
    ["Guangzhou", "CNCAN"],
  ])("%s is one place: %s", (name, locode) => {
    const c = choose(name);
    expect(c.kind === "one" ? c.match.locode : c).toBe(locode);
  });

  test("Portland is ambiguous: the candidates with their codes, ranked by population", () => {
    const c = choose("Portland");
    expect(c).toMatchObject({
      kind: "ambiguous",
      problem: "Portland: USPDX (Oregon) or USPWM (Maine)",
    });
    const [oregon, maine] = c.candidates;
    expect(oregon.population!).toBeGreaterThan(maine.population!);
  });

  test.each([
    ["Rotterdm", "NLRTM"],
    ["Hambrug", "DEHAM"],
    ["Shanghia", "CNSHA"],
    ["Antwerpn", "BEANR"],
  ])("the misspelling %s gets did you mean %s, within a cell", (typed, locode) => {
    const c = choose(typed);
    expect(c.kind).toBe("unknown");
    if (c.kind === "one") return;
    // Worded as the add-in and lanes word it (client/place-lookup.ts unknownPlace).
    expect(c.problem).toMatch(
      new RegExp(`^unknown place "${typed}" — did you mean ${locode} \\([^)]+\\)\\?$`)
    );
    expect(c.problem.length).toBeLessThanOrEqual(100);
  });
});

test("route-sheets lanes resolves the issue's names as the place search does", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-names-"));
  try {
    const input = path.join(tmp, "names.csv");
    const names = ["Sao Paulo", "São Paulo", "Duisburg", "Antwerpen", "Wien", "Praha", "Göteborg"];
    fs.writeFileSync(
      input,
      "id,origin,destination,modality\n" +
        names.map((n, i) => `${i},${n},Rotterdam,TRUCK\n`).join("") +
        "p,Portland,Seattle,TRUCK\n" +
        "m,Rotterdm,Hamburg,TRUCK\n"
    );
    const r = spawnSync(
      process.execPath,
      [path.resolve(__dirname, "../../../bin/route-sheets.js"), "lanes", input],
      { encoding: "utf8", timeout: 120_000 }
    );
    expect(r.stderr).toBe("");
    const rows: Record<string, string>[] = parse(r.stdout, { columns: true });
    const byId = new Map(rows.map((row) => [row.id, row]));
    // São Paulo to Rotterdam has no road: the error is about the route, never the name.
    for (let i = 0; i < names.length; i++)
      expect(byId.get(String(i))!.error).not.toMatch(/unknown place|did you mean|:.* or /);
    expect(Number(byId.get("2")!.distance_km)).toBeGreaterThan(150);
    // The add-in's wording (src/client/place-lookup.ts), the same candidates in the same order.
    expect(byId.get("p")!.error).toMatch(/Portland.*: USPDX \(.*\) or USPWM \(.*\)/);
    expect(byId.get("m")!.error).toMatch(/Rotterdm.*did you mean NLRTM/);
    for (const row of rows) expect(row.error.length).toBeLessThanOrEqual(100);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}, 180_000);

describe("property: a code's own name finds it", () => {
  const rows = (
    parse(fs.readFileSync(path.join(DATA_ROOT, "places-unlocode.csv")), { columns: true }) as {
      locode: string;
      name: string;
      lat: string;
      function: string;
    }[]
  ).filter((r) => r.lat !== "" && /^(1|.2|..3|.....6)/.test(r.function));
  const variants = (name: string) => [name, name.toUpperCase(), name.toLowerCase(), foldText(name)];

  test("in any case, accents folded: the code, the same place, a listed ambiguity or a larger namesake", () => {
    fc.assert(
      fc.property(fc.constantFrom(...rows), (row) => {
        for (const typed of variants(row.name)) {
          const results = finder.search(typed, 20);
          const own = results.find((m) => m.locode === row.locode);
          // The code's own name is an exact match of it (unless 20 namesakes crowd it out).
          if (results.length < 20)
            expect({ typed, match: own?.match }).toEqual({ typed, match: "exact" });
          const c = chooseByName(typed, results);
          expect({ typed, kind: c.kind }).not.toEqual({ typed, kind: "unknown" });
          if (!own) continue;
          const samePlace = (m: { locode?: string; lat: number; lng: number }) =>
            m.locode === row.locode ||
            (m.locode?.slice(0, 2) === row.locode.slice(0, 2) &&
              fastGeodesicMeters(m.lat, m.lng, own.lat, own.lng) < 30_000);
          const size = (m: { rank?: number; population?: number }) =>
            Math.max(m.rank ?? 0, m.population ?? 0);
          const ok =
            c.kind === "one"
              ? samePlace(c.match) || size(c.match) >= size(own)
              : c.candidates.some(samePlace) || c.candidates.some((m) => size(m) >= size(own));
          expect({ typed, code: row.locode, ok }).toEqual({ typed, code: row.locode, ok: true });
        }
      }),
      { numRuns: 300, seed: 284 }
    );
  });
});
