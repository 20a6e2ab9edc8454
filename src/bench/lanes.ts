/**
 * `npm run bench:lanes`: 10,000 lanes through `route-sheets lanes`, start-up included (goal < 2 s),
 * warm (engine snapshot present) and cold (an empty snapshot folder: the first start of a checkout).
 * The lanes mix modalities the way a lane sheet does: mostly deep-sea between the big container
 * ports, some short-sea, barge, rail and truck, with repeats.
 *
 * `node dist/bench/lanes.js [N] [--before DIR]`: N lanes; DIR another built checkout of route-sheets
 * timed on the same lanes in the same run (before/after as a ratio).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ChildTime, timeNode } from "./child-time";

const SEA = [
  "CNSHA",
  "SGSIN",
  "CNNGB",
  "CNSZX",
  "CNTAO",
  "KRPUS",
  "HKHKG",
  "CNTXG",
  "AEJEA",
  "NLRTM",
  "MYPKG",
  "BEANR",
  "CNXMN",
  "MYTPP",
  "USLAX",
  "USLGB",
  "DEHAM",
  "USNYC",
  "LKCMB",
  "JPTYO",
  "THLCH",
  "VNSGN",
  "GRPIR",
  "ESVLC",
  "ESALG",
  "MAPTM",
  "EGPSD",
  "BRSSZ",
  "PAMIT",
  "USSAV",
  "GBFXT",
  "FRLEH",
  "ITGOA",
  "TWKHH",
  "INNSA",
  "SAJED",
  "OMSLL",
  "AUMEL",
  "AUSYD",
  "ZADUR",
  "CLSAI",
  "PECLL",
  "MXZLO",
  "CAVAN",
  "USSEA",
  "JPYOK",
  "IDTPP",
  "PHMNL",
];
const EUROPE = [
  "NLRTM",
  "BEANR",
  "DEHAM",
  "DEBRV",
  "FRLEH",
  "GBFXT",
  "ESVLC",
  "ITGOA",
  "PLGDN",
  "DEDUI",
  "CHBSL",
  "ATVIE",
  "HUBUD",
  "CZPRG",
  "ITMIL",
  "DEMUC",
];
const RHINE = ["NLRTM", "BEANR", "DEDUI", "CHBSL", "DEMHG", "FRSXB"];

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function pick<T>(r: () => number, xs: T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function makeLanes(n: number): string {
  const r = rng(42);
  const rows = ["origin,destination,modality,containerType"];
  for (let i = 0; i < n; i++) {
    const x = r();
    let o: string, d: string, m: string;
    if (x < 0.7) [o, d, m] = [pick(r, SEA), pick(r, SEA), "DEEPSEA"];
    else if (x < 0.8)
      [o, d, m] = [pick(r, EUROPE.slice(0, 9)), pick(r, EUROPE.slice(0, 9)), "SHORTSEA"];
    else if (x < 0.87) [o, d, m] = [pick(r, RHINE), pick(r, RHINE), "BARGE"];
    else if (x < 0.94) [o, d, m] = [pick(r, EUROPE), pick(r, EUROPE), "RAIL"];
    else [o, d, m] = [pick(r, EUROPE), pick(r, EUROPE), "TRUCK"];
    rows.push(`${o},${d},${m},${r() < 0.5 ? "40HC" : "20DV"}`);
  }
  return rows.join("\n") + "\n";
}

/** One `route-sheets lanes` process of the checkout at `root`: its times, rows out and rows with an error. */
function runLanes(
  root: string,
  input: string,
  output: string,
  env: NodeJS.ProcessEnv
): ChildTime & { rows: number; errors: number } {
  const t = timeNode(
    [path.join(root, "bin", "route-sheets.js"), "lanes", input, "-o", output],
    env
  );
  const lines = fs.readFileSync(output, "utf8").trim().split("\n");
  const errors = lines.slice(1).filter((l) => !l.endsWith(",")).length;
  return { ...t, rows: lines.length - 1, errors };
}

function main(): void {
  const args = process.argv.slice(2);
  const beforeAt = args.indexOf("--before");
  const before = beforeAt >= 0 ? args.splice(beforeAt, 2)[1] : undefined;
  const n = Number(args[0] ?? 10_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-lanes-"));
  const input = path.join(dir, "lanes.csv");
  const output = path.join(dir, "out.csv");
  fs.writeFileSync(input, makeLanes(n));
  const root = path.join(__dirname, "..", "..");
  try {
    runLanes(root, input, output, process.env); // makes the snapshot if this checkout has none
    const warm = runLanes(root, input, output, process.env);
    const cold = runLanes(root, input, output, {
      ...process.env,
      ROUTE_SHEETS_CACHE_DIR: path.join(dir, "empty-cache"),
    });
    console.log(
      `route-sheets lanes: ${n} lanes in ${warm.s.toFixed(2)} s (start-up included, warm snapshot; goal < 2 s; ${warm.cpuS.toFixed(2)} s CPU), ` +
        `${(n / warm.s).toFixed(0)} lanes/s; ${warm.rows} rows out, ${warm.errors} with an error`
    );
    console.log(
      `  cold (no snapshot: builds and writes it): ${cold.s.toFixed(2)} s (${cold.cpuS.toFixed(2)} s CPU), cold/warm ${(cold.s / warm.s).toFixed(2)}×`
    );
    if (before) {
      runLanes(before, input, output, process.env);
      const old = runLanes(before, input, output, process.env);
      console.log(
        `  before (${before}): ${old.s.toFixed(2)} s (${old.cpuS.toFixed(2)} s CPU; ${old.rows} rows, ${old.errors} with an error); before/now ${(old.s / warm.s).toFixed(2)}× wall, ${(old.cpuS / warm.cpuS).toFixed(2)}× CPU`
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
