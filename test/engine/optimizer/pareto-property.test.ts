/**
 * Property: on small random networks, the search returns exactly the Pareto-optimal journeys
 * (departure later, arrival earlier, fewer transfers, lower emissions) that a brute-force
 * enumeration of every journey finds, under random filters.
 */
import fc from "fast-check";
import { Network } from "../../../src/engine/optimizer";
import { classIndex, legGrams, toMinutes } from "../../../src/engine/optimizer/network";
import { transferClassOf } from "../../../src/engine/optimizer/model";
import { RawQuery } from "../../../src/engine/optimizer/types";
import { optimizerFor, scheduleOf, SimpleVoyage, T0, TestPort } from "./helpers";

const PORTS: TestPort[] = [
  { locode: "ZZAAA", lat: 0, lng: 0 },
  { locode: "ZZBBB", lat: 1, lng: 1 },
  { locode: "ZZCCC", lat: 2, lng: 0 },
  { locode: "ZZDDD", lat: 1, lng: -1 },
  { locode: "ZZEEE", lat: 3, lng: 2 },
];
const OPS: Array<[string, string]> = [
  ["OPAA", "Alpha"],
  ["OPBB", "Beta"],
  ["OPCC", "Gamma"],
];
const MODES = ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL"] as const;

const voyageArb = fc
  .record({
    op: fc.integer({ min: 0, max: 2 }),
    partner: rarely(fc.integer({ min: 0, max: 2 })),
    mode: fc.integer({ min: 0, max: 3 }),
    stops: fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 4 }),
    start: fc.integer({ min: 0, max: 96 }),
    hops: fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 3, maxLength: 3 }),
    stays: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 3, maxLength: 3 }),
  })
  .map((r): SimpleVoyage => {
    let t = r.start;
    const calls: Array<[string, number, number]> = [];
    r.stops.forEach((s, i) => {
      const arr = t;
      const dep = i === 0 || i === r.stops.length - 1 ? t : t + r.stays[i];
      calls.push([PORTS[s].locode, arr, dep]);
      t = dep + r.hops[i % 3];
    });
    const partners =
      r.partner !== undefined && r.partner !== r.op ? [OPS[r.partner][0]] : undefined;
    return {
      op: OPS[r.op][0],
      partners,
      code: `S${r.op}${r.mode}`,
      modality: MODES[r.mode],
      calls,
    };
  });

/** Mostly absent, so that most runs have results and filters still get exercised. */
function rarely<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: arb, weight: 1 });
}

const queryArb = fc.record({
  origin: fc.integer({ min: 0, max: 4 }),
  destinationOffset: fc.integer({ min: 1, max: 4 }),
  maxTransfers: rarely(fc.integer({ min: 0, max: 3 })),
  excludedOperator: rarely(fc.integer({ min: 0, max: 2 })),
  requiredOperator: rarely(fc.integer({ min: 0, max: 2 })),
  anyRequiredOperators: rarely(
    fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 2 })
  ),
  requiredLocode: rarely(fc.integer({ min: 0, max: 4 })),
  anyLocodes: rarely(
    fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 2 })
  ),
  excludedLocode: rarely(fc.integer({ min: 0, max: 4 })),
  directSeaOnly: fc.boolean(),
  modalities: rarely(fc.uniqueArray(fc.constantFrom(...MODES), { minLength: 1, maxLength: 4 })),
  maxEmissionKg: rarely(fc.integer({ min: 0, max: 8000 })),
  maxLeadHours: rarely(fc.integer({ min: 1, max: 200 })),
  maxDepartureHours: rarely(fc.integer({ min: 0, max: 120 })),
});

interface Leg {
  trip: number;
  board: number;
  alight: number;
}
interface Crit {
  dep0: number;
  arr: number;
  tr: number;
  em: number;
}

/** Every journey from origin to destination (no trip used twice), with its criteria. */
function bruteForce(
  net: Network,
  origin: number,
  destination: number,
  accept: (legs: Leg[]) => boolean
): Crit[] {
  const out: Crit[] = [];
  const { minutes, handlingGrams } = net.rules;
  const cls = (trip: number) =>
    classIndex(transferClassOf(net.patterns[net.trips[trip].pattern].modality));
  const walk = (legs: Leg[], stop: number, readyAt: (toCls: number) => number) => {
    for (const trip of net.trips) {
      if (legs.some((l) => l.trip === trip.index)) continue;
      const p = net.patterns[trip.pattern];
      for (let b = 0; b < p.calls.length - 1; b++) {
        if (p.calls[b].stop !== stop || trip.departure[b] < readyAt(cls(trip.index))) continue;
        for (let a = b + 1; a < p.calls.length; a++) {
          const next = [...legs, { trip: trip.index, board: b, alight: a }];
          if (p.calls[a].stop === destination && accept(next)) out.push(criteria(next));
          const arr = trip.arrival[a];
          const c = cls(trip.index);
          walk(next, p.calls[a].stop, (to) => arr + minutes[c][to]);
        }
      }
    }
  };
  const criteria = (legs: Leg[]): Crit => {
    let em = 0;
    legs.forEach((l, i) => {
      const p = net.patterns[net.trips[l.trip].pattern];
      em += legGrams(p, l.board, l.alight);
      if (i > 0) em += handlingGrams[cls(legs[i - 1].trip)][cls(l.trip)];
    });
    const first = legs[0];
    const last = legs[legs.length - 1];
    return {
      dep0: net.trips[first.trip].departure[first.board],
      arr: net.trips[last.trip].arrival[last.alight],
      tr: legs.length - 1,
      em,
    };
  };
  walk([], origin, () => -Infinity);
  return out;
}

function pareto(items: Crit[]): string[] {
  const keep = items.filter(
    (x, i) =>
      !items.some(
        (y, j) =>
          j !== i &&
          y.dep0 >= x.dep0 &&
          y.arr <= x.arr &&
          y.tr <= x.tr &&
          y.em <= x.em &&
          (y.dep0 > x.dep0 || y.arr < x.arr || y.tr < x.tr || y.em < x.em)
      )
  );
  return [...new Set(keep.map(key))].sort();
}
const key = (c: Crit) => `${c.dep0}|${c.arr}|${c.tr}|${c.em}`;

describe("multi-criteria search vs brute force", () => {
  test("returns exactly the Pareto set of all journeys satisfying the filters", () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(fc.array(voyageArb, { minLength: 2, maxLength: 12 }), queryArb, (voyages, q) => {
        const destination = (q.origin + q.destinationOffset) % 5;
        const { optimizer } = optimizerFor(PORTS, scheduleOf(OPS, voyages));
        const net = optimizer.network;
        const raw: RawQuery = {
          origin: PORTS[q.origin].locode,
          originType: "LOCODE",
          destination: PORTS[(q.origin + q.destinationOffset) % 5].locode,
          destinationType: "LOCODE",
          minDeparture: "2030-01-01",
        };
        const op = (i: number) => OPS[i][0];
        const loc = (i: number) => PORTS[i].locode;
        if (q.maxTransfers !== undefined) raw.maxTransfers = String(q.maxTransfers);
        if (q.excludedOperator !== undefined) raw.excludedOperators = op(q.excludedOperator);
        if (q.requiredOperator !== undefined) raw.allRequiredOperators = [op(q.requiredOperator)];
        if (q.anyRequiredOperators)
          raw.anyRequiredOperators = q.anyRequiredOperators.map(op).join(",");
        if (q.requiredLocode !== undefined) raw.allRequiredLocodes = loc(q.requiredLocode);
        if (q.anyLocodes) raw.anyRequiredLocodes = q.anyLocodes.map(loc);
        if (q.excludedLocode !== undefined) raw.excludedLocodes = loc(q.excludedLocode);
        if (q.directSeaOnly) raw.directSeaOnly = "true";
        if (q.modalities) raw.modalities = q.modalities.join(",");
        if (q.maxEmissionKg !== undefined) raw.maxEmission = String(q.maxEmissionKg);
        if (q.maxLeadHours !== undefined) raw.maxLeadTime = `PT${q.maxLeadHours}H`;
        const t0 = toMinutes(new Date(T0));
        const minDep = toMinutes(new Date(Date.UTC(2030, 0, 1)));
        let maxDep = minDep + 28 * 1440;
        if (q.maxDepartureHours !== undefined) {
          maxDep = t0 + q.maxDepartureHours * 60;
          raw.maxDeparture = new Date(maxDep * 60000).toISOString();
        }
        const got = optimizer.search(raw).results;
        const gotKeys = [
          ...new Set(
            got.map((o) =>
              key({
                dep0: toMinutes(new Date(o.latestDropOff)),
                arr: toMinutes(new Date(o.earliestPickup)),
                tr: o.transfers,
                em: Math.round(o.emissionsInKgCo2e * 1000),
              })
            )
          ),
        ].sort();
        expect(gotKeys.length).toBe(got.length); // no duplicate criteria vectors

        const o = net.stopByLocode.get(loc(q.origin));
        const d = net.stopByLocode.get(loc(destination));
        let expected: string[] = [];
        if (o !== undefined && d !== undefined && o !== d) {
          const excludedLoc = q.excludedLocode !== undefined ? loc(q.excludedLocode) : undefined;
          const accept = (legs: Leg[]): boolean => {
            const pats = legs.map((l) => net.patterns[net.trips[l.trip].pattern]);
            const ops = new Set(
              pats.flatMap((p) => [p.operator, ...p.partners].map((i) => net.operators[i].scac))
            );
            const locs = new Set([loc(q.origin), loc(destination)]);
            legs.forEach((l, i) => {
              locs.add(net.stops[pats[i].calls[l.board].stop].locode);
              locs.add(net.stops[pats[i].calls[l.alight].stop].locode);
            });
            const c = criteriaOf(net, legs);
            if (c.dep0 < minDep || c.dep0 > maxDep) return false;
            if (q.maxTransfers !== undefined && legs.length - 1 > q.maxTransfers) return false;
            if (q.excludedOperator !== undefined && ops.has(op(q.excludedOperator))) return false;
            if (q.requiredOperator !== undefined && !ops.has(op(q.requiredOperator))) return false;
            if (q.anyRequiredOperators && !q.anyRequiredOperators.some((i) => ops.has(op(i))))
              return false;
            if (q.requiredLocode !== undefined && !locs.has(loc(q.requiredLocode))) return false;
            if (q.anyLocodes && !q.anyLocodes.some((i) => locs.has(loc(i)))) return false;
            if (excludedLoc && locs.has(excludedLoc)) return false;
            if (
              q.directSeaOnly &&
              pats.filter((p) => p.modality === "DEEPSEA" || p.modality === "SHORTSEA").length > 1
            )
              return false;
            if (
              q.modalities &&
              pats.some((p) => !q.modalities!.includes(p.modality as (typeof MODES)[number]))
            )
              return false;
            if (q.maxEmissionKg !== undefined && c.em > q.maxEmissionKg * 1000) return false;
            if (q.maxLeadHours !== undefined && c.arr - c.dep0 > q.maxLeadHours * 60) return false;
            return true;
          };
          expected = pareto(bruteForce(net, o, d, accept));
        }
        if (expected.length) nonEmpty++;
        expect(gotKeys).toEqual(expected);
      }),
      { numRuns: 400, seed: 20261121 }
    );
    // The property must not hold vacuously.
    expect(nonEmpty).toBeGreaterThan(50);
  });
});

function criteriaOf(net: Network, legs: Leg[]): Crit {
  const { handlingGrams } = net.rules;
  const cls = (trip: number) =>
    classIndex(transferClassOf(net.patterns[net.trips[trip].pattern].modality));
  let em = 0;
  legs.forEach((l, i) => {
    const p = net.patterns[net.trips[l.trip].pattern];
    em += legGrams(p, l.board, l.alight);
    if (i > 0) em += handlingGrams[cls(legs[i - 1].trip)][cls(l.trip)];
  });
  const first = legs[0];
  const last = legs[legs.length - 1];
  return {
    dep0: net.trips[first.trip].departure[first.board],
    arr: net.trips[last.trip].arrival[last.alight],
    tr: legs.length - 1,
    em,
  };
}
