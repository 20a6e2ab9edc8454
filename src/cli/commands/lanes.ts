import { Command } from "commander";
import { parse } from "csv-parse";
import { stringify } from "csv-stringify";
import { SingleBar, Presets } from "cli-progress";
import * as fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { loadEngine } from "../../data/load-engine";
import { checkHeader, computeLane, LaneRow, OUTPUT_COLUMNS } from "../../lanes/lane-sheet";

/** Files at least this long get a progress bar on stderr. */
const PROGRESS_THRESHOLD = 1000;

export function register(program: Command): void {
  program
    .command("lanes")
    .description(
      "Distances and CO2e for a CSV of lanes. Input columns: origin,destination,modality " +
        "[,vesselInfo,containerType,fuelType,avoid]; output keeps them and appends " +
        `${OUTPUT_COLUMNS.join(",")}.`
    )
    .argument("<in.csv>", "input CSV with a header row")
    .option("-o, --output <out.csv>", "write here instead of stdout")
    .option("--data-dir <dir>", "data directory with imported places, terminals and vessels")
    .action(async (input: string, opts: { output?: string; dataDir?: string }) => {
      if (!fs.existsSync(input)) throw new Error(`Input file not found: ${input}`);
      const engine = loadEngine({ dataDir: opts.dataDir });
      const total = countLines(input) - 1;
      const bar =
        total >= PROGRESS_THRESHOLD
          ? new SingleBar({ stream: process.stderr, etaBuffer: 500 }, Presets.shades_classic)
          : undefined;
      bar?.start(total, 0);

      let columns: string[] | undefined;
      const compute = new Transform({
        objectMode: true,
        transform(row: LaneRow, _enc, done) {
          if (!columns) {
            columns = Object.keys(row);
            try {
              checkHeader(columns);
            } catch (err) {
              done(err as Error);
              return;
            }
          }
          bar?.increment();
          done(null, { ...row, ...computeLane(engine, row) });
        },
      });
      const out = opts.output ? fs.createWriteStream(opts.output) : process.stdout;
      try {
        await pipeline(
          fs.createReadStream(input),
          parse({
            columns: (header: string[]) => header.map((h) => h.trim()),
            bom: true,
            skip_empty_lines: true,
            trim: true,
          }),
          compute,
          stringify({ header: true, columns: undefined }),
          out
        );
      } finally {
        bar?.stop();
      }
    });
}

function countLines(file: string): number {
  const buf = fs.readFileSync(file);
  let n = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) n++;
  return buf.length && buf[buf.length - 1] !== 10 ? n + 1 : n;
}
