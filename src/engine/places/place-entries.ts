/**
 * What the place search indexes: every routable code of the port registry (overlay ports, inland
 * places, an imported UN/LOCODE list, the sea-ports list) and every terminal, with the modalities
 * each supports.
 */
import { MODALITIES, Modality } from "../types";
import { PlaceEntry } from "./place-search";
import { PortRecord, PortRegistry } from "./port-registry";
import { TerminalEntry } from "./terminal-registry";

/**
 * Modalities of a UN/LOCODE function classifier (UN/LOCODE manual, "Function"): 1 port, 2 rail
 * terminal, 3 road terminal, 4 airport, 5 postal exchange, 6 multimodal functions (inland clearance
 * depots, dry ports), 7 fixed transport (pipelines), B border crossing. A port (1) far from the sea
 * is a river port: `inland` says which reading applies.
 */
export function modalitiesOfFunctions(functions: string, inland = false): Modality[] {
  const out = new Set<Modality>();
  if (functions.includes("1")) out.add(inland ? "BARGE" : "DEEPSEA");
  if (functions.includes("2")) out.add("RAIL");
  if (functions.includes("3")) out.add("TRUCK");
  if (functions.includes("6")) {
    out.add("RAIL");
    out.add("TRUCK");
  }
  return ordered(out);
}

/** Modalities of an overlay row's `kind` (`seaport`, `inland`, `rail`); every port has a road. */
export function modalitiesOfKind(kind: string): Modality[] {
  const out = new Set<Modality>(["TRUCK"]);
  for (const k of kind.split(/[;|]/).map((x) => x.trim().toLowerCase())) {
    if (k === "seaport") out.add("DEEPSEA");
    if (k === "inland") out.add("BARGE");
    if (k === "rail") out.add("RAIL");
  }
  return ordered(out);
}

function ordered(set: ReadonlySet<Modality>): Modality[] {
  return MODALITIES.filter((m) => set.has(m));
}

/** Layers whose records are ports unless their classifier says otherwise. */
const PORT_LAYERS = new Set(["sea-ports list"]);

/** Curated ranks first: the overlay is checked by hand, the big lists are not. */
const LAYER_WEIGHT: Record<string, number> = {
  "port overlay": 4,
  "inland places": 3,
  "sea-ports list": 2,
};

/** Ranks curated ports like a city of this size (port size where population is not the measure). */
const CURATED_PORT_RANK = 500_000;

export function placeEntries(
  ports: PortRegistry,
  terminals: Iterable<TerminalEntry>,
  /** Other names by code (data/place-aliases.csv: Antwerp for BEANR). */
  aliases: ReadonlyMap<string, readonly string[]> = new Map()
): PlaceEntry[] {
  const withTerminals = new Set<string>();
  const entries: PlaceEntry[] = [];
  for (const t of terminals) {
    withTerminals.add(t.locode);
    entries.push({
      kind: "terminal",
      locode: t.locode,
      names: [t.name],
      lat: t.lat,
      lng: t.lng,
      modalities: [...t.modalities],
      terminalId: t.id,
      weight: 5,
    });
  }
  const sameAs: [PlaceEntry, string][] = [];
  for (const { record, layer, others } of ports.routableRecords()) {
    const { kind, modalities } = classify(record, layer, others);
    const names = namesOf(record, others);
    for (const a of aliases.get(record.locode) ?? []) if (!names.includes(a)) names.push(a);
    const weight = (LAYER_WEIGHT[layer] ?? 1) + (withTerminals.has(record.locode) ? 1 : 0);
    const all = others.length ? [record, ...others] : [record];
    let population = 0;
    for (const r of all) if (r.population && r.population > population) population = r.population;
    const entry: PlaceEntry = {
      kind,
      locode: record.locode,
      names,
      lat: record.lat!,
      lng: record.lng!,
      modalities,
      weight,
      rank:
        population +
        (layer === "port overlay" ? CURATED_PORT_RANK : 0) +
        (withTerminals.has(record.locode) ? CURATED_PORT_RANK : 0),
    };
    const region = all.find((r) => r.region)?.region;
    const subdivision = all.find((r) => r.subdivision)?.subdivision;
    if (region) entry.region = region;
    if (subdivision) entry.subdivision = subdivision;
    if (population) entry.population = population;
    entries.push(entry);
    const same = record.basis?.startsWith("same place as ") ? record.basis.slice(14) : undefined;
    if (same) sameAs.push([entry, same]);
  }
  // A new code standing for an older code's place (CNCQI for CNCKG) ranks just below it, and the
  // older code, the one shippers use, ranks as the larger of the two.
  const byCode = new Map<string, PlaceEntry>();
  for (const e of entries) if (e.kind !== "terminal") byCode.set(e.locode, e);
  for (const [copy, code] of sameAs) {
    const target = byCode.get(code);
    if (!target) continue;
    target.rank = Math.max(target.rank ?? 0, copy.rank ?? 0) + 1;
    copy.rank = target.rank - 1;
    if (copy.population) target.population = Math.max(target.population ?? 0, copy.population);
  }
  return entries;
}

function classify(
  record: PortRecord,
  layer: string,
  others: PortRecord[]
): { kind: "port" | "place"; modalities: Modality[] } {
  if (record.kind !== undefined) {
    const modalities = modalitiesOfKind(record.kind);
    const port = modalities.includes("DEEPSEA") || modalities.includes("BARGE");
    return { kind: port ? "port" : "place", modalities };
  }
  const functions = record.functions ?? others.find((o) => o.functions)?.functions;
  if (functions !== undefined) {
    const inland = layer === "inland places";
    const modalities = modalitiesOfFunctions(functions, inland);
    // A sea-ports entry whose code the list knows only as, say, an airport is still a port.
    if (PORT_LAYERS.has(layer) && !functions.includes("1")) modalities.push("DEEPSEA");
    // Every place with a position is reached by road (an airport, a postal exchange).
    if (modalities.length === 0) modalities.push("TRUCK");
    // Every inland place checked by hand is on a road.
    if (inland && !modalities.includes("TRUCK")) modalities.push("TRUCK");
    return {
      kind: functions.includes("1") || PORT_LAYERS.has(layer) ? "port" : "place",
      modalities: ordered(new Set(modalities)),
    };
  }
  if (PORT_LAYERS.has(layer)) return { kind: "port", modalities: ["DEEPSEA", "TRUCK"] };
  return { kind: "place", modalities: ["TRUCK"] };
}

/**
 * The name shown first, then the searchable others: "Rotterdam (Maasvlakte)" is also found as
 * "Rotterdam", and names from lower layers and aliases are kept.
 */
function namesOf(record: PortRecord, others: PortRecord[]): string[] {
  const names = [record.name];
  const add = (n: string | undefined) => {
    const v = n?.trim();
    if (v && !names.includes(v)) names.push(v);
  };
  add(record.name.replace(/\s*\([^)]*\)\s*$/, ""));
  for (const a of record.aliases ?? []) add(a);
  for (const o of others) {
    add(o.name);
    for (const a of o.aliases ?? []) add(a);
  }
  return names;
}
