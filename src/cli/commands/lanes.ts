import { Command } from "commander";
import type * as CliProgress from "cli-progress";
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadEngine } from "../../data/load-engine";
import {
  LaneCalculator,
  OPTIONAL_COLUMNS,
  OUTPUT_COLUMNS,
  readHeader,
  REQUIRED_COLUMNS,
} from "../../lanes/lane-sheet";
import {
  DecimalSeparator,
  DECIMAL_SEPARATORS,
  decimalFor,
  decodeSheet,
  laneSheetChunks,
  ParsedSheet,
  parseSheet,
} from "../../lanes/lane-csv";
import { footprintCsv, laneFootprints } from "../../lanes/footprint";
import { loadFactorSets } from "../../data/emissions";
import { FactorEmissionCalculator } from "../../engine/emissions";
import type { RouteEngine } from "../../engine/route-engine";
import type { CsvFormat } from "../../client/csv";

/** Files at least this long get a progress bar on stderr. */
const PROGRESS_THRESHOLD = 1000;

export function register(program: Command): void {
  program
    .command("lanes")
    .description(
      `Distances and CO2e for a CSV of lanes, as Excel saves it (delimiter , ; or tab, detected; ` +
        `written back the same; numbers with decimal commas in a ; sheet). UTF-8 (a byte-order mark is kept) ` +
        `or Windows-1252/Latin-1 as Excel saves it (then written as UTF-8 with a byte-order mark).\n\n` +
        `Columns read (header names in any case):\n` +
        `  origin, destination  a UN/LOCODE (NLRTM), a name (Rotterdam, São Paulo), "lat,lng" or ` +
        `"51,95;4,05" with decimal commas, or a terminal id\n` +
        `  modality             DEEPSEA, SHORTSEA, BARGE, RAIL or TRUCK; blank means DEEPSEA\n` +
        `  vesselInfo           IMO, MMSI, name or LxWxD in cm (optional)\n` +
        `  containerType        20DV, 40DV, 40HC, ... (optional)\n` +
        `  fuelType             VLSFO, LNG, HVO, ... (optional)\n` +
        `  avoid                passages to avoid: SUEZ, "Bab el Mandeb", ... (optional)\n` +
        `  via                  waypoints or places to pass, separated by ; (optional)\n` +
        `  containers           number of boxes of containerType: co2e_kg_shipment is their total (optional)\n` +
        `  weightTons           cargo tonnes of a part load: co2e_kg_shipment is its total (optional)\n` +
        `  factorSet            emission factor set, e.g. 2026.2 (optional; default the current one)\n` +
        `Required: ${REQUIRED_COLUMNS.join(", ")}; optional: ${OPTIONAL_COLUMNS.join(", ")}. ` +
        `Other columns (a lane id) are kept as they are. A blank row stays blank; a row repeating the header is left blank.\n\n` +
        `Output: every input column, then ${OUTPUT_COLUMNS.join(", ")} (whole metres; 0.1 km, nm and kg). ` +
        `A row's error (at most about 100 characters, naming the argument) is in error and the sheet goes on. ` +
        `Cells that are not plain numbers and start with = + - @ tab or CR get a ' so Excel shows them as text.`
    )
    .argument("<in.csv>", "input CSV with a header row")
    .option("-o, --output <out.csv>", "write here instead of stdout")
    .option("--data-dir <dir>", "data directory with imported places, terminals and vessels")
    .option(
      "--decimal <separator>",
      'decimal separator of the numbers written: "," or "." (default: "," when the delimiter is ;, else ".")'
    )
    .option(
      "--footprint <out.json>",
      "also write each lane's result with its ISO 14083 method block (WTT/TTW, intensity, factor set and sources) as JSON (iLEAP/PACT ShipmentFootprint shape where it fits) to this file, and as CSV next to it (<name>.footprint.csv; or <name>.csv + <name>.json when the name ends in .csv), the CSV with every input column in the input's delimiter, decimal mark and byte-order mark. Must not be the input or the -o file, and its folder must exist."
    )
    .action(
      async (
        input: string,
        opts: { output?: string; dataDir?: string; decimal?: string; footprint?: string }
      ) => {
        if (!fs.existsSync(input)) throw new Error(`Input file not found: ${input}`);
        if (
          opts.decimal !== undefined &&
          !DECIMAL_SEPARATORS.includes(opts.decimal as DecimalSeparator)
        )
          throw new Error(`--decimal "${opts.decimal}" is not allowed: use "," or "."`);
        const footprint = opts.footprint ? footprintFiles(opts.footprint) : undefined;
        if (footprint) checkFootprintPaths(footprint, input, opts.output);
        const decoded = decodeSheet(fs.readFileSync(input));
        const sheet = parseSheet(decoded.text);
        const decimal =
          (opts.decimal as DecimalSeparator | undefined) ?? decimalFor(sheet.delimiter);
        // A byte-order mark tells Excel the file is UTF-8: kept when the input had one, and added
        // when the input was Windows-1252 (its accents would otherwise read as mojibake).
        const bom = decoded.bom || decoded.encoding === "windows-1252" ? "\uFEFF" : "";
        const engine = loadEngine({ dataDir: opts.dataDir });
        const lanes = new LaneCalculator(engine, factorSetsOf(engine));
        const total = sheet.records.length - 1;
        const bar = total >= PROGRESS_THRESHOLD && process.stderr.isTTY ? progressBar() : undefined;
        bar?.start(total, 0);
        // The header is checked (and may throw) before the output file is created.
        const chunks = laneSheetChunks(lanes, sheet, (rows) => bar?.increment(rows), decimal);
        const first = chunks.next();
        const out = opts.output ? fs.createWriteStream(opts.output) : process.stdout;
        try {
          await pipeline(
            Readable.from(first.done ? [] : startingWith(bom + first.value, chunks)),
            out
          );
        } catch (err) {
          // The reader went away (`| head`): nothing left to tell anyone.
          if ((err as NodeJS.ErrnoException).code === "EPIPE") return;
          throw err;
        } finally {
          bar?.stop();
        }
        if (footprint)
          writeFootprint(footprint, lanes, sheet, {
            delimiter: sheet.delimiter,
            decimal,
            bom: !!bom,
          });
      }
    );
}

/** The factor sets the service uses, around the engine's own calculator. */
function factorSetsOf(engine: RouteEngine) {
  const current = engine.parts.emissions;
  return loadFactorSets(current instanceof FactorEmissionCalculator ? current : undefined);
}

interface FootprintFiles {
  json: string;
  csv: string;
}

/**
 * The footprint's two files: `out.json` + `out.footprint.csv` (not `out.csv`, which is often the
 * sheet's own output), or `x.csv` + `x.json` when the name given ends in .csv.
 */
function footprintFiles(file: string): FootprintFiles {
  const base = file.replace(/\.(json|csv)$/i, "");
  return /\.csv$/i.test(file)
    ? { json: `${base}.json`, csv: file }
    : { json: file, csv: `${base}.footprint.csv` };
}

/** A path as the file system knows it, so `./in.csv`, `in.csv` and a symlink compare equal. */
function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    const full = path.resolve(p);
    try {
      return fs.realpathSync(full);
    } catch {
      // Not there yet: its folder's real path with its name.
      try {
        return path.join(fs.realpathSync(path.dirname(full)), path.basename(full));
      } catch {
        return full;
      }
    }
  };
  return real(a) === real(b);
}

/**
 * Refuses, before anything is computed or written, footprint files that would overwrite the input
 * or the -o output, or that lie in a folder that does not exist.
 */
function checkFootprintPaths(files: FootprintFiles, input: string, output?: string): void {
  for (const file of [files.json, files.csv]) {
    if (samePath(file, input))
      throw new Error(`--footprint would overwrite the input ${input}: choose another file name.`);
    if (output !== undefined && samePath(file, output))
      throw new Error(
        `--footprint would overwrite the -o file ${output}: choose another file name.`
      );
    const folder = path.dirname(path.resolve(file));
    if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory())
      throw new Error(`--footprint ${file}: folder ${path.dirname(file)} does not exist.`);
  }
}

/** The footprint as JSON and as CSV (the sheet's columns, delimiter, decimal mark and BOM). */
function writeFootprint(
  files: FootprintFiles,
  lanes: LaneCalculator,
  sheet: ParsedSheet,
  format: CsvFormat
): void {
  const doc = laneFootprints(lanes, sheet);
  const header = sheet.records[0] ?? [];
  const keys = header.length ? readHeader(header) : [];
  const inputColumns = keys.map((key, i) => ({ key, title: header[i].trim() }));
  fs.writeFileSync(files.json, JSON.stringify(doc, null, 2) + "\n");
  fs.writeFileSync(files.csv, footprintCsv(doc, { format, inputColumns }));
}

/** `first`, then the rest of the iterator, each taken when the reader wants it. */
function* startingWith<T>(first: T, rest: Iterator<T>): Generator<T> {
  yield first;
  for (let r = rest.next(); !r.done; r = rest.next()) yield r.value;
}

/** A progress bar on stderr (cli-progress is loaded only when there is a terminal to draw on). */
function progressBar(): CliProgress.SingleBar {
  const { SingleBar, Presets } = require("cli-progress") as typeof CliProgress;
  return new SingleBar({ stream: process.stderr, etaBuffer: 500 }, Presets.shades_classic);
}
