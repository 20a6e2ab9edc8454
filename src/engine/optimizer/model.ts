/**
 * Schedule model: what the data files describe (operators, services with port rotations, explicit
 * voyages from imports) and the parameters that turn distances into timetables. Pure data shapes.
 */
import { LatLng, Modality } from "../types";

/** Modalities that run to a timetable; TRUCK only serves first/last mile. */
export const SCHEDULED_MODALITIES = ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL"] as const;
export type ScheduledModality = (typeof SCHEDULED_MODALITIES)[number];

export function isScheduledModality(m: string): m is ScheduledModality {
  return (SCHEDULED_MODALITIES as readonly string[]).includes(m);
}

/** Transfer classes: deep-sea and short-sea ships use the same quay, so they share one class. */
export type TransferClass = "SEA" | "BARGE" | "RAIL" | "TRUCK";
export const TRANSFER_CLASSES: readonly TransferClass[] = ["SEA", "BARGE", "RAIL", "TRUCK"];

export function transferClassOf(m: Modality): TransferClass {
  return m === "DEEPSEA" || m === "SHORTSEA" ? "SEA" : m;
}

export interface OperatorDef {
  /** Stable UUID; derived from the SCAC when absent. */
  id?: string;
  name: string;
  /** Standard Carrier Alpha Code, or a documented placeholder code (see scacIsPlaceholder). */
  scac: string;
  /** True when the operator has no public SCAC and `scac` is our short code for it. */
  scacIsPlaceholder?: boolean;
  source: string;
}

export interface CallDef {
  locode: string;
  /** Terminal name as in the terminal registry; the port itself when absent. */
  terminal?: string;
}

export interface VesselDef {
  name: string;
  imo: string;
  mmsi: string;
  source?: string;
}

/** A liner service or shuttle that repeats weekly along a fixed rotation. */
export interface ServiceDef {
  code: string;
  /** Other codes of the same loop (a partner's name for it, e.g. Hapag-Lloyd NE2 for Maersk AE1). */
  aliases?: string[];
  name?: string;
  /** SCAC (or placeholder code) of the operator that runs the service. */
  operator: string;
  /** SCACs of vessel-sharing partners that sell slots on the service. */
  partners?: string[];
  modality: ScheduledModality;
  /** Calls in order; a loop repeats its first port at the end. */
  rotation: CallDef[];
  /** Departures from the first call per week (1 = weekly, 5 = Mon–Fri …). */
  departuresPerWeek: number;
  /** First departure of the week from the first call: ISO weekday (1 = Monday) and UTC hour. */
  firstDeparture: { weekday: number; hour: number };
  /** Overrides the modality's speed (e.g. China–Europe block trains), with its own source. */
  speedKmh?: number;
  speedSource?: string;
  /** Vessels deployed in rotation, one per weekly departure in turn. */
  vessels?: VesselDef[];
  source: string;
}

/** One voyage with explicit times, as imported from DCSA schedules or a CSV of connections. */
export interface VoyageDef {
  operator: string;
  partners?: string[];
  serviceCode: string;
  modality: ScheduledModality;
  calls: Array<CallDef & { arrival?: string; departure?: string }>;
  vessel?: VesselDef;
  source: string;
}

export interface ScheduleData {
  operators: OperatorDef[];
  services: ServiceDef[];
  voyages: VoyageDef[];
}

export interface SourcedValue {
  value: number;
  unit: string;
  source: string;
}

/** data/schedules/parameters.json */
export interface ScheduleParameters {
  speedKmh: Record<ScheduledModality | "TRUCK", SourcedValue>;
  portStayHours: Record<ScheduledModality, SourcedValue>;
  /** Minimum hours between arrival and onward departure, keyed `FROM-TO` over transfer classes. */
  minTransferHours: Record<string, SourcedValue>;
  /** Fallback hub emissions for geographies without hubKgPerTeu (the engine's has it). */
  handlingKgCo2ePerTeu?: { seaTerminal: SourcedValue; inlandTerminal: SourcedValue };
  defaults: {
    maxFirstMileTruckingKm: SourcedValue;
    maxLastMileTruckingKm: SourcedValue;
    departureWindowDays: SourcedValue;
    searchHorizonDays: SourcedValue;
    scheduleWeeks: SourcedValue;
  };
}

/** What the network builder and the search need from the route engine. */
export interface Geography {
  /** Coordinates and name of a LOCODE, or undefined when unknown. */
  port(locode: string): (LatLng & { name: string }) | undefined;
  /**
   * The best-matching terminal of `locode`; without a name, the first one serving `modality`
   * (undefined when the registry has none).
   */
  terminal(
    locode: string,
    name: string | undefined,
    modality: Modality
  ): (LatLng & { id: string; name: string }) | undefined;
  /**
   * Where a port's terminals are (optional): the first and last mile truck to the nearest of them
   * as well as to the LOCODE point, which may stand far from a port spread over several sites.
   */
  terminalPoints?(locode: string): Array<LatLng & { id: string }>;
  /** Metres between two points for a modality; throws when no route exists. */
  distance(from: LatLng, to: LatLng, modality: Modality): number;
  /**
   * kg CO2e per TEU for a leg of `meters` by `modality`; `ends` are the leg's own ends, from which
   * the emission model picks the trade lane or region (the same call as /emissions).
   */
  emissionsKgPerTeu(
    modality: Modality,
    meters: number,
    ends?: { from: LatLng; to: LatLng }
  ): number;
  /** kg CO2e per TEU of a transfer from `from` to `to` (the hub factors of /chain). */
  hubKgPerTeu?(from: Modality, to: Modality): number;
}
