/** Small, fully known networks for the optimizer tests: a geography of fixed points. */
import { incorrectValues, unknownData } from "../../../src/engine/errors";
import {
  createOptimizer,
  Geography,
  ScheduleData,
  ScheduleParameters,
  ScheduledModality,
} from "../../../src/engine/optimizer";
import { greatCircleMeters } from "../../../src/engine/optimizer/access";
import { parsePlaceInput } from "../../../src/engine/places/parse-place";
import { Modality, ResolvedPlace } from "../../../src/engine/types";

export interface TestPort {
  locode: string;
  lat: number;
  lng: number;
  terminals?: string[];
}

/** g CO2e per TEU-km by modality: simple round numbers so expected sums can be written down. */
export const GRAMS_PER_TEU_KM: Record<Modality, number> = {
  DEEPSEA: 10,
  SHORTSEA: 20,
  BARGE: 30,
  RAIL: 25,
  TRUCK: 100,
};

/** Legs with ends farther apart than this get a lower (long-haul) intensity in the test geography. */
const LONG_HAUL_METERS = 800_000;

export function testGeography(ports: TestPort[]): Geography & {
  resolvePlace(v: string, p: string): ResolvedPlace;
  terminalIds: Map<string, string>;
} {
  const byCode = new Map(ports.map((p) => [p.locode, p]));
  const terminalIds = new Map<string, string>();
  let n = 0;
  for (const p of ports)
    for (const t of p.terminals ?? [])
      terminalIds.set(
        `${p.locode}:${t}`,
        `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`
      );
  return {
    terminalIds,
    port(locode) {
      const p = byCode.get(locode);
      return p ? { lat: p.lat, lng: p.lng, name: `Port ${locode}` } : undefined;
    },
    terminal(locode, name) {
      const p = byCode.get(locode);
      const t = p?.terminals?.find((x) => !name || x === name);
      return p && t
        ? { id: terminalIds.get(`${locode}:${t}`)!, name: t, lat: p.lat, lng: p.lng }
        : undefined;
    },
    distance(a, b, modality) {
      // Sea and inland detours: a fixed circuity so distances differ by modality.
      const factor = modality === "TRUCK" ? 1.2 : modality === "RAIL" ? 1.1 : 1.3;
      return Math.round(greatCircleMeters(a, b) * factor);
    },
    emissionsKgPerTeu(modality, meters, ends) {
      // Like trade lanes, not additive over calls: a leg whose ends lie far apart gets a lower
      // intensity than its hops would, so the search must compare labels at every call ahead.
      const longHaul = ends && greatCircleMeters(ends.from, ends.to) > LONG_HAUL_METERS ? 0.6 : 1;
      return (GRAMS_PER_TEU_KM[modality] * longHaul * meters) / 1000 / 1000;
    },
    resolvePlace(value, parameter) {
      const input = parsePlaceInput(value, parameter);
      if (input.kind === "GEO") return { kind: "GEO", lat: input.lat, lng: input.lng };
      if (input.kind === "LOCODE") {
        const p = byCode.get(input.locode);
        if (!p) throw unknownData(parameter, `${parameter} ${input.locode} unknown`);
        return {
          kind: "LOCODE",
          locode: p.locode,
          lat: p.lat,
          lng: p.lng,
          name: `Port ${p.locode}`,
        };
      }
      for (const [key, id] of terminalIds) {
        if (id === input.id) {
          const [locode, name] = key.split(":");
          const p = byCode.get(locode)!;
          return { kind: "TERMINAL", terminalId: id, locode, name, lat: p.lat, lng: p.lng };
        }
      }
      throw incorrectValues(parameter, "unknown terminal");
    },
  };
}

const src = (value: number, unit: string) => ({ value, unit, source: "test" });

/** Round-number parameters: transfers 6 h (sea–sea 12 h), truck 60 km/h, handling 10/5 kg. */
export function testParameters(): ScheduleParameters {
  const h = (v: number) => src(v, "h");
  return {
    speedKmh: {
      DEEPSEA: src(30, "km/h"),
      SHORTSEA: src(25, "km/h"),
      BARGE: src(12, "km/h"),
      RAIL: src(20, "km/h"),
      TRUCK: src(60, "km/h"),
    },
    portStayHours: { DEEPSEA: h(24), SHORTSEA: h(12), BARGE: h(4), RAIL: h(2) },
    minTransferHours: {
      "SEA-SEA": h(12),
      "SEA-BARGE": h(6),
      "SEA-RAIL": h(6),
      "BARGE-BARGE": h(6),
      "BARGE-RAIL": h(6),
      "RAIL-RAIL": h(6),
      "TRUCK-SEA": h(6),
      "TRUCK-BARGE": h(6),
      "TRUCK-RAIL": h(6),
    },
    handlingKgCo2ePerTeu: { seaTerminal: src(10, "kg"), inlandTerminal: src(5, "kg") },
    defaults: {
      maxFirstMileTruckingKm: src(150, "km"),
      maxLastMileTruckingKm: src(150, "km"),
      departureWindowDays: src(28, "d"),
      searchHorizonDays: src(90, "d"),
      scheduleWeeks: src(4, "weeks"),
    },
  };
}

export const T0 = Date.UTC(2030, 0, 7); // a Monday
export const iso = (hoursAfterT0: number) => new Date(T0 + hoursAfterT0 * 3_600_000).toISOString();

export interface SimpleVoyage {
  op: string;
  code: string;
  modality: ScheduledModality;
  partners?: string[];
  /** [locode, arrival hour, departure hour] after T0. */
  calls: Array<[string, number, number]>;
  vessel?: { name: string; imo: string; mmsi: string };
}

export function scheduleOf(
  operators: Array<[string, string]>,
  voyages: SimpleVoyage[]
): ScheduleData {
  return {
    operators: operators.map(([scac, name]) => ({ scac, name, source: "test" })),
    services: [],
    voyages: voyages.map((v) => ({
      operator: v.op,
      partners: v.partners,
      serviceCode: v.code,
      modality: v.modality,
      calls: v.calls.map(([locode, a, d]) => ({ locode, arrival: iso(a), departure: iso(d) })),
      vessel: v.vessel,
      source: "test",
    })),
  };
}

export function optimizerFor(ports: TestPort[], data: ScheduleData, now = new Date(T0)) {
  const geo = testGeography(ports);
  const optimizer = createOptimizer({
    data,
    parameters: testParameters(),
    geography: geo,
    resolvePlace: geo.resolvePlace,
    now,
  });
  return { optimizer, geo };
}
