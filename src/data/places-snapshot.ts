/**
 * The shipped places (data/ports-overlay.csv and data/terminals.csv, parsed, checked and with their
 * terminal ids, and the sea-ports package's list) as a snapshot, column by column: a warm start
 * reads them back without the CSV parser, the checks, the UUIDs or the 0.5 MB of sea-ports JSON
 * (together ~100 ms of a start, most of it the parser's warm-up and that JSON).
 * Keyed like every snapshot by the files and the code that reads them (see snapshot/cache.ts).
 */
import type { PortRecord, TerminalEntry } from "../engine/places";
import { Modality } from "../engine/types";
import { cachedSnapshot } from "./snapshot/cache";

export interface ShippedPlaces {
  overlay: PortRecord[];
  terminals: TerminalEntry[];
  /** The sea-ports package's ports. */
  seaPorts: PortRecord[];
}

/** Port records as columns; NaN coordinates for a port whose position is not known. */
interface PortColumns {
  locode: string[];
  name: string[];
  lat: Float64Array;
  lng: Float64Array;
  source: string[];
}

/** Columns of the stored form; "" stands for an absent optional value. */
interface PackedPlaces {
  overlay: PortColumns;
  seaPorts: PortColumns;
  terminals: {
    id: string[];
    locode: string[];
    name: string[];
    lat: Float64Array;
    lng: Float64Array;
    /** Modalities joined with ";". */
    modalities: string[];
    operator: string[];
    source: string[];
  };
}

export function shippedPlaces(
  files: { overlay: string; terminals: string; seaPorts: string },
  read: () => ShippedPlaces
): ShippedPlaces {
  const { value } = cachedSnapshot<PackedPlaces>(
    "places",
    { dataFiles: [files.overlay, files.terminals, files.seaPorts], code: ["data/places", "engine/places"] },
    () => pack(read())
  );
  return unpack(value);
}

function packPorts(ports: PortRecord[]): PortColumns {
  return {
    locode: ports.map((p) => p.locode),
    name: ports.map((p) => p.name),
    lat: Float64Array.from(ports, (p) => p.lat ?? NaN),
    lng: Float64Array.from(ports, (p) => p.lng ?? NaN),
    source: ports.map((p) => p.source),
  };
}

function unpackPorts(c: PortColumns): PortRecord[] {
  return c.locode.map(
    (locode, i): PortRecord => ({
      locode,
      name: c.name[i],
      ...(Number.isNaN(c.lat[i]) ? {} : { lat: c.lat[i], lng: c.lng[i] }),
      source: c.source[i],
    })
  );
}

function pack({ overlay, terminals, seaPorts }: ShippedPlaces): PackedPlaces {
  return {
    overlay: packPorts(overlay),
    seaPorts: packPorts(seaPorts),
    terminals: {
      id: terminals.map((t) => t.id),
      locode: terminals.map((t) => t.locode),
      name: terminals.map((t) => t.name),
      lat: Float64Array.from(terminals, (t) => t.lat),
      lng: Float64Array.from(terminals, (t) => t.lng),
      modalities: terminals.map((t) => t.modalities.join(";")),
      operator: terminals.map((t) => t.operator ?? ""),
      source: terminals.map((t) => t.source ?? ""),
    },
  };
}

function unpack({ overlay, seaPorts, terminals: t }: PackedPlaces): ShippedPlaces {
  const terminals = t.id.map((id, i): TerminalEntry => {
    const entry: TerminalEntry = {
      id,
      name: t.name[i],
      locode: t.locode[i],
      lat: t.lat[i],
      lng: t.lng[i],
      modalities: t.modalities[i] ? (t.modalities[i].split(";") as Modality[]) : [],
    };
    if (t.operator[i]) entry.operator = t.operator[i];
    if (t.source[i]) entry.source = t.source[i];
    return entry;
  });
  return { overlay: unpackPorts(overlay), terminals, seaPorts: unpackPorts(seaPorts) };
}
