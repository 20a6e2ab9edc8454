/** Container type lookup: canonical names (20DV) and ISO 6346 size-type codes (22G1), any case. */
import { incorrectValues } from "../errors";
import { ContainerTypeFactors } from "./factor-data";

export interface ContainerType extends ContainerTypeFactors {
  name: string;
}

export class ContainerTypes {
  private readonly byCode = new Map<string, ContainerType>();
  private readonly names: string[];

  constructor(types: Record<string, ContainerTypeFactors>) {
    this.names = Object.keys(types);
    for (const [name, t] of Object.entries(types)) {
      const entry = { ...t, name };
      for (const code of [name, ...t.aliases]) {
        const key = normalise(code);
        if (this.byCode.has(key))
          throw new Error(`emission-factors: container code ${code} listed twice`);
        this.byCode.set(key, entry);
      }
    }
  }

  /** The type for a user's code; throws Incorrect Values listing what is accepted. */
  resolve(code: string): ContainerType {
    const hit = this.byCode.get(normalise(code));
    if (!hit) {
      throw incorrectValues(
        "containerType",
        `containerType "${code}" is not known; allowed values: ${this.describeAllowed()}.`
      );
    }
    return hit;
  }

  get(name: string): ContainerType {
    return this.resolve(name);
  }

  /** "20DV (22G1, 20GP), 40DV (42G1), …" — canonical names with their aliases. */
  describeAllowed(): string {
    return this.names
      .map((n) => {
        const t = this.byCode.get(normalise(n))!;
        return t.aliases.length ? `${n} (${t.aliases.join(", ")})` : n;
      })
      .join(", ");
  }
}

function normalise(code: string): string {
  return code.replace(/[\s'’"-]+/g, "").toUpperCase();
}
