/**
 * Turns the query's constraints into what the search checks per trip and per stop: which trips may
 * be used (modalities, excluded operators), where cargo may be handled (excluded LOCODEs), and the
 * requirement bits (all/any required operators and LOCODEs) that every result must collect.
 *
 * An operator "appears" on a leg when it runs the service or is one of its collaborating
 * (vessel-sharing) operators. A LOCODE is "on the route" when cargo is loaded or unloaded there or
 * it is the origin or destination; ports a vessel only passes with the cargo on board do not count.
 */
import { unknownData } from "../errors";
import { Network } from "./network";
import { ParsedQuery } from "./query";

export interface ConstraintMasks {
  tripAllowed: Uint8Array;
  patternAllowed: Uint8Array;
  stopUsable: Uint8Array;
  stopBits: Int32Array;
  patternBits: Int32Array;
  fullBits: number;
  locodeBits: Map<string, number>;
  excludedLocodes: Set<string>;
}

export function buildConstraints(net: Network, q: ParsedQuery): ConstraintMasks {
  const allOps = q.allRequiredOperators.map((x) => resolveOperator(net, x, "allRequiredOperators"));
  const anyOps = new Set(
    q.anyRequiredOperators.map((x) => resolveOperator(net, x, "anyRequiredOperators"))
  );
  const excludedOps = new Set(
    q.excludedOperators.map((x) => resolveOperator(net, x, "excludedOperators"))
  );

  let next = 0;
  const opBit = new Map<number, number>();
  for (const op of allOps) opBit.set(op, (opBit.get(op) ?? 0) | (1 << next++));
  const anyOpBit = anyOps.size ? 1 << next++ : 0;
  const locodeBits = new Map<string, number>();
  for (const l of q.allRequiredLocodes) locodeBits.set(l, (locodeBits.get(l) ?? 0) | (1 << next++));
  if (q.anyRequiredLocodes.length) {
    const bit = 1 << next++;
    for (const l of q.anyRequiredLocodes) locodeBits.set(l, (locodeBits.get(l) ?? 0) | bit);
  }
  const fullBits = next === 0 ? 0 : (2 ** next - 1) | 0;

  const patternAllowed = new Uint8Array(net.patterns.length);
  const patternBits = new Int32Array(net.patterns.length);
  for (const p of net.patterns) {
    const ops = [p.operator, ...p.partners];
    patternAllowed[p.index] =
      q.modalities.has(p.modality) && !ops.some((o) => excludedOps.has(o)) ? 1 : 0;
    let bits = 0;
    for (const o of ops) {
      bits |= opBit.get(o) ?? 0;
      if (anyOps.has(o)) bits |= anyOpBit;
    }
    patternBits[p.index] = bits;
  }
  const tripAllowed = tripsAllowed(net, patternAllowed);

  const excludedLocodes = new Set(q.excludedLocodes);
  const stopUsable = new Uint8Array(net.stops.length);
  const stopBits = new Int32Array(net.stops.length);
  for (const s of net.stops) {
    stopUsable[s.index] = excludedLocodes.has(s.locode) ? 0 : 1;
    stopBits[s.index] = locodeBits.get(s.locode) ?? 0;
  }
  return {
    tripAllowed,
    patternAllowed,
    stopUsable,
    stopBits,
    patternBits,
    fullBits,
    locodeBits,
    excludedLocodes,
  };
}

/** Per network: each trip's pattern, and the trip masks of the last few pattern masks. */
const tripMasks = new WeakMap<
  Network,
  { tripPattern: Int32Array; byPatterns: Map<string, Uint8Array> }
>();
const TRIP_MASKS_KEPT = 32;

/**
 * Per trip: 1 when its pattern is allowed. Most queries allow the same patterns (all of them), so
 * the mask of 40,000 trips is kept per network for the last few pattern masks and shared: the
 * search only reads it.
 */
function tripsAllowed(net: Network, patternAllowed: Uint8Array): Uint8Array {
  let m = tripMasks.get(net);
  if (!m) {
    const tripPattern = new Int32Array(net.trips.length);
    for (const t of net.trips) tripPattern[t.index] = t.pattern;
    tripMasks.set(net, (m = { tripPattern, byPatterns: new Map() }));
  }
  const key = patternAllowed.join("");
  let mask = m.byPatterns.get(key);
  if (!mask) {
    const { tripPattern } = m;
    mask = new Uint8Array(tripPattern.length);
    for (let t = 0; t < tripPattern.length; t++) mask[t] = patternAllowed[tripPattern[t]];
    if (m.byPatterns.size >= TRIP_MASKS_KEPT) m.byPatterns.clear();
    m.byPatterns.set(key, mask);
  }
  return mask;
}

/** Operator index by SCAC (case-insensitive) or id; Unknown Data naming the parameter otherwise. */
export function resolveOperator(net: Network, value: string, parameter: string): number {
  const v = value.trim().toUpperCase();
  const i = net.operators.findIndex((o) => o.scac.toUpperCase() === v || o.id.toUpperCase() === v);
  if (i < 0) {
    const known = net.operators.map((o) => o.scac).join(", ");
    throw unknownData(
      parameter,
      `${parameter} "${value}" is not a known operator; give a SCAC or operator id from the operator listing (${known}).`
    );
  }
  return i;
}
