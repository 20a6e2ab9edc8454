/** `route-sheets data …`: importers of data sets into a data directory, and place look-ups. */
import { Command } from "commander";
import * as fs from "fs";
import * as path from "path";
import { importTerminals, importUnlocode, loadPlaces } from "../../data/places";
import { loadSeaRouter } from "../../data/sea";
import { DEFAULT_CLOSED } from "../../engine/routing/vessels";
import { chooseByName, normaliseLocode } from "../../engine/places";

/** Same default as `route-sheets serve`. */
const DEFAULT_DATA_DIR = "./.route-sheets";

export function register(program: Command): void {
  const data = program
    .command("data")
    .description("Import data sets into a data directory and look places up.");

  data
    .command("import-unlocode")
    .description(
      'Import the UN/LOCODE code list as UNECE publishes it (e.g. "2024-2 UNLOCODE CodeListPart1.csv" ' +
        "Part2, Part3; no header row; UTF-8 or Latin-1). Replaces a previous UN/LOCODE import."
    )
    .argument("<files...>", "code-list CSV files")
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .action((files: string[], opts: { dataDir: string }) => {
      for (const f of files) if (!fs.existsSync(f)) throw new Error(`File not found: ${f}`);
      const started = Date.now();
      const r = importUnlocode(files, opts.dataDir);
      const n = (x: number) => x.toLocaleString("en-US");
      console.log(
        `Imported ${n(r.imported)} UN/LOCODE locations, ${n(r.withCoordinates)} with coordinates, ` +
          `from ${files.length} file(s) into ${r.file} in ${Date.now() - started} ms.`
      );
      console.log(
        `Read ${n(r.rows)} rows: skipped ${n(r.headers)} country/reference rows, ${n(r.deleted)} marked X, ` +
          `${n(r.malformed)} malformed, ${n(r.duplicates)} repeated codes.`
      );
    });

  data
    .command("import-terminals")
    .description(
      "Import terminals from a CSV with the columns locode,name,lat,lng,modalities,operator,source " +
        "(modalities ;-separated). Adds to earlier imports; the same locode + name replaces a terminal."
    )
    .argument("<file>", "terminals CSV with a header row")
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .action((file: string, opts: { dataDir: string }) => {
      if (!fs.existsSync(file)) throw new Error(`File not found: ${file}`);
      const r = importTerminals(file, opts.dataDir);
      console.log(
        `Imported ${r.read} terminal(s) from ${path.basename(file)}; ${r.stored} imported terminal(s) now in ${r.file}.`
      );
    });

  data
    .command("resolve")
    .description(
      'Resolve a place as origin/destination would: a UN/LOCODE, a terminal UUID or "lat,lng". Prints JSON.'
    )
    .argument("<place>", "the place")
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .action((place: string, opts: { dataDir: string }) => {
      const { resolver } = loadPlaces({ dataDir: opts.dataDir });
      const resolved = resolver.resolve(place, "place");
      // How far the place is moved onto the sea network when routed by sea (DEEPSEA defaults):
      // to the nearest water when it lies inside land, then to the nearest network line.
      const snapDistance = loadSeaRouter().snapDistance(resolved, new Set(DEFAULT_CLOSED));
      console.log(
        JSON.stringify({
          ...resolved,
          ...(snapDistance !== null && { snapDistance: Math.round(snapDistance) }),
        })
      );
    });

  data
    .command("places")
    .description(
      "Find places, ports and terminals by UN/LOCODE or name, as GET /route-information/api/places does (exact matches first, places of one name ranked by population or port size, then word prefixes, misspellings and mistyped codes). Prints JSON with the choice lanes and the add-in make: one place, or ambiguous/unknown with a message naming the candidates. Places and populations contain data from GeoNames (CC BY 4.0)."
    )
    .argument("<query...>", 'what a user would type, e.g. Rotterdam, "NLRTM Euromax" or KRPUX')
    .option("--limit <n>", "most results (1 to 20)", "5")
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .action((query: string[], opts: { limit: string; dataDir: string }) => {
      const text = query.join(" ");
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 20)
        throw new Error(`--limit "${opts.limit}" is not allowed; allowed values: 1 to 20.`);
      const { finder } = loadPlaces({ dataDir: opts.dataDir });
      const results = finder.search(text, limit);
      // What lanes and the add-in make of the name: one place, or the ranked candidates.
      const choice = chooseByName(text, results);
      const summary =
        choice.kind === "one"
          ? { kind: "one", locode: choice.match.locode, name: choice.match.name }
          : { kind: choice.kind, message: choice.problem };
      console.log(JSON.stringify({ query: text, choice: summary, results }, null, 2));
    });

  data
    .command("terminals")
    .description(
      "Terminals of a UN/LOCODE, best name match first (all of them when no name is given). Prints JSON."
    )
    .argument("<locode>", "the UN/LOCODE, e.g. NLRTM")
    .argument("[name...]", "part of the terminal name")
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .action((locode: string, name: string[], opts: { dataDir: string }) => {
      const code = normaliseLocode(locode);
      if (!code)
        throw new Error(
          `"${locode}" is not a UN/LOCODE (2-letter country + 3 letters/digits 2-9, e.g. NLRTM).`
        );
      const { terminals } = loadPlaces({ dataDir: opts.dataDir });
      console.log(JSON.stringify(terminals.search(code, name.join(" ")), null, 2));
    });
}
