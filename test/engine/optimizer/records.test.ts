/**
 * The per-query work around the search, made cheaper, answers as before:
 * - minutesToIso (a per-day cache of the date part) gives Date's own text for any time;
 * - optionId (the signature handed to uuid as UTF-8 bytes) gives uuid's own v5 of the text;
 * - sortOptions (departure and arrival parsed once) orders options as the former comparator did;
 * - accessOptions (cached per network, geography, place and trucking limit, with the query's
 *   excluded stops filtered out) returns what a fresh computation returns;
 * - buildConstraints' trip mask (shared per pattern mask) allows exactly the trips of allowed
 *   patterns, query after query.
 */
import fc from "fast-check";
import { accessOptions } from "../../../src/engine/optimizer/access";
import { buildConstraints } from "../../../src/engine/optimizer/filters";
import { MINUTE_MS, minutesToIso, Network } from "../../../src/engine/optimizer/network";
import { parseQuery, SORT_KEYS, SortKey } from "../../../src/engine/optimizer/query";
import { optionId, sortOptions } from "../../../src/engine/optimizer/records";
import { OPTIMIZER_NAMESPACE } from "../../../src/engine/optimizer/timetable";
import { v5 as uuidv5 } from "uuid";
import { RouteOption } from "../../../src/engine/optimizer/types";
import { ResolvedPlace } from "../../../src/engine/types";
import { optimizerFor, scheduleOf, testGeography, TestPort } from "./helpers";

const dateIso = (minutes: number) =>
  new Date(minutes * MINUTE_MS).toISOString().replace(".000Z", "Z");
/** Minutes at the start of year 10000, where the ISO text changes form. */
const YEAR_10000 = Date.UTC(10000, 0, 1) / MINUTE_MS;

describe("optionId", () => {
  test("equals uuid's v5 of the text, for any well-formed text (non-ASCII included)", () => {
    const texts = fc.oneof(
      fc.string(),
      fc.fullUnicodeString(),
      fc.constantFrom("NLRTM>DEHAM|T1:0-3", "truck:51.9,4.4>CNSHA", "Ürümqi€", "港口🚢")
    );
    fc.assert(
      fc.property(texts, (t) => {
        expect(optionId(t)).toBe(uuidv5(`route:${t}`, OPTIMIZER_NAMESPACE));
      }),
      { numRuns: 500 }
    );
  });
});

describe("minutesToIso", () => {
  test("equals the Date text for whole and fractional minutes over Date's whole range", () => {
    const maxMinutes = 8.64e15 / MINUTE_MS;
    const minutes = fc.oneof(
      fc.integer({ min: 0, max: 40_000_000 }),
      fc.integer({ min: -maxMinutes, max: maxMinutes }),
      fc.integer({ min: YEAR_10000 - 3000, max: YEAR_10000 + 3000 }),
      fc.integer({ min: -3000, max: 3000 }),
      fc.double({ min: -1e9, max: 1e9, noNaN: true })
    );
    fc.assert(
      fc.property(minutes, (m) => expect(minutesToIso(m)).toBe(dateIso(m))),
      { numRuns: 5000 }
    );
    expect(minutesToIso(29_390_400)).toBe("2025-11-18T00:00:00Z");
    expect(minutesToIso(29_390_400 + 23 * 60 + 59)).toBe("2025-11-18T23:59:00Z");
  });
});

describe("sortOptions", () => {
  /** The former comparator: the ISO times parsed in every comparison. */
  function formerSort(options: RouteOption[], key: SortKey): RouteOption[] {
    const dep = (o: RouteOption) => Date.parse(o.latestDropOff);
    const arr = (o: RouteOption) => Date.parse(o.earliestPickup);
    const primary: Record<SortKey, (a: RouteOption, b: RouteOption) => number> = {
      LEAD_TIME: (a, b) => a.leadTimeInMinutes - b.leadTimeInMinutes,
      EMISSIONS: (a, b) => a.emissionsInKgCo2e - b.emissionsInKgCo2e,
      TRANSFERS: (a, b) => a.transfers - b.transfers,
      DEPARTURE: (a, b) => dep(a) - dep(b),
      ARRIVAL: (a, b) => arr(a) - arr(b),
    };
    const order = [key, ...SORT_KEYS.filter((k) => k !== key)];
    return options.sort((a, b) => {
      for (const k of order) {
        const d = primary[k](a, b);
        if (d !== 0) return d;
      }
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
  }

  const optionArb: fc.Arbitrary<RouteOption> = fc
    .record({
      id: fc.constantFrom("a", "b", "c", "d"),
      dep: fc.integer({ min: 29_000_000, max: 29_000_050 }),
      lead: fc.integer({ min: 0, max: 30 }),
      em: fc.integer({ min: 0, max: 3 }),
      tr: fc.integer({ min: 0, max: 2 }),
    })
    .map((r) => ({
      id: r.id,
      leadTimeInMinutes: r.lead,
      latestDropOff: minutesToIso(r.dep),
      earliestPickup: minutesToIso(r.dep + r.lead),
      emissionsInKgCo2e: r.em / 4,
      transfers: r.tr,
      transferEmissionsInKgCo2e: 0,
      truckToOriginInMeters: 0,
      truckToDestinationInMeters: 0,
      legs: [],
    }));

  test("orders options as the former comparator did, for every sort key", () => {
    fc.assert(
      fc.property(
        fc.array(optionArb, { maxLength: 40 }),
        fc.constantFrom(...SORT_KEYS),
        (list, key) => {
          const want = formerSort(list.slice(), key);
          const input = list.slice();
          const got = sortOptions(input, key);
          expect(got).toBe(input);
          expect(got).toHaveLength(want.length);
          got.forEach((o, i) => expect(o).toBe(want[i]));
        }
      ),
      { numRuns: 500 }
    );
  });
});

describe("accessOptions cache", () => {
  const PORTS: TestPort[] = [
    { locode: "ZZAAA", lat: 0, lng: 0 },
    { locode: "ZZBBB", lat: 0.5, lng: 0.5 },
    { locode: "ZZCCC", lat: 1, lng: 0 },
    { locode: "ZZDDD", lat: 0.3, lng: -0.6 },
    { locode: "ZZEEE", lat: 3, lng: 2 },
  ];
  const stops = PORTS.map((p, index) => ({ index, name: p.locode, ...p }));
  const net = {
    stops,
    stopByLocode: new Map(stops.map((s) => [s.locode, s.index])),
    patterns: [],
    rules: { truckKmh: 60, minutes: [], handlingGrams: [] },
  } as unknown as Network;
  const geo = testGeography(PORTS);
  const placeArb: fc.Arbitrary<ResolvedPlace> = fc.oneof(
    fc.integer({ min: 0, max: PORTS.length - 1 }).map((i) => ({
      kind: "LOCODE" as const,
      locode: PORTS[i].locode,
      lat: PORTS[i].lat,
      lng: PORTS[i].lng,
    })),
    fc
      .record({ lat: fc.integer({ min: -5, max: 15 }), lng: fc.integer({ min: -5, max: 15 }) })
      .map((r) => ({ kind: "GEO" as const, lat: r.lat / 10, lng: r.lng / 10 }))
  );

  test("a cached answer equals a fresh computation, whatever stops the query excludes", () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(
        placeArb,
        fc.constantFrom(0, 50, 100, 200),
        fc.boolean(),
        fc.uint8Array({ minLength: PORTS.length, maxLength: PORTS.length, max: 1 }),
        (place, maxTruckKm, truckAllowed, stopUsable) => {
          const options = { maxTruckKm, truckAllowed, stopUsable };
          const got = accessOptions(net, place, options, geo);
          // A geography object the cache has never seen: computed afresh, with every stop usable.
          const ones = new Uint8Array(PORTS.length).fill(1);
          const all = accessOptions(net, place, { ...options, stopUsable: ones }, { ...geo });
          expect(got).toEqual(all.filter((a) => stopUsable[a.stop] === 1));
          expect(got.every((a) => stopUsable[a.stop] === 1)).toBe(true);
          if (got.length > 0) nonEmpty++;
        }
      ),
      { numRuns: 300 }
    );
    expect(nonEmpty).toBeGreaterThan(60);
  });
});

describe("buildConstraints trip mask", () => {
  const PORTS: TestPort[] = [
    { locode: "ZZAAA", lat: 0, lng: 0 },
    { locode: "ZZBBB", lat: 1, lng: 1 },
    { locode: "ZZCCC", lat: 2, lng: 0 },
  ];
  const OPS: Array<[string, string]> = [
    ["OPAA", "Alpha"],
    ["OPBB", "Beta"],
  ];
  const MODES = ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL"] as const;
  const voyages = Array.from({ length: 16 }, (_, i) => ({
    op: OPS[i % 2][0],
    code: `S${i % 8}`,
    modality: MODES[(i >> 1) % 4],
    calls: [
      [PORTS[i % 3].locode, 24 * i, 24 * i] as [string, number, number],
      [PORTS[(i + 1) % 3].locode, 24 * i + 30, 24 * i + 30] as [string, number, number],
    ],
  }));
  const { optimizer } = optimizerFor(PORTS, scheduleOf(OPS, voyages));
  const net = optimizer.network;

  test("allows exactly the trips whose pattern is allowed, for any sequence of queries", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            modalities: fc.uniqueArray(fc.constantFrom(...MODES), { minLength: 1, maxLength: 4 }),
            excluded: fc.option(fc.constantFrom("OPAA", "OPBB"), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 6 }
        ),
        (queries) => {
          for (const { modalities, excluded } of queries) {
            const raw = {
              origin: "ZZAAA",
              originType: "LOCODE",
              destination: "ZZBBB",
              destinationType: "LOCODE",
              modalities: modalities.join(","),
              ...(excluded ? { excludedOperators: excluded } : {}),
            };
            const c = buildConstraints(net, parseQuery(raw, optimizer.defaults()));
            expect(c.tripAllowed).toHaveLength(net.trips.length);
            for (const t of net.trips) {
              const p = net.patterns[t.pattern];
              const allowed =
                modalities.includes(p.modality as (typeof MODES)[number]) &&
                ![p.operator, ...p.partners].some((o) => net.operators[o].scac === excluded);
              expect(c.tripAllowed[t.index]).toBe(allowed ? 1 : 0);
            }
          }
        }
      ),
      { numRuns: 100 }
    );
  });
});
