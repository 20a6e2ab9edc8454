/**
 * Output records (service-interface.md §2): journeys become route options with legs, operators,
 * terminals, vessels, emissions per leg and in total, and a stable id.
 */
import { parse as uuidParse, v5 as uuidv5 } from "uuid";
import { ResolvedPlace } from "../types";
import { transferClassOf } from "./model";
import { classIndex, legGrams, minutesToIso, Network } from "./network";
import { SortKey } from "./query";
import { Access, Journey } from "./search/mc-csa";
import { OPTIMIZER_NAMESPACE } from "./timetable";
import { Leg, LegOperator, RouteOption, TerminalRef } from "./types";

const TRUCK = classIndex("TRUCK");
/** The id namespace as bytes, parsed once (uuid parses a string namespace on every call). */
const NAMESPACE = uuidParse(OPTIMIZER_NAMESPACE);
/** Names go to uuid as UTF-8 bytes: the same bytes its own (much slower) string conversion makes. */
const UTF8 = new TextEncoder();

export function toRouteOption(
  net: Network,
  j: Journey,
  origin: ResolvedPlace,
  destination: ResolvedPlace
): RouteOption {
  const legs: Leg[] = [];
  const classes: number[] = [];
  const signature: string[] = [];
  const first = j.legs[0];
  const last = j.legs[j.legs.length - 1];
  const firstTrip = net.trips[first.trip];
  const lastTrip = net.trips[last.trip];
  const firstCls = classOfTrip(net, first.trip);
  const lastCls = classOfTrip(net, last.trip);

  if (j.access.truck) {
    const arrive = firstTrip.departure[first.board] - net.rules.minutes[TRUCK][firstCls];
    legs.push(
      truckLeg(
        placeLabel(origin),
        placeTerminals(origin),
        stopLabel(net, j.access.stop),
        callTerminals(net, first.trip, first.board),
        arrive - j.access.minutes,
        arrive,
        j.access
      )
    );
    classes.push(TRUCK);
    signature.push(`truck:${placeLabel(origin)}>${stopLabel(net, j.access.stop)}`);
  }
  for (const l of j.legs) {
    const trip = net.trips[l.trip];
    const p = net.patterns[trip.pattern];
    const op = net.operators[p.operator];
    const operator: LegOperator = {
      id: op.id,
      name: op.name,
      scac: op.scac,
      serviceCodes: [...p.serviceCodes],
      collaboratingOperators: p.partners.map((i) => ({
        id: net.operators[i].id,
        name: net.operators[i].name,
        scac: net.operators[i].scac,
      })),
    };
    const leg: Leg = {
      origin: net.stops[p.calls[l.board].stop].locode,
      originTerminals: callTerminals(net, l.trip, l.board),
      destination: net.stops[p.calls[l.alight].stop].locode,
      destinationTerminals: callTerminals(net, l.trip, l.alight),
      modality: p.modality,
      operators: [operator],
      departureDate: minutesToIso(trip.departure[l.board]),
      arrivalDate: minutesToIso(trip.arrival[l.alight]),
      distanceInMeters: p.cumMeters[l.alight] - p.cumMeters[l.board],
      emissionsInKgCo2e: kg(legGrams(p, l.board, l.alight)),
    };
    if (trip.vessel)
      leg.vessel = { name: trip.vessel.name, imo: trip.vessel.imo, mmsi: trip.vessel.mmsi };
    legs.push(leg);
    classes.push(classOfTrip(net, l.trip));
    signature.push(`${trip.key}:${l.board}-${l.alight}`);
  }
  if (j.egress.truck) {
    const leave = lastTrip.arrival[last.alight] + net.rules.minutes[lastCls][TRUCK];
    legs.push(
      truckLeg(
        stopLabel(net, j.egress.stop),
        callTerminals(net, last.trip, last.alight),
        placeLabel(destination),
        placeTerminals(destination),
        leave,
        leave + j.egress.minutes,
        j.egress
      )
    );
    classes.push(TRUCK);
    signature.push(`truck:${stopLabel(net, j.egress.stop)}>${placeLabel(destination)}`);
  }
  let handling = 0;
  for (let i = 1; i < classes.length; i++)
    handling += net.rules.handlingGrams[classes[i - 1]][classes[i]];

  return {
    id: optionId(signature.join("|")),
    leadTimeInMinutes: j.arr - j.dep0,
    // Shipping terms: the shipper hands the container over at the origin by the latest drop-off (the
    // first departure); the consignee can collect it at the destination from the earliest pick-up.
    latestDropOff: minutesToIso(j.dep0),
    earliestPickup: minutesToIso(j.arr),
    emissionsInKgCo2e: kg(j.grams),
    transfers: j.transfers,
    transferEmissionsInKgCo2e: kg(handling),
    truckToOriginInMeters: j.access.meters,
    truckToDestinationInMeters: j.egress.meters,
    legs,
  };
}

/** The option id: UUID v5 of its legs' signature in the optimizer's namespace. */
export function optionId(signature: string): string {
  return uuidv5(UTF8.encode(`route:${signature}`), NAMESPACE);
}

function truckLeg(
  origin: string,
  originTerminals: TerminalRef[],
  destination: string,
  destinationTerminals: TerminalRef[],
  dep: number,
  arr: number,
  a: Access
): Leg {
  return {
    origin,
    originTerminals,
    destination,
    destinationTerminals,
    modality: "TRUCK",
    operators: [],
    departureDate: minutesToIso(dep),
    arrivalDate: minutesToIso(arr),
    distanceInMeters: a.meters,
    emissionsInKgCo2e: kg(a.grams),
  };
}

function classOfTrip(net: Network, trip: number): number {
  return classIndex(transferClassOf(net.patterns[net.trips[trip].pattern].modality));
}

function callTerminals(net: Network, trip: number, pos: number): TerminalRef[] {
  const t = net.patterns[net.trips[trip].pattern].calls[pos].terminal;
  return t ? [{ id: t.id, name: t.name }] : [];
}

function stopLabel(net: Network, stop: number): string {
  return net.stops[stop].locode;
}

/** A place as leg text: its LOCODE, or `lat,lng` for bare coordinates. */
function placeLabel(p: ResolvedPlace): string {
  return p.locode ?? `${p.lat},${p.lng}`;
}

function placeTerminals(p: ResolvedPlace): TerminalRef[] {
  return p.kind === "TERMINAL" && p.terminalId ? [{ id: p.terminalId, name: p.name ?? "" }] : [];
}

function kg(grams: number): number {
  return grams / 1000;
}

/** An option with its departure and arrival as numbers, parsed once for the sort. */
interface Keyed {
  o: RouteOption;
  dep: number;
  arr: number;
}

const PRIMARY: Record<SortKey, (a: Keyed, b: Keyed) => number> = {
  LEAD_TIME: (a, b) => a.o.leadTimeInMinutes - b.o.leadTimeInMinutes,
  EMISSIONS: (a, b) => a.o.emissionsInKgCo2e - b.o.emissionsInKgCo2e,
  TRANSFERS: (a, b) => a.o.transfers - b.o.transfers,
  DEPARTURE: (a, b) => a.dep - b.dep,
  ARRIVAL: (a, b) => a.arr - b.arr,
};
const TIE_BREAK: SortKey[] = ["LEAD_TIME", "EMISSIONS", "TRANSFERS", "DEPARTURE", "ARRIVAL"];

/** Sorts by `key` ascending, then by the other criteria, then by id, so the order is total. */
export function sortOptions(options: RouteOption[], key: SortKey): RouteOption[] {
  const order = [key, ...TIE_BREAK.filter((k) => k !== key)].map((k) => PRIMARY[k]);
  const keyed: Keyed[] = options.map((o) => ({
    o,
    dep: Date.parse(o.latestDropOff),
    arr: Date.parse(o.earliestPickup),
  }));
  keyed.sort((a, b) => {
    for (const compare of order) {
      const d = compare(a, b);
      if (d !== 0) return d;
    }
    return a.o.id < b.o.id ? -1 : a.o.id > b.o.id ? 1 : 0;
  });
  keyed.forEach((k, i) => (options[i] = k.o));
  return options;
}
