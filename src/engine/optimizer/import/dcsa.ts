/**
 * Import of DCSA Commercial Schedules v1 vessel schedules (GET /v1/vessel-schedules responds with
 * an array of ServiceSchedule: carrierServiceCode, vesselSchedules[].vessel and
 * vesselSchedules[].transportCalls[] with location.UNLocationCode and ARRI/DEPA timestamps).
 * Spec: https://github.com/dcsaorg/DCSA-OpenAPI/tree/master/cs/v1 (CS v1.0.x). One vessel
 * schedule becomes one voyage; waterway points (isCargoOperationalCall false) are skipped.
 */
import { PlausibilityOptions, voyageProblems } from "./plausibility";
import { LOCODE_PATTERN } from "../../places/parse-place";
import { ScheduledModality, VesselDef, VoyageDef } from "../model";

export interface ImportResult {
  voyages: VoyageDef[];
  /** Operator codes the voyages use. */
  operatorCodes: string[];
  warnings: string[];
}

export interface DcsaImportOptions extends PlausibilityOptions {
  /** Operator when a vessel schedule names none (vessel.operatorCarrierCode). */
  operator?: string;
  modality?: ScheduledModality;
  source: string;
}

type Json = Record<string, unknown>;

/** Classifier preference: actual over estimated over planned. */
const CLASSIFIER_RANK: Record<string, number> = { ACT: 3, EST: 2, PLN: 1 };

export function parseDcsaVesselSchedules(data: unknown, options: DcsaImportOptions): ImportResult {
  const services = Array.isArray(data) ? data : [data];
  const voyages: VoyageDef[] = [];
  const warnings: string[] = [];
  services.forEach((svc, si) => {
    if (
      !isObject(svc) ||
      typeof svc.carrierServiceCode !== "string" ||
      !Array.isArray(svc.vesselSchedules)
    ) {
      throw new Error(
        `DCSA vessel schedules: item ${si + 1} is not a ServiceSchedule (carrierServiceCode and vesselSchedules are required).`
      );
    }
    const serviceCode = svc.carrierServiceCode;
    svc.vesselSchedules.forEach((vs: unknown, vi: number) => {
      const where = `service ${serviceCode}, vessel schedule ${vi + 1}`;
      if (!isObject(vs)) throw new Error(`DCSA vessel schedules: ${where} is not an object.`);
      const vesselJson = isObject(vs.vessel) ? vs.vessel : undefined;
      const operator = str(vesselJson?.operatorCarrierCode) ?? options.operator;
      if (!operator)
        throw new Error(
          `DCSA vessel schedules: ${where} has no vessel.operatorCarrierCode; pass --operator.`
        );
      const calls: VoyageDef["calls"] = [];
      for (const tc of Array.isArray(vs.transportCalls) ? vs.transportCalls : []) {
        if (!isObject(tc) || tc.isCargoOperationalCall === false) continue;
        const loc = isObject(tc.location) ? tc.location : {};
        const locode = str(loc.UNLocationCode)?.toUpperCase();
        if (!locode || !LOCODE_PATTERN.test(locode)) {
          warnings.push(`${where}: a transport call without a valid UNLocationCode was skipped.`);
          continue;
        }
        const arrival = bestTimestamp(tc.timestamps, "ARRI");
        const departure = bestTimestamp(tc.timestamps, "DEPA");
        if (!arrival && !departure) {
          warnings.push(`${where}: call at ${locode} has no ARRI/DEPA timestamp and was skipped.`);
          continue;
        }
        const call: VoyageDef["calls"][number] = { locode };
        const terminal = str(loc.locationName);
        if (terminal) call.terminal = terminal;
        if (arrival) call.arrival = arrival;
        if (departure) call.departure = departure;
        calls.push(call);
      }
      if (calls.length < 2) {
        warnings.push(`${where}: fewer than two timed calls; skipped.`);
        return;
      }
      const voyage: VoyageDef = {
        operator: operator.toUpperCase(),
        serviceCode,
        modality: options.modality ?? "DEEPSEA",
        calls,
        source: options.source,
      };
      const vessel = vesselOf(vesselJson);
      if (vessel) voyage.vessel = vessel;
      const impossible = voyageProblems(voyage, options);
      if (impossible.length)
        throw new Error(
          `DCSA vessel schedules: ${where}: impossible voyage: ${impossible.join("; ")}.`
        );
      voyages.push(voyage);
    });
  });
  return { voyages, operatorCodes: [...new Set(voyages.map((v) => v.operator))], warnings };
}

function bestTimestamp(list: unknown, type: "ARRI" | "DEPA"): string | undefined {
  let best: { rank: number; at: string } | undefined;
  for (const t of Array.isArray(list) ? list : []) {
    if (!isObject(t) || t.eventTypeCode !== type) continue;
    const at = str(t.eventDateTime);
    if (!at || !Number.isFinite(Date.parse(at))) continue;
    const rank = CLASSIFIER_RANK[str(t.eventClassifierCode) ?? ""] ?? 0;
    if (!best || rank > best.rank) best = { rank, at };
  }
  return best?.at;
}

function vesselOf(v: Json | undefined): VesselDef | undefined {
  const name = str(v?.name);
  const imo = str(v?.vesselIMONumber);
  const mmsi = str(v?.MMSINumber);
  // The leg record's vessel needs all three; a partial one is left out rather than invented.
  return name && imo && mmsi ? { name, imo, mmsi } : undefined;
}

function isObject(x: unknown): x is Json {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function str(x: unknown): string | undefined {
  return typeof x === "string" && x.trim() !== "" ? x.trim() : undefined;
}
