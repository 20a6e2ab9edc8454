/**
 * The compiled network the search runs on: stops (one per LOCODE), trip patterns with distances
 * and emissions precomputed per stop pair, trips with times, and connections (one per hop of a
 * trip) in typed arrays sorted by departure. Times are whole minutes since the Unix epoch;
 * emissions are whole grams CO2e per TEU so sums compare exactly.
 */
import { Operator, TerminalRef } from "./types";
import { ScheduledModality, TransferClass, TRANSFER_CLASSES, VesselDef } from "./model";

export interface Stop {
  index: number;
  locode: string;
  name: string;
  lat: number;
  lng: number;
}

export interface PatternCall {
  stop: number;
  terminal?: TerminalRef;
}

/** A service rotation (or one imported voyage): the stop sequence trips share. */
export interface Pattern {
  index: number;
  code: string;
  /** Service codes of the leg operator: the code and its aliases. */
  serviceCodes: string[];
  operator: number;
  partners: number[];
  modality: ScheduledModality;
  calls: PatternCall[];
  /** Metres from the first call to call i. */
  cumMeters: number[];
  /**
   * Grams CO2e per TEU riding from call i to call j (i < j), at [i * calls.length + j]: the
   * engine's emissions for that leg with its own ends (trade lane, region), so the value is not
   * a sum of hops.
   */
  legGrams: Int32Array;
}

/** Grams CO2e per TEU riding pattern `p` from call `board` to call `alight`. */
export function legGrams(p: Pattern, board: number, alight: number): number {
  return p.legGrams[board * p.calls.length + alight];
}

export interface Trip {
  index: number;
  /** Stable key: operator, service code and first departure. */
  key: string;
  pattern: number;
  arrival: number[];
  departure: number[];
  vessel?: VesselDef;
}

export interface Connections {
  count: number;
  trip: Int32Array;
  /** Hop index: from call pos to call pos + 1. */
  pos: Int32Array;
  from: Int32Array;
  to: Int32Array;
  dep: Float64Array;
  arr: Float64Array;
}

export interface TransferRules {
  /** Minutes, indexed [from class][to class] in TRANSFER_CLASSES order. */
  minutes: number[][];
  /** Grams CO2e per TEU for one handling, same indexing. */
  handlingGrams: number[][];
  truckKmh: number;
}

export interface Network {
  stops: Stop[];
  stopByLocode: Map<string, number>;
  operators: Operator[];
  patterns: Pattern[];
  trips: Trip[];
  connections: Connections;
  rules: TransferRules;
  /** Minutes of the first and last departure in the timetable. */
  firstDeparture: number;
  lastDeparture: number;
  warnings: string[];
}

export function classIndex(c: TransferClass): number {
  return TRANSFER_CLASSES.indexOf(c);
}

export const MINUTE_MS = 60_000;

export function toMinutes(date: Date): number {
  return Math.floor(date.getTime() / MINUTE_MS);
}

/** Whole minutes from 1970 up to the end of year 9999: the plain `YYYY-MM-DDTHH:MM:00Z` form. */
const FAST_ISO_END = Date.UTC(10000, 0, 1) / MINUTE_MS;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));
/** `YYYY-MM-DDT` per day number, filled as days come up (a route sheet spans a few hundred). */
const dayPrefixes = new Map<number, string>();

/**
 * ISO 8601 UTC text of a time in minutes, seconds shown, no milliseconds (2026-01-31T12:00:00Z).
 * Every route option has several: whole minutes take the date part from a per-day cache instead
 * of formatting a Date each time.
 */
export function minutesToIso(minutes: number): string {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes >= FAST_ISO_END)
    return new Date(minutes * MINUTE_MS).toISOString().replace(".000Z", "Z");
  const day = Math.floor(minutes / 1440);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
    if (dayPrefixes.size >= 4096) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  const m = minutes - day * 1440;
  const h = Math.floor(m / 60);
  return `${prefix}${TWO_DIGITS[h]}:${TWO_DIGITS[m - h * 60]}:00Z`;
}

/** Sorts hops by departure, then arrival, then trip and position, into typed arrays. */
export function buildConnections(trips: Trip[], patterns: Pattern[]): Connections {
  const rows: Array<[number, number, number, number]> = [];
  for (const t of trips) {
    for (let i = 0; i + 1 < t.arrival.length; i++)
      rows.push([t.departure[i], t.arrival[i + 1], t.index, i]);
  }
  rows.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
  const n = rows.length;
  const c: Connections = {
    count: n,
    trip: new Int32Array(n),
    pos: new Int32Array(n),
    from: new Int32Array(n),
    to: new Int32Array(n),
    dep: new Float64Array(n),
    arr: new Float64Array(n),
  };
  rows.forEach(([dep, arr, trip, pos], k) => {
    const calls = patterns[trips[trip].pattern].calls;
    c.trip[k] = trip;
    c.pos[k] = pos;
    c.from[k] = calls[pos].stop;
    c.to[k] = calls[pos + 1].stop;
    c.dep[k] = dep;
    c.arr[k] = arr;
  });
  return c;
}
