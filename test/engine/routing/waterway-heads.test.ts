/**
 * Heads of navigation: every navigable river of data/waterways.json runs to its published head
 * (data/waterway-heads.csv, with sources), and barges reach each head from the sea. The check goes
 * over the data itself: any waterway end that is neither a junction with another waterway nor a
 * sea mouth must be a listed head (or a listed sea port), so a river cut short (the Moselle once
 * stopped at Metz) fails here whatever river it is.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { loadBargeRouter, loadWaterwaysFile } from "../../../src/data/inland";
import { geodesicMeters } from "../../../src/engine/geo/geodesy";

interface Head {
  waterway: string;
  head: string;
  lat: string;
  lng: string;
  kind: string;
  limit: string;
  source: string;
}

const heads = parse(
  fs.readFileSync(path.join(__dirname, "../../../data/waterway-heads.csv"), "utf8"),
  { columns: true, skip_empty_lines: true }
) as Head[];
const file = loadWaterwaysFile();
const router = loadBargeRouter();

/** Ends of waterways that join nothing: neither a node shared with another waterway nor a sea mouth. */
function openEnds(): { waterway: string; lat: number; lng: number; name?: string }[] {
  const uses = new Map<string, number>();
  for (const w of file.waterways)
    for (const p of w.points) if (p.node) uses.set(p.node, (uses.get(p.node) ?? 0) + 1);
  const out: { waterway: string; lat: number; lng: number; name?: string }[] = [];
  for (const w of file.waterways) {
    for (const p of [w.points[0], w.points[w.points.length - 1]]) {
      if (p.sea || (p.node && (uses.get(p.node) ?? 0) > 1)) continue;
      out.push({ waterway: w.id, lat: p.lat, lng: p.lng, name: p.name });
    }
  }
  return out;
}

describe("heads of navigation", () => {
  test("every listed head cites a published limit and a source", () => {
    expect(heads.length).toBeGreaterThanOrEqual(10);
    for (const h of heads) {
      expect([h.waterway, ["head", "port"].includes(h.kind)]).toEqual([h.waterway, true]);
      expect(h.limit.length).toBeGreaterThan(20);
      expect(h.source).toMatch(/https?:\/\//);
      expect(file.waterways.some((w) => w.id === h.waterway)).toBe(true);
    }
  });

  test("every open end of a waterway is its published head (within 5 km)", () => {
    const ends = openEnds();
    expect(ends.length).toBeGreaterThan(5);
    for (const end of ends) {
      const listed = heads.filter((h) => h.waterway === end.waterway);
      const nearest = Math.min(
        ...listed.map((h) => geodesicMeters(end.lat, end.lng, Number(h.lat), Number(h.lng)))
      );
      expect([end.waterway, end.name, nearest <= 5_000]).toEqual([end.waterway, end.name, true]);
    }
    // And every listed head is such an end: the data reaches it and stops there.
    for (const h of heads) {
      expect([
        h.head,
        ends.some(
          (e) =>
            e.waterway === h.waterway &&
            geodesicMeters(e.lat, e.lng, Number(h.lat), Number(h.lng)) <= 5_000
        ),
      ]).toEqual([h.head, true]);
    }
  });

  test("the systems the issue names reach their heads", () => {
    const listed = new Set(heads.filter((h) => h.kind === "head").map((h) => h.waterway));
    for (const w of [
      "MOSELLE",
      "RHINE",
      "ELBE",
      "UPPER_MISSISSIPPI",
      "OHIO",
      "ILLINOIS_WATERWAY",
      "MISSOURI",
      "YANGTZE",
      "PEARL_XIJIANG",
    ])
      expect(listed).toContain(w);
  });

  test("barges reach every head from a sea mouth", () => {
    const mouths = router.network.mouths.map((m) => router.network.nodes[m.node]);
    for (const h of heads) {
      const at = { lat: Number(h.lat), lng: Number(h.lng) };
      const reached = mouths.some((m) => router.route(at, { lat: m.lat, lng: m.lng }) !== null);
      expect([h.head, reached]).toEqual([h.head, true]);
    }
  });

  test("Koblenz → Neuves-Maisons runs the whole canalised Moselle (394 km) through Metz and Toul", () => {
    const r = router.route({ lat: 50.3569, lng: 7.589 }, { lat: 48.615, lng: 6.1 })!;
    expect(r).not.toBeNull();
    expect(Math.abs(r.meters / 1000 - 394)).toBeLessThan(8);
    const near = (lat: number, lng: number): boolean =>
      r.path.some((p) => geodesicMeters(p.lat, p.lng, lat, lng) < 5_000);
    expect(near(49.12, 6.17)).toBe(true); // Metz
    expect(near(48.685, 5.905)).toBe(true); // Toul
  });
});
