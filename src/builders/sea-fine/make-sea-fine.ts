/**
 * Generates data/sea-fine-land.json: Natural Earth 1:10m land (npm world-atlas land-10m.json,
 * public domain) clipped to each fine region (regions.ts), the land the fine water grids of
 * src/engine/routing/sea-fine/ are made from. Only what the regions need is kept: each ring that
 * meets a region is clipped to the region's box (Sutherland–Hodgman: the box is convex), its
 * coordinates rounded to 1e-5° (about 1 m) and written as integer deltas.
 *
 * Run after changing the regions:  npm run build:node && node dist/builders/sea-fine/make-sea-fine.js
 * (test/engine/routing/sea-fine.test.ts checks that the committed file matches its inputs).
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { feature } from "topojson-client";
import type { FeatureCollection, MultiPolygon, Polygon } from "geojson";
import type { GeometryCollection, Topology } from "topojson-specification";
import { FINE_REGIONS, FineRegionSpec } from "./regions";
import { encodeRing, FineLandFile } from "../../engine/routing/sea-fine/fine-land-file";

const ROOT = path.resolve(__dirname, "..", "..", "..");
export const FINE_LAND_FILE = path.join(ROOT, "data", "sea-fine-land.json");
const GENERATOR = "src/builders/sea-fine/make-sea-fine.ts v2";

function atlasFile(): string {
  return require.resolve("world-atlas/land-10m.json", { paths: [ROOT] });
}

/** Hash of the inputs (the 1:10m land, the regions, the generator version). */
export function fineInputsSha256(): string {
  const h = createHash("sha256");
  h.update(fs.readFileSync(atlasFile()));
  h.update(fs.readFileSync(path.join(ROOT, "data", "sea-islands.json")));
  h.update(JSON.stringify(FINE_REGIONS));
  h.update(GENERATOR);
  return h.digest("hex");
}

type Ring = Array<[number, number]>;

/** data/sea-islands.json: islands the shipped scales leave out (the Seto Inland Sea's, …). */
function islandRings(): Ring[] {
  const file = path.join(ROOT, "data", "sea-islands.json");
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as { islands: Array<{ ring: Ring }> };
  return json.islands.map((i) => i.ring);
}

function landRings(): Ring[] {
  const topo = JSON.parse(fs.readFileSync(atlasFile(), "utf8")) as Topology<{
    land: GeometryCollection;
  }>;
  const fc = feature(topo, topo.objects.land) as unknown as FeatureCollection<
    Polygon | MultiPolygon
  >;
  const rings: Ring[] = [];
  for (const f of fc.features) {
    const polys = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
    for (const poly of polys) for (const ring of poly) rings.push(ring as Ring);
  }
  return rings;
}

/** A ring clipped to the box [w, s, e, n] (Sutherland–Hodgman, one box side at a time). */
export function clipRing(ring: Ring, box: readonly [number, number, number, number]): Ring {
  const [w, s, e, n] = box;
  const sides: Array<{
    inside: (p: [number, number]) => boolean;
    cut: (a: [number, number], b: [number, number]) => [number, number];
  }> = [
    {
      inside: (p) => p[0] >= w,
      cut: (a, b) => [w, a[1] + ((w - a[0]) * (b[1] - a[1])) / (b[0] - a[0])],
    },
    {
      inside: (p) => p[0] <= e,
      cut: (a, b) => [e, a[1] + ((e - a[0]) * (b[1] - a[1])) / (b[0] - a[0])],
    },
    {
      inside: (p) => p[1] >= s,
      cut: (a, b) => [a[0] + ((s - a[1]) * (b[0] - a[0])) / (b[1] - a[1]), s],
    },
    {
      inside: (p) => p[1] <= n,
      cut: (a, b) => [a[0] + ((n - a[1]) * (b[0] - a[0])) / (b[1] - a[1]), n],
    },
  ];
  let pts = ring.slice();
  if (
    pts.length > 1 &&
    pts[0][0] === pts[pts.length - 1][0] &&
    pts[0][1] === pts[pts.length - 1][1]
  )
    pts.pop();
  for (const side of sides) {
    if (!pts.length) break;
    const out: Ring = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[(i + pts.length - 1) % pts.length];
      const b = pts[i];
      const ina = side.inside(a);
      const inb = side.inside(b);
      if (inb) {
        if (!ina) out.push(side.cut(a, b));
        out.push(b);
      } else if (ina) out.push(side.cut(a, b));
    }
    pts = out;
  }
  return pts;
}

function regionRings(rings: Ring[], region: FineRegionSpec): Ring[] {
  // A margin of a few cells beyond the box, so the grid's edge cells see the land next to them.
  const m = region.cellDegrees * 4;
  const [w, s, e, n] = region.box;
  const box: [number, number, number, number] = [w - m, s - m, e + m, n + m];
  const out: Ring[] = [];
  for (const ring of rings) {
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const [x, y] of ring) {
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    if (x1 < box[0] || x0 > box[2] || y1 < box[1] || y0 > box[3]) continue;
    const clipped = clipRing(ring, box);
    if (clipped.length >= 3) out.push(clipped);
  }
  return out;
}

export function buildFineLandFile(): FineLandFile {
  // Natural Earth 1:10m also lacks islands of busy waters (Etajima, Kurahashi-jima, Shōdoshima):
  // those of data/sea-islands.json are land here too, as in every other sea check.
  const rings = [...landRings(), ...islandRings()];
  return {
    description:
      "Natural Earth 1:10m land clipped to the fine sea regions (fjords, sounds, archipelagos and straits), for the fine water grids of src/engine/routing/sea-fine/. Each ring is [x0, y0, dx1, dy1, …] in 1e-5 degrees (lng, lat), closed implicitly.",
    provenance:
      "Derived from Natural Earth 1:10m land (public domain, https://www.naturalearthdata.com; npm world-atlas land-10m.json) and the islands of data/sea-islands.json by src/builders/sea-fine/make-sea-fine.ts.",
    generator: GENERATOR,
    inputsSha256: fineInputsSha256(),
    regions: FINE_REGIONS.map((r) => ({
      id: r.id,
      name: r.name,
      box: r.box,
      cellDegrees: r.cellDegrees,
      reason: r.reason,
      rings: regionRings(rings, r).map(encodeRing),
    })),
  };
}

if (require.main === module) {
  const file = buildFineLandFile();
  fs.writeFileSync(FINE_LAND_FILE, JSON.stringify(file) + "\n");
  for (const r of file.regions)
    console.log(
      `${r.id}: ${r.rings.length} rings, ${r.rings.reduce((n, x) => n + x.length / 2, 0)} points`
    );
  console.log(`${FINE_LAND_FILE}: ${fs.statSync(FINE_LAND_FILE).size} bytes`);
}
