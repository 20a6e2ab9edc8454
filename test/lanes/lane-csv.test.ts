/**
 * Lane sheets in CSV (src/lanes/lane-csv.ts): a lane repeated further down the sheet is written
 * from the first one's cells, and only cells the sheet reads make two rows the same lane.
 */
import { loadEngine } from "../../src/data/load-engine";
import { loadFactorSets } from "../../src/data/emissions";
import { FactorEmissionCalculator } from "../../src/engine/emissions";
import { laneSheetChunks, parseSheet } from "../../src/lanes/lane-csv";
import { LaneCalculator } from "../../src/lanes/lane-sheet";

const engine = loadEngine();
const current = engine.parts.emissions;
const sets = loadFactorSets(current instanceof FactorEmissionCalculator ? current : undefined);

function output(csv: string, lanes = new LaneCalculator(engine, sets)): string[] {
  return [...laneSheetChunks(lanes, parseSheet(csv))].join("").trimEnd().split(/\r?\n/);
}

/** Lanes alike but for one read cell each: a key that missed one would mix them up. */
const LANES = [
  "NLRTM,DEHAM,TRUCK,40HC,,2",
  "NLRTM,DEHAM,RAIL,40HC,,2",
  "NLRTM,DEHAM,TRUCK,20DV,,2",
  "NLRTM,DEHAM,TRUCK,40HC,HVO,2",
  "NLRTM,DEBRV,TRUCK,40HC,,2",
  "NLRTM,DEHAM,TRUCK,40HC,,3",
  "NLRTM,DEHAM,BARGE,40HC,,2",
  "CNSHA,NLRTM,DEEPSEA,40HC,,2",
  "Rotterdm,DEHAM,TRUCK,40HC,,2",
  ",,,,,",
];

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

test("repeated lanes (with other lane ids) get the cells each would get alone, computed once", () => {
  const header = "id,origin,destination,modality,containerType,fuelType,containers";
  const alone = new Map(
    LANES.map((lane) => [lane, output(`${header}\nx,${lane}\n`)[1].split(",").slice(7).join(",")])
  );
  // Every answer is different, so a row given another lane's cells would show.
  expect(new Set(alone.values()).size).toBe(LANES.length);

  const r = rng(3);
  const rows = Array.from({ length: 200 }, () => LANES[Math.floor(r() * LANES.length)]);
  const lanes = new LaneCalculator(engine, sets);
  const compute = jest.spyOn(lanes, "compute");
  const lines = output(
    `${header}\n${rows.map((lane, i) => `id-${i},${lane}`).join("\n")}\n`,
    lanes
  );
  expect(lines).toHaveLength(rows.length + 1);
  rows.forEach((lane, i) => {
    const cells = lines[i + 1].split(",");
    expect([cells[0], cells.slice(7).join(",")]).toEqual([`id-${i}`, alone.get(lane)]);
  });
  expect(compute).toHaveBeenCalledTimes(new Set(rows).size);
});
