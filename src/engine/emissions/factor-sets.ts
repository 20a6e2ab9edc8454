/**
 * Factor sets: the current emission factors and earlier ones kept so a report made before a factor
 * update can be reproduced (`factorSet=` pins one). Each set is a whole factor file with its own
 * calculator; the ids come from the files' `meta.factorSet`.
 */
import { incorrectValues } from "../errors";
import { Modality } from "../types";
import { FactorEmissionCalculator } from "./calculator";

export class FactorSets {
  private readonly byId = new Map<string, FactorEmissionCalculator>();
  readonly currentId: string;

  constructor(
    readonly current: FactorEmissionCalculator,
    earlier: readonly FactorEmissionCalculator[] = []
  ) {
    this.currentId = factorSetId(current);
    this.byId.set(this.currentId, current);
    for (const c of earlier) {
      const id = factorSetId(c);
      if (!this.byId.has(id)) this.byId.set(id, c);
    }
  }

  /** Set ids, current first. */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** The set of that id (any case, surrounding spaces ignored); blank → the current set. */
  get(id: string | undefined, parameter = "factorSet"): FactorEmissionCalculator {
    const v = id?.trim();
    if (!v) return this.current;
    const hit = this.byId.get(v) ?? this.byId.get(v.toUpperCase());
    if (hit) return hit;
    throw incorrectValues(
      parameter,
      `${parameter} "${v.slice(0, 40)}" is not known; allowed values: ${this.ids().join(", ")} (the first is current).`
    );
  }
}

/** A calculator's factor-set id (its file's meta.factorSet; "current" for files without one). */
export function factorSetId(c: FactorEmissionCalculator): string {
  return c.data.meta.factorSet ?? "current";
}

/** The framework line of the method block, e.g. "GLEC v3.0; ISO 14083:2023". */
export function frameworkOf(c: FactorEmissionCalculator): string {
  return c.data.meta.framework ?? "GLEC v3; ISO 14083:2023";
}

const SEA: ReadonlySet<Modality> = new Set(["DEEPSEA", "SHORTSEA"]);

/**
 * Which hub (terminal) a box passes through when it changes from modality `a` to `b`: a maritime
 * container terminal when a ship is on either side, a rail terminal when a train is, an inland
 * terminal (barge/truck) otherwise. Keys of the factor file's `hubs`.
 */
export function hubTypeFor(a: Modality, b: Modality): string {
  if (SEA.has(a) || SEA.has(b)) return "MARITIME_CONTAINER_TERMINAL";
  if (a === "RAIL" || b === "RAIL") return "RAIL_TERMINAL";
  return "INLAND_TERMINAL";
}
