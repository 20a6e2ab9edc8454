/**
 * `npm run bench:lanes`: 10,000 lanes through `route-sheets lanes`, start-up included (goal < 10 s).
 * The lanes mix modalities the way a lane sheet does: mostly deep-sea between the big container
 * ports, some short-sea, barge, rail and truck, with repeats.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

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

function main(): void {
  const n = Number(process.argv[2] ?? 10_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-lanes-"));
  const input = path.join(dir, "lanes.csv");
  const output = path.join(dir, "out.csv");
  fs.writeFileSync(input, makeLanes(n));
  const bin = path.join(__dirname, "..", "..", "bin", "route-sheets.js");
  const t0 = process.hrtime.bigint();
  execFileSync(process.execPath, [bin, "lanes", input, "-o", output], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const lines = fs.readFileSync(output, "utf8").trim().split("\n");
  const errors = lines.slice(1).filter((l) => !l.endsWith(",")).length;
  console.log(
    `route-sheets lanes: ${n} lanes in ${seconds.toFixed(2)} s (start-up included), ` +
      `${(n / seconds).toFixed(0)} lanes/s; ${lines.length - 1} rows out, ${errors} with an error (goal < 10 s)`
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

main();
