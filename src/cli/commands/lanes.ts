import { Command } from "commander";
import type * as CliProgress from "cli-progress";
import * as fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadEngine } from "../../data/load-engine";
import { OPTIONAL_COLUMNS, OUTPUT_COLUMNS, REQUIRED_COLUMNS } from "../../lanes/lane-sheet";
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
import type { RouteEngine } from "../../engine/route-engine";

/** Files at least this long get a progress bar on stderr. */
const PROGRESS_THRESHOLD = 1000;

export function register(program: Command): void {
  program
    .command("lanes")
    .description(
      `Distances and CO2e for a CSV of lanes, as Excel saves it (delimiter , ; or tab, detected; ` +
        `written back the same; numbers with decimal commas in a ; sheet). UTF-8 (a byte-order mark is kept) ` +
        `or Windows-1252/Latin-1 as Excel saves it (then written as UTF-8 with a byte-order mark). ` +
        `Columns (any case): ${REQUIRED_COLUMNS.join(",")}` +
        `[,${OPTIONAL_COLUMNS.join(",")}]; a blank modality means DEEPSEA. Output keeps every ` +
        `column and appends ${OUTPUT_COLUMNS.join(",")}; cells starting with = + - @ get a ' so Excel shows them as text.`
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
      "also write each lane's result with its ISO 14083 method block (WTT/TTW, intensity, factor set and sources) as JSON (iLEAP/PACT ShipmentFootprint shape where it fits) to this file, and as CSV next to it (<name>.footprint.csv; or <name>.csv + <name>.json when the name ends in .csv)"
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
        const decoded = decodeSheet(fs.readFileSync(input));
        const sheet = parseSheet(decoded.text);
        const decimal =
          (opts.decimal as DecimalSeparator | undefined) ?? decimalFor(sheet.delimiter);
        // A byte-order mark tells Excel the file is UTF-8: kept when the input had one, and added
        // when the input was Windows-1252 (its accents would otherwise read as mojibake).
        const bom = decoded.bom || decoded.encoding === "windows-1252" ? "\uFEFF" : "";
        const engine = loadEngine({ dataDir: opts.dataDir });
        const total = sheet.records.length - 1;
        const bar = total >= PROGRESS_THRESHOLD && process.stderr.isTTY ? progressBar() : undefined;
        bar?.start(total, 0);
        // The header is checked (and may throw) before the output file is created.
        const chunks = laneSheetChunks(engine, sheet, (rows) => bar?.increment(rows), decimal);
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
        if (opts.footprint) writeFootprint(opts.footprint, engine, sheet);
      }
    );
}

/**
 * The footprint as JSON and CSV: `out.json` + `out.footprint.csv` (not `out.csv`, which is often
 * the sheet's own output), or `x.csv` + `x.json` when the name given ends in .csv.
 */
function writeFootprint(file: string, engine: RouteEngine, sheet: ParsedSheet): void {
  const doc = laneFootprints(engine, loadFactorSets(), sheet);
  const base = file.replace(/\.(json|csv)$/i, "");
  const [json, csv] = /\.csv$/i.test(file)
    ? [`${base}.json`, file]
    : [file, `${base}.footprint.csv`];
  fs.writeFileSync(json, JSON.stringify(doc, null, 2) + "\n");
  fs.writeFileSync(csv, footprintCsv(doc));
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
