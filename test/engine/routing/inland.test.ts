/**
 * BARGE routing on the real inland-waterway data (data/waterways.json): distances against published
 * river-kilometre tables (test/fixtures/river-distances.csv), snapping limits, disconnected systems.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "csv-parse/sync";
import {
  loadBargeRouter,
  loadLandAdditions,
  loadOverlandRouter,
  loadWaterwaysFile,
} from "../../../src/data/inland";
import { BargeNetwork } from "../../../src/engine/routing/inland/barge-network";
import { BargeGraphRouter } from "../../../src/engine/routing/inland/barge-router";
import { parseWaterways } from "../../../src/engine/routing/inland/waterways";
import { LatLng } from "../../../src/engine/types";

const at = (lat: number, lng: number): LatLng => ({ lat, lng });

let loadMs = 0;
const router = (() => {
  const t0 = performance.now();
  const r = loadBargeRouter();
  loadMs = performance.now() - t0;
  return r;
})();

interface Reference {
  from: string;
  from_lat: string;
  from_lng: string;
  to: string;
  to_lat: string;
  to_lng: string;
  reference_km: string;
  source: string;
}
const references = parse(
  fs.readFileSync(path.join(__dirname, "../../fixtures/river-distances.csv"), "utf8"),
  {
    columns: true,
    skip_empty_lines: true,
  }
) as Reference[];

const ROTTERDAM = at(51.9225, 4.4792);
const HAMBURG = at(53.545, 9.97);
const SHANGHAI = at(31.2304, 121.4737);
const MADRID = at(40.4168, -3.7038);
const MUNICH = at(48.1372, 11.5756);

describe("barge router", () => {
  test("loads the waterway network", () => {
    console.log(
      `barge router load: ${loadMs.toFixed(0)} ms, ${router.network.nodes.length} nodes, ${router.network.edges.length} edges`
    );
    // Load time is logged, not asserted: the suite shares its machine (benchmarks measure speed).
    expect(router.network.waterways.length).toBeGreaterThanOrEqual(15);
  });

  test.each(references.map((r) => [`${r.from} → ${r.to}`, r] as const))(
    "%s is within 5 %% of the published river kilometres",
    (_label, ref) => {
      const from = at(Number(ref.from_lat), Number(ref.from_lng));
      const to = at(Number(ref.to_lat), Number(ref.to_lng));
      const r = router.route(from, to);
      expect(r).not.toBeNull();
      const km = r!.meters / 1000;
      const expected = Number(ref.reference_km);
      expect(Math.abs(km - expected) / expected).toBeLessThan(0.05);
      expect(ref.source.length).toBeGreaterThan(5);
    }
  );

  test("the reference set covers the routes the issue names", () => {
    const labels = references.map((r) => `${r.from}-${r.to}`);
    for (const l of [
      "Rotterdam-Duisburg",
      "Antwerp-Basel",
      "Rotterdam-Basel",
      "Vienna-Budapest",
      "Shanghai-Wuhan",
    ]) {
      expect(labels).toContain(l);
    }
  });

  test("distances are symmetric and the path runs from origin to destination", () => {
    const basel = at(47.5596, 7.5886);
    const there = router.route(ROTTERDAM, basel)!;
    const back = router.route(basel, ROTTERDAM)!;
    expect(back.meters).toBeCloseTo(there.meters, 3);
    expect(there.path.length).toBeGreaterThan(50);
    const first = there.path[0];
    const last = there.path[there.path.length - 1];
    expect(Math.abs(first.lat - ROTTERDAM.lat) + Math.abs(first.lng - ROTTERDAM.lng)).toBeLessThan(
      0.1
    );
    expect(Math.abs(last.lat - basel.lat) + Math.abs(last.lng - basel.lng)).toBeLessThan(0.1);
  });

  test("a place far from any waterway has no barge route", () => {
    expect(router.snap(MADRID)).toBeNull();
    expect(router.route(MADRID, ROTTERDAM)).toBeNull();
    expect(router.route(ROTTERDAM, MUNICH)).toBeNull(); // Munich is ~60 km from the Danube
  });

  test("snapping stops at 25 km from the fairway", () => {
    // Due east of the Rhine at Worms (Rhine at 8.38 E, 49.63 N): 0.3° of longitude ≈ 21.6 km, 0.4° ≈ 28.8 km.
    const near = router.snap(at(49.63, 8.38 + 0.3));
    expect(near).not.toBeNull();
    expect(near!.offMeters).toBeGreaterThan(15_000);
    expect(near!.offMeters).toBeLessThan(25_000);
    expect(router.snap(at(49.63, 8.38 + 0.4))).toBeNull();
  });

  test("river systems joined only by sea give no barge route", () => {
    expect(router.route(ROTTERDAM, SHANGHAI)).toBeNull();
    expect(router.route(at(48.8566, 2.3522), ROTTERDAM)).toBeNull(); // Seine vs Rhine: no canal link modelled
    expect(router.route(SHANGHAI, at(29.9511, -90.0715))).toBeNull();
  });

  test("Constanța reaches the Danube through the Danube-Black Sea Canal, not round by Sulina", () => {
    expect(router.network.portByLocode("ROCND")?.waterway).toBe("DANUBE_BLACK_SEA_CANAL");
    const constanta = at(44.095, 28.645); // ROCND in data/ports-overlay.csv
    const budapest = router.route(constanta, at(47.4979, 19.0402))!;
    expect(budapest).not.toBeNull();
    // 64.4 km of canal + Danube-km 1647 - 300; round by Sulina it would be 1647 + ~250 km of sea.
    expect(Math.abs(budapest.meters / 1000 - 1411) / 1411).toBeLessThan(0.05);
    // The path runs along the canal: through Medgidia, nowhere near the Danube delta (east of 29°E).
    expect(
      budapest.path.some((p) => Math.abs(p.lng - 28.27) < 0.05 && Math.abs(p.lat - 44.25) < 0.05)
    ).toBe(true);
    expect(budapest.path.every((p) => p.lng < 28.7)).toBe(true);
    // The canal alone: Constanța South to Cernavodă is 64.4 km.
    const cernavoda = router.route(constanta, at(44.34, 28.03))!;
    expect(Math.abs(cernavoda.meters / 1000 - 64.4)).toBeLessThan(3);
  });

  test("Rhine and Elbe are joined by the west-German canals (Wesel-Datteln, Dortmund-Ems, Mittellandkanal, Elbe-Seitenkanal)", () => {
    const r = router.route(ROTTERDAM, HAMBURG)!;
    expect(r).not.toBeNull();
    // Rhine-km 1000 - 814 + 60.2 + 87 + 233 + 115.2 + 50 = 731.4 km
    expect(Math.abs(r.meters / 1000 - 731) / 731).toBeLessThan(0.05);
  });

  test("estuary ports are on the network and every river system has a mouth to the sea", () => {
    const net = router.network;
    for (const locode of [
      "NLRTM",
      "BEANR",
      "DEHAM",
      "FRLEH",
      "CNSHA",
      "USMSY",
      "DEDUI",
      "CHBSL",
      "ATVIE",
      "HUBUD",
    ]) {
      expect(net.portByLocode(locode)).toBeDefined();
    }
    const seas = new Set(net.mouths.map((m) => m.sea));
    for (const sea of [
      "North Sea",
      "Black Sea",
      "English Channel",
      "East China Sea",
      "Gulf of Mexico",
    ])
      expect(seas).toContain(sea);
    // Shanghai's main terminals are offshore at Yangshan: river-sea barges reach them along the coast.
    const yangshan = at(30.617, 122.067);
    const wuhan = router.route(yangshan, at(30.5928, 114.3055))!;
    expect(wuhan).not.toBeNull();
    expect(wuhan.meters / 1000).toBeGreaterThan(1125);
    expect(wuhan.meters / 1000).toBeLessThan(1125 + 150);
    // Barges from Basel and Vienna reach a mouth where they meet sea-going ships.
    expect(router.route(at(47.5596, 7.5886), at(51.985, 4.08))).not.toBeNull();
    expect(router.route(at(48.2082, 16.3738), at(45.15, 29.75))).not.toBeNull();
  });

  test("data sanity: every waterway cites a source; polylines are within plausible sinuosity of their kilometres", () => {
    const file = loadWaterwaysFile();
    for (const w of file.waterways) expect(w.source.length).toBeGreaterThan(20);
    for (const reach of router.network.reaches) {
      const sinuosity = reach.chainageMeters / reach.polylineMeters;
      // A polyline through towns every 5-30 km cuts bends (ratio > 1) but a ratio far outside this
      // range would mean a misplaced point or a wrong kilometre.
      expect([reach.waterway, reach.from, reach.to, sinuosity > 0.7 && sinuosity < 1.9]).toEqual([
        reach.waterway,
        reach.from,
        reach.to,
        true,
      ]);
    }
  });

  test("the data model rejects broken files", () => {
    expect(() => parseWaterways({})).toThrow(/waterways/);
    expect(() =>
      parseWaterways({ waterways: [{ id: "A", name: "a", source: "s", points: [[0, 0]] }] })
    ).toThrow(/at least 2 points/);
    expect(() =>
      parseWaterways({
        waterways: [
          {
            id: "A",
            name: "a",
            source: "",
            points: [
              [0, 0],
              [1, 1],
            ],
          },
        ],
      })
    ).toThrow(/source/);
    expect(() =>
      parseWaterways({
        waterways: [
          {
            id: "A",
            name: "a",
            source: "s",
            points: [
              [0, 0],
              [1, 95],
            ],
          },
        ],
      })
    ).toThrow(/out of range/);
    // Junction points that disagree on position are a data error.
    const bad = parseWaterways({
      waterways: [
        {
          id: "A",
          name: "a",
          source: "s",
          points: [
            [0, 0, { node: "J" }],
            [0, 1],
          ],
        },
        {
          id: "B",
          name: "b",
          source: "s",
          points: [
            [0.5, 0, { node: "J" }],
            [1, 0],
          ],
        },
      ],
    });
    expect(() => new BargeNetwork(bad)).toThrow(/junction J/);
  });

  test("kilometre anchors scale the reach to its chainage; unanchored waterways keep geodesic length", () => {
    const net = new BargeNetwork(
      parseWaterways({
        waterways: [
          {
            id: "K",
            name: "k",
            source: "s",
            points: [
              [0, 0, { km: 100 }],
              [0, 0.5],
              [0, 1, { km: 250 }],
            ],
          },
          {
            id: "G",
            name: "g",
            source: "s",
            points: [
              [10, 0],
              [10, 1],
            ],
          },
        ],
      })
    );
    const r = new BargeGraphRouter(net);
    expect(r.route(at(0, 0), at(1, 0))!.meters).toBeCloseTo(150_000, 3);
    expect(r.route(at(0.5, 0), at(1, 0))!.meters).toBeCloseTo(75_000, 0);
    // One degree of latitude at the equator on WGS84: 110,574 m.
    expect(r.route(at(0, 10), at(1, 10))!.meters).toBeCloseTo(110_574, -1);
  });

  test("1,000 repeated barge routes give the same answer", () => {
    const first = router.route(ROTTERDAM, at(48.2082, 16.3738));
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) router.route(ROTTERDAM, at(48.2082, 16.3738));
    const ms = performance.now() - t0;
    console.log(`1,000 barge routes Rotterdam→Vienna: ${ms.toFixed(0)} ms`);
    expect(router.route(ROTTERDAM, at(48.2082, 16.3738))).toEqual(first);
  });
});

describe("land additions (data/land-additions.json) and the Donghai Bridge", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-land-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test("the shipped file adds Yangshan island; a data directory without the file adds nothing", () => {
    const shipped = loadLandAdditions();
    expect(shipped.length).toBeGreaterThanOrEqual(1);
    expect(loadLandAdditions({ dataDir: tmp })).toEqual([]);
  });

  test("broken files are rejected with the area at fault", () => {
    const write = (json: unknown) =>
      fs.writeFileSync(path.join(tmp, "land-additions.json"), JSON.stringify(json));
    write({});
    expect(() => loadLandAdditions({ dataDir: tmp })).toThrow(/"areas" must be an array/);
    write({ areas: [{ id: "X", source: "", ring: [] }] });
    expect(() => loadLandAdditions({ dataDir: tmp })).toThrow(/area #0 \(X\): source is empty/);
    const open = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    write({ areas: [{ id: "X", source: "s", ring: open }] });
    expect(() => loadLandAdditions({ dataDir: tmp })).toThrow(/closed list/);
    fs.rmSync(path.join(tmp, "land-additions.json"));
  });

  test("Yangshan is reached by TRUCK over the Donghai Bridge, but not by RAIL (road-only link)", () => {
    const overland = loadOverlandRouter();
    const yangshan = at(30.617, 122.067);
    const pudong = at(31.2, 121.6);
    expect(overland.connected(yangshan, pudong, "TRUCK")).toBe(true);
    expect(overland.connected(yangshan, pudong, "RAIL")).toBe(false);
    const r = overland.route(yangshan, pudong, "TRUCK")!;
    // Through the bridge ends: Luchao (30.855, 121.925) and Xiaoyangshan (30.645, 122.06).
    expect(
      r.path.some((p) => Math.abs(p.lat - 30.855) < 0.01 && Math.abs(p.lng - 121.925) < 0.01)
    ).toBe(true);
    expect(r.meters / 1000).toBeGreaterThan(80);
    expect(r.meters / 1000).toBeLessThan(130);
  });
});
