/**
 * Property: with first/last mile by truck (GEO and LOCODE ends, random trucking limits), the search
 * returns exactly the Pareto set of a brute-force enumeration that adds the truck legs itself.
 */
import fc from "fast-check";
import { Network } from "../../../src/engine/optimizer";
import { greatCircleMeters } from "../../../src/engine/optimizer/access";
import { transferClassOf } from "../../../src/engine/optimizer/model";
import { classIndex, legGrams, toMinutes } from "../../../src/engine/optimizer/network";
import { RawQuery } from "../../../src/engine/optimizer/types";
import { optimizerFor, scheduleOf, SimpleVoyage, TestPort } from "./helpers";

const PORTS: TestPort[] = [
  { locode: "ZZAAA", lat: 0, lng: 0 },
  { locode: "ZZBBB", lat: 0.8, lng: 0.9 },
  { locode: "ZZCCC", lat: 2, lng: 0 },
  { locode: "ZZDDD", lat: 1.2, lng: -1 },
  { locode: "ZZEEE", lat: 3, lng: 2 },
];
const OPS: Array<[string, string]> = [
  ["OPAA", "Alpha"],
  ["OPBB", "Beta"],
];
const MODES = ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL"] as const;
const TRUCK = classIndex("TRUCK");

const voyageArb = fc
  .record({
    op: fc.integer({ min: 0, max: 1 }),
    mode: fc.integer({ min: 0, max: 3 }),
    stops: fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 3 }),
    start: fc.integer({ min: 0, max: 72 }),
    hops: fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 2, maxLength: 2 }),
  })
  .map((r): SimpleVoyage => {
    let t = r.start;
    const calls: Array<[string, number, number]> = [];
    r.stops.forEach((s, i) => {
      calls.push([PORTS[s].locode, t, t]);
      t += r.hops[i % 2];
    });
    return { op: OPS[r.op][0], code: `S${r.op}${r.mode}`, modality: MODES[r.mode], calls };
  });

const pointArb = fc.oneof(
  fc.record({ kind: fc.constant("LOCODE" as const), port: fc.integer({ min: 0, max: 4 }) }),
  fc.record({
    kind: fc.constant("GEO" as const),
    lat: fc.integer({ min: -50, max: 350 }),
    lng: fc.integer({ min: -150, max: 250 }),
  })
);

interface End {
  value: string;
  type: string;
  lat: number;
  lng: number;
  locode?: string;
}
const endOf = (
  p: { kind: "LOCODE"; port: number } | { kind: "GEO"; lat: number; lng: number }
): End =>
  p.kind === "LOCODE"
    ? {
        value: PORTS[p.port].locode,
        type: "LOCODE",
        lat: PORTS[p.port].lat,
        lng: PORTS[p.port].lng,
        locode: PORTS[p.port].locode,
      }
    : { value: `${p.lat / 100},${p.lng / 100}`, type: "GEO", lat: p.lat / 100, lng: p.lng / 100 };

interface Access {
  stop: number;
  truck: boolean;
  minutes: number;
  grams: number;
}

/** Same rules as the documentation: own stop without truck; others by truck within the limit (60 km/h, 100 g/km). */
function accessOf(net: Network, end: End, maxKm: number, truckAllowed: boolean): Access[] {
  const out: Access[] = [];
  for (const s of net.stops) {
    if (end.locode === s.locode) {
      out.push({ stop: s.index, truck: false, minutes: 0, grams: 0 });
      continue;
    }
    if (!truckAllowed) continue;
    const meters = Math.round(greatCircleMeters(end, s) * 1.2);
    if (meters > maxKm * 1000) continue;
    out.push({
      stop: s.index,
      truck: true,
      minutes: Math.max(1, Math.round(meters / 1000)),
      grams: Math.round(meters / 10),
    });
  }
  return out;
}

interface Crit {
  dep0: number;
  arr: number;
  tr: number;
  em: number;
}
const key = (c: Crit) => `${c.dep0}|${c.arr}|${c.tr}|${c.em}`;

function bruteForce(
  net: Network,
  access: Access[],
  egress: Access[],
  minDep: number,
  maxDep: number
): string[] {
  const { minutes, handlingGrams } = net.rules;
  const cls = (trip: number) =>
    classIndex(transferClassOf(net.patterns[net.trips[trip].pattern].modality));
  const out: Crit[] = [];
  type Leg = { trip: number; board: number; alight: number };
  const finish = (legs: Leg[], a: Access) => {
    const first = legs[0];
    const last = legs[legs.length - 1];
    const c0 = cls(first.trip);
    const cN = cls(last.trip);
    let em = a.truck ? a.grams + handlingGrams[TRUCK][c0] : 0;
    legs.forEach((l, i) => {
      const p = net.patterns[net.trips[l.trip].pattern];
      em += legGrams(p, l.board, l.alight);
      if (i > 0) em += handlingGrams[cls(legs[i - 1].trip)][cls(l.trip)];
    });
    const dep0 =
      net.trips[first.trip].departure[first.board] - (a.truck ? minutes[TRUCK][c0] + a.minutes : 0);
    if (dep0 < minDep || dep0 > maxDep) return;
    const lastStop = net.patterns[net.trips[last.trip].pattern].calls[last.alight].stop;
    for (const e of egress) {
      if (e.stop !== lastStop) continue;
      const arr =
        net.trips[last.trip].arrival[last.alight] + (e.truck ? minutes[cN][TRUCK] + e.minutes : 0);
      out.push({
        dep0,
        arr,
        tr: legs.length - 1,
        em: em + (e.truck ? e.grams + handlingGrams[cN][TRUCK] : 0),
      });
    }
  };
  const walk = (legs: Leg[], stop: number, readyAt: (to: number) => number, a: Access) => {
    for (const trip of net.trips) {
      if (legs.some((l) => l.trip === trip.index)) continue;
      const p = net.patterns[trip.pattern];
      for (let b = 0; b < p.calls.length - 1; b++) {
        if (p.calls[b].stop !== stop || trip.departure[b] < readyAt(cls(trip.index))) continue;
        for (let al = b + 1; al < p.calls.length; al++) {
          const next = [...legs, { trip: trip.index, board: b, alight: al }];
          finish(next, a);
          const arr = trip.arrival[al];
          const c = cls(trip.index);
          walk(next, p.calls[al].stop, (to) => arr + minutes[c][to], a);
        }
      }
    }
  };
  for (const a of access) walk([], a.stop, () => -Infinity, a);
  const keep = out.filter(
    (x, i) =>
      !out.some(
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

describe("multi-criteria search with truck first/last mile vs brute force", () => {
  test("same Pareto set", () => {
    let nonEmpty = 0;
    let withTruck = 0;
    fc.assert(
      fc.property(
        fc.array(voyageArb, { minLength: 2, maxLength: 9 }),
        pointArb,
        pointArb,
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.boolean(),
        (voyages, o, d, firstKm, lastKm, noTruck) => {
          const origin = endOf(o);
          const destination = endOf(d);
          const { optimizer } = optimizerFor(PORTS, scheduleOf(OPS, voyages));
          const net = optimizer.network;
          const raw: RawQuery = {
            origin: origin.value,
            originType: origin.type,
            destination: destination.value,
            destinationType: destination.type,
            minDeparture: "2030-01-01",
            maxFirstMileTruckingKm: String(firstKm),
            maxLastMileTruckingKm: String(lastKm),
          };
          if (noTruck) raw.modalities = MODES.join(",");
          const got = optimizer.search(raw).results;
          const gotKeys = [
            ...new Set(
              got.map((r) =>
                key({
                  dep0: toMinutes(new Date(r.latestDropOff)),
                  arr: toMinutes(new Date(r.earliestPickup)),
                  tr: r.transfers,
                  em: Math.round(r.emissionsInKgCo2e * 1000),
                })
              )
            ),
          ].sort();
          expect(gotKeys.length).toBe(got.length);
          const same =
            (origin.locode && origin.locode === destination.locode) ||
            (origin.lat === destination.lat && origin.lng === destination.lng);
          const minDep = toMinutes(new Date(Date.UTC(2030, 0, 1)));
          const expected = same
            ? []
            : bruteForce(
                net,
                accessOf(net, origin, firstKm, !noTruck),
                accessOf(net, destination, lastKm, !noTruck),
                minDep,
                minDep + 28 * 1440
              );
          if (expected.length) nonEmpty++;
          if (got.some((r) => r.truckToOriginInMeters > 0 || r.truckToDestinationInMeters > 0))
            withTruck++;
          expect(gotKeys).toEqual(expected);
        }
      ),
      { numRuns: 300, seed: 4242 }
    );
    expect(nonEmpty).toBeGreaterThan(60);
    expect(withTruck).toBeGreaterThan(30);
  });
});
