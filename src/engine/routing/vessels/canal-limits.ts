/**
 * Published size limits of canals. A passage may have several variants (e.g. Panama's Neopanamax
 * and Panamax locks): a vessel may use the passage when it fits any of them. The rows of one
 * variant with different beams form a beam→max-draught table, interpolated linearly (Suez).
 */
import { Passage, VesselDimensions } from "../../types";

export interface CanalLimit {
  passage: Passage;
  variant: string;
  /** Metres; undefined = no published limit. */
  maxLengthM?: number;
  maxBeamM?: number;
  maxDraughtM?: number;
  source: string;
}

interface Variant {
  passage: Passage;
  name: string;
  rows: CanalLimit[];
}

export class CanalLimits {
  private readonly variants = new Map<Passage, Variant[]>();

  constructor(readonly limits: ReadonlyArray<CanalLimit>) {
    for (const limit of limits) {
      let list = this.variants.get(limit.passage);
      if (!list) this.variants.set(limit.passage, (list = []));
      let variant = list.find((v) => v.name === limit.variant);
      if (!variant)
        list.push((variant = { passage: limit.passage, name: limit.variant, rows: [] }));
      variant.rows.push(limit);
    }
    for (const list of this.variants.values()) {
      for (const v of list)
        v.rows.sort((a, b) => (a.maxBeamM ?? Infinity) - (b.maxBeamM ?? Infinity));
    }
  }

  /** Passages that have published limits. */
  passages(): Passage[] {
    return [...this.variants.keys()];
  }

  /** True when the vessel fits at least one variant of the passage (or the passage has no limits). */
  fits(passage: Passage, vessel: VesselDimensions): boolean {
    const list = this.variants.get(passage);
    if (!list) return true;
    return list.some((v) => fitsVariant(v, vessel));
  }
}

function fitsVariant(variant: Variant, vessel: VesselDimensions): boolean {
  const length = vessel.lengthCm / 100;
  const beam = vessel.widthCm / 100;
  const draught = vessel.draughtCm / 100;
  const rows = variant.rows;
  const widest = rows[rows.length - 1];
  if (widest.maxBeamM !== undefined && beam > widest.maxBeamM) return false;
  // The first row whose beam covers the vessel; interpolate from the previous row's point.
  const i = rows.findIndex((r) => r.maxBeamM === undefined || beam <= r.maxBeamM);
  const row = rows[i];
  if (row.maxLengthM !== undefined && length > row.maxLengthM) return false;
  let maxDraught = row.maxDraughtM;
  const prev = i > 0 ? rows[i - 1] : undefined;
  if (
    prev &&
    prev.maxBeamM !== undefined &&
    row.maxBeamM !== undefined &&
    prev.maxDraughtM !== undefined &&
    row.maxDraughtM !== undefined
  ) {
    const t = (beam - prev.maxBeamM) / (row.maxBeamM - prev.maxBeamM);
    maxDraught = prev.maxDraughtM + t * (row.maxDraughtM - prev.maxDraughtM);
  }
  return maxDraught === undefined || draught <= maxDraught + 1e-9;
}
