/**
 * Transit time without a schedule: distance ÷ a service speed (+ port time). Default speeds per
 * modality, and for DEEPSEA with vessel dimensions per vessel class (data/service-speeds.json).
 * A truck also stops as the driving-time rules of its region say (driving-rules.ts: EU/AETR,
 * US hours of service); every answer names the rules or assumptions it used (`rules`).
 */
import { decimalNumber } from "../parameters";
import { pickSizeClass } from "../emissions/size-class";
import { SizeClass } from "../emissions/factor-data";
import { LatLng, Modality, VesselDimensions } from "../types";
import { drivingRulesFor, restHours, TimeRules, timeRulesOf } from "./driving-rules";

const METRES_PER_NM = 1852;
const KMH_PER_KNOT = 1.852;

export interface ServiceSpeeds {
  modalities: Record<Modality, { knots?: number; kmh?: number; source: string }>;
  deepSeaClasses?: {
    classes: Array<{ name: string; knots: number; source: string } & Partial<SizeClass>>;
  };
}

export interface TransitTime {
  /** Sailing/driving time plus breaks and rests (a truck's) plus port time, in days. */
  days: number;
  hours: number;
  /** Time moving: sailing, or a truck's driving. */
  sailingHours: number;
  /** Breaks and rests the driving-time rules require (0 for the other modalities). */
  restHours: number;
  portHours: number;
  speedKnots: number;
  speedKmh: number;
  /** Where the speed came from: "caller", the modality, or the vessel class. */
  speedBasis: string;
  source: string;
  /** The rules or assumptions behind the time: a truck's driving-time rules, rail's and barge's averages. */
  rules: TimeRules;
}

export interface TimeOptions {
  speedKnots?: string | number;
  portHours?: string | number;
  vessel?: VesselDimensions;
  /** The lane's ends: a truck's driving-time rules are those of the region it runs in. */
  lane?: { from: LatLng; to: LatLng };
}

export function transitTime(
  meters: number,
  modality: Modality,
  speeds: ServiceSpeeds,
  options: TimeOptions = {}
): TransitTime {
  const given = positive(options.speedKnots, "speedKnots", 60);
  const portHours = positive(options.portHours, "portHours", 24 * 365, true) ?? 0;
  let knots: number;
  let basis: string;
  let source: string;
  const classes = speeds.deepSeaClasses?.classes;
  if (given !== undefined) {
    knots = given;
    basis = "caller";
    source = "speedKnots given by the caller";
  } else if (modality === "DEEPSEA" && options.vessel && classes?.length) {
    const c = pickSizeClass(classes as SizeClass[], options.vessel) as SizeClass & {
      knots: number;
    };
    knots = c.knots;
    basis = `vessel class ${c.name}`;
    source = c.source;
  } else {
    const m = speeds.modalities[modality];
    knots = m.knots ?? (m.kmh as number) / KMH_PER_KNOT;
    basis = `${modality} default`;
    source = m.source;
  }
  const sailingHours = meters / METRES_PER_NM / knots;
  const driving = modality === "TRUCK" ? drivingRulesFor(options.lane) : undefined;
  const rests = driving ? restHours(sailingHours, driving) : 0;
  const hours = sailingHours + rests + portHours;
  return {
    days: round(hours / 24, 3),
    hours: round(hours, 2),
    sailingHours: round(sailingHours, 2),
    restHours: round(rests, 2),
    portHours,
    speedKnots: round(knots, 2),
    speedKmh: round(knots * KMH_PER_KNOT, 2),
    speedBasis: basis,
    source,
    rules: timeRulesOf(modality, driving),
  };
}

function positive(
  v: string | number | undefined,
  parameter: string,
  max: number,
  zeroOk = false
): number | undefined {
  // A service speed under MIN_KNOTS gives no meaningful transit time (1e-310 gave days: null).
  return decimalNumber(v, parameter, { min: zeroOk ? 0 : MIN_KNOTS, max });
}

/** The slowest service speed taken: 1 knot. */
const MIN_KNOTS = 1;

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
