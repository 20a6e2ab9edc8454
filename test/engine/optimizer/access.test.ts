/**
 * First and last mile to where a port's terminals are: a port whose LOCODE point stands on one
 * site (Shanghai's on Yangshan island) is also entered at its other terminals (Waigaoqiao), on a
 * small fixed geography and through the shipped engine, sample network and service.
 */
import { accessOptions } from "../../../src/engine/optimizer/access";
import { Network } from "../../../src/engine/optimizer/network";
import { loadOptimizer } from "../../../src/data/optimizer";
import { ResolvedPlace } from "../../../src/engine/types";
import { startTestServer, testEngine } from "../../service/support";
import { testGeography } from "./helpers";

/** Only what accessOptions reads of a network: its stops and the truck speed. */
function stopsOnly(stops: Array<{ locode: string; lat: number; lng: number }>): Network {
  const list = stops.map((s, index) => ({ index, name: s.locode, ...s }));
  return {
    stops: list,
    stopByLocode: new Map(list.map((s) => [s.locode, s.index])),
    patterns: [],
    rules: { truckKmh: 60, minutes: [], handlingGrams: [] },
  } as unknown as Network;
}

const geo = (lat: number, lng: number): ResolvedPlace => ({ kind: "GEO", lat, lng });

describe("first and last mile on a fixed geography", () => {
  // Port AAAAA's LOCODE point is 100 km east of the origin; its second terminal 20 km east.
  const net = stopsOnly([
    { locode: "AAAAA", lat: 0, lng: 0.8993 },
    { locode: "BBBBB", lat: 0, lng: 3 },
  ]);
  const usable = new Uint8Array([1, 1]);
  const base = testGeography([
    { locode: "AAAAA", lat: 0, lng: 0.8993 },
    { locode: "BBBBB", lat: 0, lng: 3 },
  ]);
  const terminals: Record<string, Array<{ id: string; lat: number; lng: number }>> = {
    AAAAA: [
      { id: "t-far", lat: 0, lng: 0.8993 },
      { id: "t-near", lat: 0, lng: 0.1799 },
    ],
  };
  const origin = geo(0, 0);

  test("without terminal positions the truck runs to the LOCODE point", () => {
    const out = accessOptions(
      net,
      origin,
      { maxTruckKm: 150, truckAllowed: true, stopUsable: usable },
      base
    );
    expect(out.map((a) => [a.stop, Math.round(a.meters / 1000)])).toEqual([[0, 120]]);
  });

  test("with them it runs to the nearest terminal, and reaches a port whose point is out of range", () => {
    const withTerminals = { ...base, terminalPoints: (l: string) => terminals[l] ?? [] };
    const out = accessOptions(
      net,
      origin,
      { maxTruckKm: 150, truckAllowed: true, stopUsable: usable },
      withTerminals
    );
    // 20 km great circle x 1.2 (the test geography's truck circuity); 1 h at 60 km/h = 24 min.
    expect(out).toEqual([{ stop: 0, truck: true, meters: 24_005, minutes: 24, grams: 2_401 }]);
    const near = accessOptions(
      net,
      origin,
      { maxTruckKm: 30, truckAllowed: true, stopUsable: usable },
      withTerminals
    );
    expect(near.map((a) => a.stop)).toEqual([0]);
    const noTerminalsInReach = accessOptions(
      net,
      origin,
      { maxTruckKm: 30, truckAllowed: true, stopUsable: usable },
      base
    );
    expect(noTerminalsInReach).toEqual([]);
  });

  test("when services call at named terminals, only those are entry points", () => {
    const withTerminals = { ...base, terminalPoints: (l: string) => terminals[l] ?? [] };
    const calling = (id: string) =>
      ({
        ...net,
        patterns: [{ calls: [{ stop: 0, terminal: { id, name: id } }] }],
      }) as unknown as Network;
    const opts = { maxTruckKm: 150, truckAllowed: true, stopUsable: usable };
    // Ships call at the far terminal: the truck goes there (its point is the LOCODE point, 120 km).
    expect(accessOptions(calling("t-far"), origin, opts, withTerminals)[0].meters).toBe(119_997);
    expect(accessOptions(calling("t-near"), origin, opts, withTerminals)[0].meters).toBe(24_005);
    // A call terminal the registry does not know: all terminals count.
    expect(accessOptions(calling("t-other"), origin, opts, withTerminals)[0].meters).toBe(24_005);
  });
});

describe("Shanghai through the shipped engine and sample network", () => {
  const engine = testEngine();
  const optimizer = loadOptimizer({ engine, now: new Date("2026-11-23T00:00:00Z") });
  const centralShanghai = { lat: 31.23, lng: 121.47 };
  const yangshan = engine.parts.places.resolve("CNSHA", "locode");

  test("CNSHA (Yangshan island) can be trucked over the Donghai Bridge", () => {
    const r = engine.distanceBetween(centralShanghai, yangshan, "TRUCK");
    // Road distance People's Square - Yangshan is about 90-110 km (Donghai Bridge 32.5 km of it).
    expect(r.distance / 1000).toBeGreaterThan(80);
    expect(r.distance / 1000).toBeLessThan(125);
    const back = engine.distanceBetween(yangshan, { lat: 31.36, lng: 121.58 }, "TRUCK");
    expect(back.distance / 1000).toBeGreaterThan(85);
    expect(back.distance / 1000).toBeLessThan(135);
  });

  test("a GEO point in central Shanghai to Rotterdam answers options, trucked to Waigaoqiao", () => {
    const results = optimizer.search({
      origin: `${centralShanghai.lat},${centralShanghai.lng}`,
      originType: "GEO",
      destination: "NLRTM",
      destinationType: "LOCODE",
    }).results;
    expect(results.length).toBeGreaterThan(0);
    const first = results[0];
    expect(first.legs[0].modality).toBe("TRUCK");
    // Waigaoqiao is about 20 km from People's Square; Yangshan would be about 100 km.
    const shortest = Math.min(...results.map((r) => r.truckToOriginInMeters));
    expect(shortest / 1000).toBeGreaterThan(15);
    expect(shortest / 1000).toBeLessThan(35);
    expect(results.some((r) => r.legs.some((l) => l.modality === "DEEPSEA"))).toBe(true);
  });

  test("the last mile also ends at the nearest terminal: Rotterdam to central Shanghai", () => {
    const results = optimizer.search({
      origin: "NLRTM",
      originType: "LOCODE",
      destination: `${centralShanghai.lat},${centralShanghai.lng}`,
      destinationType: "GEO",
    }).results;
    expect(results.length).toBeGreaterThan(0);
    const shortest = Math.min(...results.map((r) => r.truckToDestinationInMeters));
    expect(shortest / 1000).toBeLessThan(35);
  });

  test("the service answers options for the same search", async () => {
    const server = await startTestServer();
    try {
      const { key } = await server.account({ optimizerAccess: true, optimizerCredits: 5 });
      const res = await server.get(
        "/route-optimizer/api/external?origin=31.23,121.47&originType=GEO&destination=NLRTM&destinationType=LOCODE",
        key
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: unknown[] };
      expect(body.results.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
