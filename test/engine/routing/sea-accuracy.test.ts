/**
 * Sea distances against the reference table test/fixtures/sea-distances.csv: published port-to-port
 * distances, each row citing where its figure comes from. The goal, asserted as such:
 * median absolute error ≤ 2 % and no pair over 8 %.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { loadSeaRouter } from "../../../src/data/sea";
import { Passage, PASSAGES } from "../../../src/engine/types";

interface Row {
  origin_locode: string;
  origin_lat: string;
  origin_lng: string;
  destination_locode: string;
  destination_lat: string;
  destination_lng: string;
  nm: string;
  via: string;
  /** Passages closed on top of the defaults, '+'-separated (e.g. SUEZ+PANAMA for the Cape route). */
  avoid: string;
  source: string;
}

const rows = parse(
  fs.readFileSync(path.join(__dirname, "../../fixtures/sea-distances.csv"), "utf8"),
  {
    columns: true,
    skip_empty_lines: true,
  }
) as Row[];

const DEFAULT_CLOSED: Passage[] = ["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"];

function compare(r: Row): {
  key: string;
  ref: number;
  nm: number;
  error: number;
  passages: Passage[];
  crossesAntimeridian: boolean;
} {
  const avoid = r.avoid ? (r.avoid.split("+") as Passage[]) : [];
  const route = loadSeaRouter().route(
    { lat: Number(r.origin_lat), lng: Number(r.origin_lng) },
    { lat: Number(r.destination_lat), lng: Number(r.destination_lng) },
    { closed: new Set<Passage>([...DEFAULT_CLOSED, ...avoid]) }
  );
  if (!route) throw new Error(`no route ${r.origin_locode}-${r.destination_locode}`);
  const nm = route.meters / 1852;
  const ref = Number(r.nm);
  return {
    key: `${r.origin_locode}-${r.destination_locode} ${r.via}`,
    ref,
    nm,
    error: (Math.abs(nm - ref) / ref) * 100,
    passages: route.passages,
    crossesAntimeridian: route.path.some((p) => Math.abs(p.lng) === 180),
  };
}

describe("sea distance accuracy against published distances", () => {
  it("has at least 25 pairs, each citing its source, covering Suez, Panama, Cape, trans-Pacific, short-sea Europe and intra-Asia", () => {
    expect(rows.length).toBeGreaterThanOrEqual(25);
    for (const r of rows) {
      expect(r.source).toMatch(/https?:\/\//);
      expect(Number(r.nm)).toBeGreaterThan(0);
      for (const p of r.avoid ? r.avoid.split("+") : []) expect(PASSAGES).toContain(p);
    }
    const via = new Set(rows.map((r) => r.via));
    for (const v of ["SUEZ", "PANAMA", "CAPE", "PACIFIC-ANTIMERIDIAN", "SHORTSEA", "INTRA-ASIA"])
      expect(via).toContain(v);
  });

  const results = rows.map(compare);

  it("prints the comparison", () => {
    const lines = results.map(
      (x) =>
        `${x.key.padEnd(34)} ref ${String(x.ref).padStart(6)} nm  ours ${x.nm.toFixed(0).padStart(6)} nm  ${x.error.toFixed(1).padStart(5)} %`
    );
    console.log(lines.join("\n"));
    expect(results.length).toBe(rows.length);
  });

  it("routes by the canal the reference names; the trans-Pacific rows cross ±180°", () => {
    for (const x of results) {
      if (x.key.endsWith(" PACIFIC-ANTIMERIDIAN")) expect(x.crossesAntimeridian).toBe(true);
      if (x.key.endsWith(" SUEZ")) expect(x.passages).toContain("SUEZ");
      if (x.key.endsWith(" CAPE")) expect(x.passages).not.toContain("SUEZ");
      if (x.key.endsWith(" MAGELLAN")) expect(x.passages).toContain("MAGELLAN");
    }
    expect(
      results.filter((x) => x.key.endsWith(" PANAMA") && x.passages.includes("PANAMA")).length
    ).toBeGreaterThanOrEqual(1);
  });

  it("every pair is within 8 %", () => {
    const over = results.filter((x) => x.error > 8).map((x) => `${x.key} ${x.error.toFixed(1)} %`);
    expect(over).toEqual([]);
  });

  it("median absolute error is at most 2 %", () => {
    const errors = results.map((x) => x.error).sort((a, b) => a - b);
    const median =
      errors.length % 2
        ? errors[(errors.length - 1) / 2]
        : (errors[errors.length / 2 - 1] + errors[errors.length / 2]) / 2;
    console.log(
      `median absolute error ${median.toFixed(2)} %, max ${errors[errors.length - 1].toFixed(2)} % over ${errors.length} pairs`
    );
    expect(median).toBeLessThanOrEqual(2);
  });
});
