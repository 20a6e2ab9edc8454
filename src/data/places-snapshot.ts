/**
 * The shipped places (data/ports-overlay.csv and data/terminals.csv, parsed, checked and with their
 * terminal ids, and the sea-ports package's list) as a snapshot: a warm start reads the records
 * back without the CSV parser, the checks, the UUIDs or the 0.5 MB of sea-ports JSON (together
 * ~100 ms of a start, most of it the parser's warm-up and that JSON). Keyed like every snapshot
 * by the files and the code that reads them (see snapshot/cache.ts).
 */
import type { PortRecord, TerminalEntry } from "../engine/places";
import { cachedSnapshot } from "./snapshot/cache";

export interface ShippedPlaces {
  overlay: PortRecord[];
  terminals: TerminalEntry[];
  /** data/inland-places.csv. */
  inland: PortRecord[];
  /** The sea-ports package's ports. */
  seaPorts: PortRecord[];
  /** data/places-code-equivalents.csv. */
  equivalents: { code: string; name: string; functions: string; sameAs: string; source: string }[];
  /** data/place-aliases.csv. */
  aliases: { alias: string; locode: string; source: string }[];
}

export function shippedPlaces(
  files: {
    overlay: string;
    terminals: string;
    inland: string;
    seaPorts: string;
    seaPortsCorrections: string;
    equivalents: string;
    aliases: string;
  },
  read: () => ShippedPlaces
): ShippedPlaces {
  return cachedSnapshot(
    "places",
    {
      dataFiles: [
        files.overlay,
        files.terminals,
        files.inland,
        files.seaPorts,
        files.seaPortsCorrections,
        files.equivalents,
        files.aliases,
      ],
      code: ["data/places", "data/places-snapshot", "data/snapshot", "engine/places"],
    },
    read
  ).value;
}
