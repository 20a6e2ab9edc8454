/** Terminals by id and by LOCODE, with name search as a user types (TerminalDirectory). */
import { TerminalDirectory } from "../route-engine";
import { Modality, Terminal } from "../types";
import { compareText, prepareName, PreparedName, prepareQuery, rankByName } from "./name-match";
import { terminalId } from "./terminal-id";

/** A terminal as the data files describe it; the id is derived from locode + name. */
export interface TerminalSpec {
  locode: string;
  name: string;
  lat: number;
  lng: number;
  modalities: Modality[];
  operator?: string;
  source?: string;
}

/** A terminal as the registry returns it: the engine's Terminal plus its operator when known. */
export interface TerminalEntry extends Terminal {
  operator?: string;
}

export function makeTerminal(spec: TerminalSpec): TerminalEntry {
  const locode = spec.locode.trim().toUpperCase();
  const name = spec.name.trim().replace(/\s+/g, " ");
  const t: TerminalEntry = {
    id: terminalId(locode, name),
    name,
    locode,
    lat: spec.lat,
    lng: spec.lng,
    modalities: [...spec.modalities],
  };
  if (spec.operator) t.operator = spec.operator;
  if (spec.source) t.source = spec.source;
  return t;
}

export class TerminalRegistry implements TerminalDirectory {
  private readonly byIdMap = new Map<string, TerminalEntry>();
  private readonly byLocode = new Map<string, TerminalEntry[]>();
  private readonly prepared = new Map<string, PreparedName>();
  private readonly sorted = new Set<string>();

  /** Later terminals replace earlier ones with the same id (imported over built-in). */
  constructor(terminals: Iterable<TerminalEntry>) {
    for (const t of terminals)
      this.byIdMap.set(t.id.toLowerCase(), Object.freeze({ ...t }) as TerminalEntry);
    for (const t of this.byIdMap.values()) {
      const list = this.byLocode.get(t.locode) ?? [];
      list.push(t);
      this.byLocode.set(t.locode, list);
    }
  }

  /** A port's terminals by name, sorted at its first look-up (a start should not sort them all). */
  private ofLocode(locode: string): TerminalEntry[] {
    const list = this.byLocode.get(locode) ?? [];
    if (list.length > 1 && !this.sorted.has(locode)) {
      list.sort((a, b) => compareText(a.name, b.name));
      this.sorted.add(locode);
    }
    return list;
  }

  get size(): number {
    return this.byIdMap.size;
  }

  byId(id: string): TerminalEntry | undefined {
    return this.byIdMap.get(id.trim().toLowerCase());
  }

  /** Terminals of `locode`, best name match first; all of them, by name, when `name` is blank. */
  search(locode: string, name?: string): TerminalEntry[] {
    const list = this.ofLocode(locode.trim().toUpperCase());
    // A name without letters or digits ("-", "()") narrows nothing: treat it as no name.
    if (!name || prepareQuery(name).tokens.length === 0) return [...list];
    return rankByName(
      list,
      name,
      (t) => this.preparedName(t),
      (t) => t.name
    );
  }

  all(): TerminalEntry[] {
    return [...this.byIdMap.values()];
  }

  private preparedName(t: TerminalEntry): PreparedName {
    let p = this.prepared.get(t.id);
    if (!p) this.prepared.set(t.id, (p = prepareName(t.name)));
    return p;
  }
}
