/**
 * Builds data/land/terrain/elevation-20min.json, the land elevation grid the fallback model reads
 * its relief from: ETOPO (NOAA, public domain) at 20 arc-minutes as Matplotlib Basemap ships it
 * (github.com/matplotlib/basemap, doc/examples/etopo20data.gz with etopo20lats.gz and
 * etopo20lons.gz: 540 rows of cell-centre latitudes -89.83..89.83, 1,081 longitudes 20.17..380.17
 * whose last repeats the first). Sea is stored as 0 (only climbs on land count); land heights in
 * units of 10 m, one row per latitude from the south, columns from 20.17° E eastwards.
 *
 * Run:  npm run build:node && node dist/builders/land/build-elevation-grid.js <dir of the .gz files>
 */
import * as fs from "fs";
import * as path from "path";
import * as zlib from "zlib";
import type { ElevationGridFile } from "../../engine/routing/overland/elevation-grid";

function numbers(file: string): number[] {
  return zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").trim().split(/\s+/).map(Number);
}

export function elevationGridFrom(dir: string): ElevationGridFile {
  const lats = numbers(path.join(dir, "etopo20lats.gz"));
  const lngs = numbers(path.join(dir, "etopo20lons.gz"));
  const data = numbers(path.join(dir, "etopo20data.gz"));
  const columns = lngs.length - 1; // the last column repeats the first
  if (data.length !== lats.length * lngs.length) throw new Error("grid size does not match");
  // The longitudes go round in equal steps; the latitudes are spaced the same.
  const step = 360 / columns;
  if (Math.abs(lats[1] - lats[0] - step) > 1e-6) throw new Error("rows and columns differ in step");
  const heights: number[] = [];
  for (let r = 0; r < lats.length; r++)
    for (let c = 0; c < columns; c++)
      heights.push(Math.max(0, Math.round(data[r * lngs.length + c] / 10)));
  return {
    source:
      "ETOPO global relief (NOAA National Centers for Environmental Information) at 20 arc-minutes, as shipped by Matplotlib Basemap: github.com/matplotlib/basemap doc/examples/etopo20data.gz, etopo20lats.gz, etopo20lons.gz",
    licence: "public domain (NOAA, US government work); Basemap packaging MIT",
    firstLat: Math.round(lats[0] * 1e6) / 1e6,
    firstLng: Math.round(lngs[0] * 1e6) / 1e6,
    stepDegrees: step,
    rows: lats.length,
    columns,
    unitMeters: 10,
    heights,
  };
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir)
    throw new Error(
      "usage: build-elevation-grid <dir with etopo20data.gz, etopo20lats.gz, etopo20lons.gz>"
    );
  const file = elevationGridFrom(dir);
  const out = path.resolve(
    __dirname,
    "..",
    "..",
    "..",
    "data",
    "land",
    "terrain",
    "elevation-20min.json"
  );
  fs.writeFileSync(out, JSON.stringify(file) + "\n");
  console.log(`elevation-20min.json: ${file.rows} x ${file.columns}`);
}
