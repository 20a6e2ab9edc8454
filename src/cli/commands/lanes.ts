import { Command } from "commander";
import { parse } from "csv-parse";
import { stringify } from "csv-stringify";
import type * as CliProgress from "cli-progress";
import * as fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { loadEngine } from "../../data/load-engine";
import {
  computeLane,
  detectDelimiter,
  excelSafe,
  LaneRow,
  OPTIONAL_COLUMNS,
  OUTPUT_COLUMNS,
  readHeader,
  REQUIRED_COLUMNS,
} from "../../lanes/lane-sheet";

/** Files at least this long get a progress bar on stderr. */
const PROGRESS_THRESHOLD = 1000;

export function register(program: Command): void {
  program
    .command("lanes")
    .description(
      `Distances and CO2e for a CSV of lanes, as Excel saves it (delimiter , ; or tab, detected; ` +
        `written back the same). Columns (any case): ${REQUIRED_COLUMNS.join(",")}` +
        `[,${OPTIONAL_COLUMNS.join(",")}]; a blank modality means DEEPSEA. Output keeps every ` +
        `column and appends ${OUTPUT_COLUMNS.join(",")}; cells starting with = + - @ get a ' so Excel shows them as text.`
    )
    .argument("<in.csv>", "input CSV with a header row")
    .option("-o, --output <out.csv>", "write here instead of stdout")
    .option("--data-dir <dir>", "data directory with imported places, terminals and vessels")
    .action(async (input: string, opts: { output?: string; dataDir?: string }) => {
      if (!fs.existsSync(input)) throw new Error(`Input file not found: ${input}`);
      const delimiter = detectDelimiter(firstLine(input));
      const engine = loadEngine({ dataDir: opts.dataDir });
      const total = countLines(input) - 1;
      const bar = total >= PROGRESS_THRESHOLD && process.stderr.isTTY ? progressBar() : undefined;
      bar?.start(total, 0);

      let columns: string[] | undefined;
      const compute = new Transform({
        objectMode: true,
        transform(record: string[], _enc, done) {
          if (!columns) {
            try {
              columns = readHeader(record);
            } catch (err) {
              done(err as Error);
              return;
            }
            done(null, [...record.map((h) => excelSafe(h.trim())), ...OUTPUT_COLUMNS]);
            return;
          }
          const row: LaneRow = {};
          columns.forEach((name, i) => (row[name] = record[i] ?? ""));
          const results = computeLane(engine, row);
          bar?.increment();
          done(null, [
            ...record.map(excelSafe),
            ...OUTPUT_COLUMNS.map((c) => excelSafe(results[c])),
          ]);
        },
      });
      const out = opts.output ? fs.createWriteStream(opts.output) : process.stdout;
      try {
        await pipeline(
          fs.createReadStream(input),
          parse({
            delimiter,
            bom: true,
            skip_empty_lines: true,
            trim: true,
            relax_column_count: true,
          }),
          compute,
          stringify({ delimiter }),
          out
        );
      } catch (err) {
        // The reader went away (`| head`): nothing left to tell anyone.
        if ((err as NodeJS.ErrnoException).code === "EPIPE") return;
        throw err;
      } finally {
        bar?.stop();
      }
    });
}

/** The header line (BOM dropped), to detect the delimiter before parsing. */
function firstLine(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const text = buf
      .subarray(0, n)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    return text.split(/\r?\n/, 1)[0];
  } finally {
    fs.closeSync(fd);
  }
}

function countLines(file: string): number {
  const buf = fs.readFileSync(file);
  let n = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) n++;
  return buf.length && buf[buf.length - 1] !== 10 ? n + 1 : n;
}

/** A progress bar on stderr (cli-progress is loaded only when there is a terminal to draw on). */
function progressBar(): CliProgress.SingleBar {
  const { SingleBar, Presets } = require("cli-progress") as typeof CliProgress;
  return new SingleBar({ stream: process.stderr, etaBuffer: 500 }, Presets.shades_classic);
}
