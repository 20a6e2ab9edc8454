/**
 * Builds the searchable network from schedule data: resolves ports and terminals, measures every
 * hop once with the route engine's distances (the slow part, hence cached per stop pair), derives
 * sailing times from per-modality speeds and expands weekly services into timed trips.
 */
import { v5 as uuidv5 } from "uuid";
import { LatLng, Modality } from "../types";
import {
  CallDef,
  Geography,
  OperatorDef,
  ScheduleData,
  ScheduleParameters,
  ServiceDef,
  TransferClass,
  TRANSFER_CLASSES,
  VesselDef,
  VoyageDef,
} from "./model";
import {
  buildConnections,
  MINUTE_MS,
  Network,
  Pattern,
  PatternCall,
  Stop,
  Trip,
  TransferRules,
} from "./network";
import { Operator } from "./types";

/** Namespace of operator and route-option ids (random v4 chosen once; never change it). */
export const OPTIMIZER_NAMESPACE = "8b0e5f3c-6f1d-4a57-9c52-3d2f7a1e9b64";

const DAY = 1440;
const WEEK = 7 * DAY;

export function operatorId(scac: string): string {
  return uuidv5(`operator:${scac.trim().toUpperCase()}`, OPTIMIZER_NAMESPACE);
}

export interface BuildOptions {
  now: Date;
}

export function buildNetwork(
  data: ScheduleData,
  params: ScheduleParameters,
  geo: Geography,
  options: BuildOptions
): Network {
  const b = new NetworkBuilder(params, geo, options.now);
  b.addOperators(data.operators);
  for (const s of data.services) b.addService(s);
  for (const v of data.voyages) b.addVoyage(v);
  return b.finish();
}

class NetworkBuilder {
  readonly stops: Stop[] = [];
  readonly stopByLocode = new Map<string, number>();
  readonly operators: Operator[] = [];
  readonly operatorByCode = new Map<string, number>();
  readonly patterns: Pattern[] = [];
  readonly trips: Trip[] = [];
  readonly warnings: string[] = [];
  private readonly hopCache = new Map<string, number>();
  private readonly nowMin: number;
  private readonly horizonEnd: number;
  private readonly tripKeys = new Set<string>();

  constructor(
    private readonly params: ScheduleParameters,
    private readonly geo: Geography,
    now: Date
  ) {
    this.nowMin = Math.floor(now.getTime() / MINUTE_MS);
    this.horizonEnd = this.nowMin + params.defaults.scheduleWeeks.value * WEEK;
  }

  addOperators(defs: OperatorDef[]): void {
    for (const d of defs) {
      const scac = d.scac.trim().toUpperCase();
      const op: Operator = { id: d.id ?? operatorId(scac), name: d.name, scac };
      const existing = this.operatorByCode.get(scac);
      if (existing !== undefined) {
        this.operators[existing] = op;
      } else {
        this.operatorByCode.set(scac, this.operators.length);
        this.operators.push(op);
      }
    }
  }

  addService(s: ServiceDef): void {
    const pattern = this.addPattern(
      s.code,
      s.operator,
      s.partners ?? [],
      s.modality,
      s.rotation,
      s.aliases ?? []
    );
    if (!pattern) return;
    const speed = s.speedKmh ?? this.params.speedKmh[s.modality].value;
    const stay = this.params.portStayHours[s.modality].value * 60;
    // Offsets of each call from the first departure: sail, then stay at intermediate calls.
    const arrOff: number[] = [0];
    const depOff: number[] = [0];
    for (let i = 1; i < pattern.calls.length; i++) {
      const hopKm = (pattern.cumMeters[i] - pattern.cumMeters[i - 1]) / 1000;
      arrOff[i] = depOff[i - 1] + Math.max(1, Math.round((hopKm / speed) * 60));
      depOff[i] = i === pattern.calls.length - 1 ? arrOff[i] : arrOff[i] + Math.round(stay);
    }
    const duration = arrOff[arrOff.length - 1];
    const perWeek = Math.max(1, Math.min(14, Math.round(s.departuresPerWeek)));
    // Start early enough that voyages already under way at `now` are in the timetable.
    const firstWeek = mondayOf(this.nowMin) - (Math.ceil(duration / WEEK) + 1) * WEEK;
    let seq = 0;
    for (let week = firstWeek; week <= this.horizonEnd; week += WEEK) {
      for (let k = 0; k < perWeek; k++, seq++) {
        const start =
          week +
          (s.firstDeparture.weekday - 1) * DAY +
          s.firstDeparture.hour * 60 +
          Math.round((k * WEEK) / perWeek);
        if (start + duration < this.nowMin - WEEK || start > this.horizonEnd) continue;
        const vessel = s.vessels?.length
          ? s.vessels[Math.floor(start / WEEK) % s.vessels.length]
          : undefined;
        this.addTrip(
          pattern,
          arrOff.map((o) => start + o),
          depOff.map((o) => start + o),
          vessel
        );
      }
    }
  }

  addVoyage(v: VoyageDef): void {
    const pattern = this.addPattern(
      v.serviceCode,
      v.operator,
      v.partners ?? [],
      v.modality,
      v.calls
    );
    if (!pattern) return;
    const arr: number[] = [];
    const dep: number[] = [];
    for (let i = 0; i < v.calls.length; i++) {
      const c = v.calls[i];
      const a = parseTime(c.arrival ?? c.departure);
      const d = parseTime(c.departure ?? c.arrival);
      if (a === undefined || d === undefined) {
        this.warnings.push(
          `Voyage ${v.operator} ${v.serviceCode}: call ${i + 1} (${c.locode}) has no time; skipped.`
        );
        return;
      }
      arr.push(a);
      dep.push(d);
    }
    for (let i = 1; i < arr.length; i++) {
      if (arr[i] < dep[i - 1] || dep[i] < arr[i]) {
        this.warnings.push(
          `Voyage ${v.operator} ${v.serviceCode}: times are not in order at ${v.calls[i].locode}; skipped.`
        );
        return;
      }
    }
    this.addTrip(pattern, arr, dep, v.vessel);
  }

  finish(): Network {
    const connections = buildConnections(this.trips, this.patterns);
    return {
      stops: this.stops,
      stopByLocode: this.stopByLocode,
      operators: this.operators,
      patterns: this.patterns,
      trips: this.trips,
      connections,
      rules: transferRules(this.params, this.geo),
      firstDeparture: connections.count ? connections.dep[0] : 0,
      lastDeparture: connections.count ? connections.dep[connections.count - 1] : 0,
      warnings: this.warnings,
    };
  }

  private addTrip(
    pattern: Pattern,
    arrival: number[],
    departure: number[],
    vessel?: VesselDef
  ): void {
    const op = this.operators[pattern.operator];
    let key = `${op.scac}/${pattern.code}/${new Date(departure[0] * MINUTE_MS).toISOString()}/${this.stops[pattern.calls[0].stop].locode}`;
    // Two imported voyages of one service may leave at the same minute; keep keys unique.
    for (let n = 2; this.tripKeys.has(key); n++) key = `${key}#${n}`;
    this.tripKeys.add(key);
    const trip: Trip = {
      index: this.trips.length,
      key,
      pattern: pattern.index,
      arrival,
      departure,
    };
    if (vessel) trip.vessel = vessel;
    this.trips.push(trip);
  }

  private operatorIndex(code: string, context: string): number | undefined {
    const i = this.operatorByCode.get(code.trim().toUpperCase());
    if (i === undefined) this.warnings.push(`${context}: unknown operator ${code}; skipped.`);
    return i;
  }

  private addPattern(
    code: string,
    operatorCode: string,
    partnerCodes: string[],
    modality: Pattern["modality"],
    rotation: CallDef[],
    aliases: string[] = []
  ): Pattern | undefined {
    const context = `Service ${operatorCode} ${code}`;
    const operator = this.operatorIndex(operatorCode, context);
    if (operator === undefined) return undefined;
    const partners: number[] = [];
    for (const p of partnerCodes) {
      const i = this.operatorIndex(p, context);
      if (i !== undefined && i !== operator) partners.push(i);
    }
    if (rotation.length < 2) {
      this.warnings.push(`${context}: fewer than two calls; skipped.`);
      return undefined;
    }
    const calls: PatternCall[] = [];
    const points: LatLng[] = [];
    for (const c of rotation) {
      const stop = this.stopOf(c.locode);
      if (stop === undefined) {
        this.warnings.push(`${context}: unknown LOCODE ${c.locode}; skipped.`);
        return undefined;
      }
      const t = this.geo.terminal(c.locode, c.terminal, modality);
      const call: PatternCall = { stop };
      if (t) call.terminal = { id: t.id, name: t.name };
      else if (c.terminal)
        this.warnings.push(
          `${context}: terminal "${c.terminal}" not found at ${c.locode}; port used.`
        );
      calls.push(call);
      points.push(t ?? this.stops[stop]);
    }
    const cumMeters = [0];
    for (let i = 1; i < calls.length; i++) {
      let meters: number;
      try {
        meters = this.hopMeters(points[i - 1], points[i], modality);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        this.warnings.push(
          `${context}: no ${modality} route ${rotation[i - 1].locode}→${rotation[i].locode} (${why}); skipped.`
        );
        return undefined;
      }
      cumMeters.push(cumMeters[i - 1] + meters);
    }
    // Every board→alight pair as its own leg: the trade lane comes from the leg's ends.
    const n = calls.length;
    const legGrams = new Int32Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const kg = this.geo.emissionsKgPerTeu(modality, cumMeters[j] - cumMeters[i], {
          from: points[i],
          to: points[j],
        });
        legGrams[i * n + j] = Math.round(kg * 1000);
      }
    }
    const serviceCodes = [...new Set([code, ...aliases])];
    const pattern: Pattern = {
      index: this.patterns.length,
      code,
      serviceCodes,
      operator,
      partners,
      modality,
      calls,
      cumMeters,
      legGrams,
    };
    this.patterns.push(pattern);
    return pattern;
  }

  private hopMeters(a: LatLng, b: LatLng, modality: Pattern["modality"]): number {
    const key = `${a.lat},${a.lng}|${b.lat},${b.lng}|${modality}`;
    let m = this.hopCache.get(key);
    if (m === undefined) {
      m = Math.round(this.geo.distance(a, b, modality));
      this.hopCache.set(key, m);
    }
    return m;
  }

  private stopOf(locode: string): number | undefined {
    const code = locode.trim().toUpperCase();
    const known = this.stopByLocode.get(code);
    if (known !== undefined) return known;
    const p = this.geo.port(code);
    if (!p) return undefined;
    const stop: Stop = {
      index: this.stops.length,
      locode: code,
      name: p.name,
      lat: p.lat,
      lng: p.lng,
    };
    this.stops.push(stop);
    this.stopByLocode.set(code, stop.index);
    return stop.index;
  }
}

/** Monday 00:00 UTC of the week holding `minute` (the epoch fell on a Thursday). */
function mondayOf(minute: number): number {
  const THURSDAY_OFFSET = 3 * DAY;
  return Math.floor((minute + THURSDAY_OFFSET) / WEEK) * WEEK - THURSDAY_OFFSET;
}

function parseTime(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? Math.floor(t / MINUTE_MS) : undefined;
}

export function transferRules(params: ScheduleParameters, geo?: Geography): TransferRules {
  const minutes = TRANSFER_CLASSES.map((from) =>
    TRANSFER_CLASSES.map((to) => {
      const v =
        params.minTransferHours[`${from}-${to}`] ?? params.minTransferHours[`${to}-${from}`];
      return v ? Math.round(v.value * 60) : from === "TRUCK" && to === "TRUCK" ? 0 : 24 * 60;
    })
  );
  // The hub factors of the emission model (the chain's), when the geography has them.
  const hub = geo?.hubKgPerTeu?.bind(geo);
  const sea = Math.round((params.handlingKgCo2ePerTeu?.seaTerminal.value ?? 0) * 1000);
  const inland = Math.round((params.handlingKgCo2ePerTeu?.inlandTerminal.value ?? 0) * 1000);
  const handlingGrams = TRANSFER_CLASSES.map((from) =>
    TRANSFER_CLASSES.map((to) =>
      hub
        ? Math.round(hub(modalityOfClass(from), modalityOfClass(to)) * 1000)
        : from === "SEA" || to === "SEA"
          ? sea
          : inland
    )
  );
  return { minutes, handlingGrams, truckKmh: params.speedKmh.TRUCK.value };
}

/** A modality standing for a transfer class (a ship's quay is the same for deep and short sea). */
function modalityOfClass(c: TransferClass): Modality {
  return c === "SEA" ? "DEEPSEA" : c;
}
