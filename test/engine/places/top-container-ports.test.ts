/**
 * data/top-container-ports.csv (a published top-100 container ports ranking) against the shipped
 * places: every port resolves by its UN/LOCODE and has at least one container terminal, placed
 * near its port and on the water side of Natural Earth's coastline.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { DATA_ROOT, loadPlaces } from "../../../src/data/places";
import { loadLandPolygons } from "../../../src/data/inland";
import { greatCircleMeters } from "../../../src/engine/optimizer/access";
import { LandmassIndex } from "../../../src/engine/routing/overland/landmass-index";
import { LatLng } from "../../../src/engine/types";

interface RankedPort {
  rank: string;
  locode: string;
  name: string;
  rank_confirmed: string;
  source: string;
}

const ranking = parse(fs.readFileSync(path.join(DATA_ROOT, "top-container-ports.csv"), "utf8"), {
  columns: true,
  skip_empty_lines: true,
}) as RankedPort[];
const { resolver, terminals } = loadPlaces();

/** Terminals that handle ships (not barge-only or rail-only). */
const containerTerminals = (locode: string) =>
  terminals
    .search(locode)
    .filter((t) => t.modalities.includes("DEEPSEA") || t.modalities.includes("SHORTSEA"));

/** Ports spread over sites far apart: Shanghai's Waigaoqiao terminals are 90 km from Yangshan. */
const SPREAD_PORTS_KM: Record<string, number> = { CNSHA: 100 };
const DEFAULT_RADIUS_KM = 40;

/**
 * River ports upstream of the 1:50m coastline (the river is land at that scale), where the
 * water-side check cannot apply.
 */
const RIVER_PORTS = new Set([
  "NLRTM",
  "BEANR",
  "DEHAM",
  "USSAV",
  "VNSGN",
  "CNNKG",
  "CNWUH",
  "THBKK",
]);

describe("data/top-container-ports.csv", () => {
  it("ranks 100 distinct ports 1..100, each with a source", () => {
    expect(ranking.map((r) => Number(r.rank))).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1)
    );
    expect(new Set(ranking.map((r) => r.locode)).size).toBe(100);
    for (const r of ranking) {
      expect(r.locode).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/);
      expect(r.source).toMatch(/Lloyd's List One Hundred Container Ports 2025.*https?:\/\//);
      expect(["yes", "no"]).toContain(r.rank_confirmed);
    }
  });

  it("every port resolves by its UN/LOCODE (Hamad QAHMD included)", () => {
    const unresolved = ranking.filter((r) => {
      try {
        resolver.resolve(r.locode, "locode");
        return false;
      } catch {
        return true;
      }
    });
    expect(unresolved.map((r) => r.locode)).toEqual([]);
    expect(resolver.resolve("QAHMD", "locode")).toMatchObject({ locode: "QAHMD" });
  });

  it("every port has at least one container terminal", () => {
    const without = ranking.filter((r) => containerTerminals(r.locode).length === 0);
    expect(without.map((r) => r.locode)).toEqual([]);
    for (const locode of ["TWKHH", "IDTPP", "PHMNL", "AUMEL", "AUSYD", "QAHMD", "TGLFW", "GHTEM"])
      expect(containerTerminals(locode).length).toBeGreaterThan(0);
  });

  it("each terminal lies within a sensible radius of its port", () => {
    const far: string[] = [];
    for (const r of ranking) {
      const port = resolver.resolve(r.locode, "locode");
      const radiusKm = SPREAD_PORTS_KM[r.locode] ?? DEFAULT_RADIUS_KM;
      for (const t of terminals.search(r.locode)) {
        const km = greatCircleMeters(port, t) / 1000;
        if (km > radiusKm) far.push(`${r.locode} ${t.name}: ${km.toFixed(1)} km`);
      }
    }
    expect(far).toEqual([]);
  });

  it("each container terminal is on the water side: sea within 12 km at Natural Earth 1:50m", () => {
    const land = new LandmassIndex(loadLandPolygons(), { snapMeters: 0 });
    const seaWithin = (p: LatLng, km: number) => {
      for (const step of [0, 1, 2, 3, 5, 8, 12].filter((s) => s <= km))
        for (let k = 0; k < 32; k++) {
          const a = (k * Math.PI) / 16;
          const q = {
            lat: p.lat + (step / 111.2) * Math.cos(a),
            lng: p.lng + ((step / 111.2) * Math.sin(a)) / Math.cos((p.lat * Math.PI) / 180),
          };
          if (land.landmassOf(q) === null) return true;
        }
      return false;
    };
    const inland: string[] = [];
    for (const r of ranking) {
      if (RIVER_PORTS.has(r.locode)) continue;
      for (const t of containerTerminals(r.locode))
        if (!seaWithin(t, 12)) inland.push(`${r.locode} ${t.name}`);
    }
    expect(inland).toEqual([]);
    // The check can fail: a point far inland (Madrid) has no sea in reach.
    expect(seaWithin({ lat: 40.4168, lng: -3.7038 }, 12)).toBe(false);
  });
});
