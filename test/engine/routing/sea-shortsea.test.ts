/**
 * Short-sea distances against our own reference table test/fixtures/shortsea-distances.csv:
 * published port-to-port distances (NGA Pub. 151 "Distances Between Ports", a ferry operator, a
 * cruising guide), each row with its source and the reference point of each end. Routed with the
 * DEEPSEA defaults (Kiel and Corinth closed), as the published tables route round Skagen and Greece.
 *
 * The rows were chosen before measuring: every Pub. 151 pair of a list of regional port pairs,
 * except three Copenhagen rows whose Pub. 151 figures are more than twice the open-water route
 * (Copenhagen-Gdansk 468 nm for 223 nm great circle; -Rostock 231 for 97; -Riga 696 for 389).
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { loadSeaRouter } from "../../../src/data/sea";
import { Passage } from "../../../src/engine/types";

interface Row {
  origin: string;
  origin_lat: string;
  origin_lng: string;
  destination: string;
  destination_lat: string;
  destination_lng: string;
  nm: string;
  reference_point: string;
  source: string;
}

const rows = parse(
  fs.readFileSync(path.join(__dirname, "../../fixtures/shortsea-distances.csv"), "utf8"),
  { columns: true, skip_empty_lines: true }
) as Row[];

const CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);

const results = rows.map((r) => {
  const route = loadSeaRouter().route(
    { lat: Number(r.origin_lat), lng: Number(r.origin_lng) },
    { lat: Number(r.destination_lat), lng: Number(r.destination_lng) },
    { closed: CLOSED }
  );
  if (!route) throw new Error(`no route ${r.origin} - ${r.destination}`);
  const nm = route.meters / 1852;
  const ref = Number(r.nm);
  return {
    key: `${r.origin} - ${r.destination}`,
    ref,
    nm,
    error: (Math.abs(nm - ref) / ref) * 100,
  };
});

describe("short-sea reference table", () => {
  it("has at least 40 lanes, each with a published distance, a source and the reference points", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
    for (const r of rows) {
      expect(Number(r.nm)).toBeGreaterThan(0);
      expect(r.source).toMatch(/https?:\/\//);
      expect(r.reference_point.length).toBeGreaterThan(10);
      for (const v of [r.origin_lat, r.origin_lng, r.destination_lat, r.destination_lng])
        expect(Number.isFinite(Number(v))).toBe(true);
    }
  });

  it("median absolute error ≤ 3 %", () => {
    const errors = results.map((x) => x.error).sort((a, b) => a - b);
    const median = errors[Math.floor(errors.length / 2)];
    expect(median).toBeLessThanOrEqual(3);
  });

  it("no lane over 10 % except the listed ones (published route longer than the fairway we find)", () => {
    const over = results.filter((x) => x.error > 10).map((x) => x.key);
    // Measured; see the note in the report: these are left as they are, not hidden.
    expect(over.sort()).toEqual(KNOWN_OVER_10.sort());
    for (const x of results) expect(x.error).toBeLessThan(20);
  });
});

/**
 * Measured over 10 %: Pub. 151 gives Kobe-Hiroshima 179 nm where the Seto Inland Sea fairway by the
 * Akashi and Kurushima straits is about 150 nm (we find 146); Dalian-Incheon 290 nm where we find
 * 259 nm (great circle 250); Singapore-Port Swettenham 210 nm where we reach Port Klang's North
 * Port from the west (234 nm) for want of its island channels, which 1:50m draws as land.
 */
const KNOWN_OVER_10: string[] = [
  "Dalian, China - Incheon, South Korea",
  "Kobe, Japan - Hiroshima, Japan",
  "Singapore - Port Swettenham, Malaysia",
];
