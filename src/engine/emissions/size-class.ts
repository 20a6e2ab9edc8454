/**
 * Picks a deep-sea container ship size class from its dimensions. Beam is the best single proxy
 * for container capacity (rows across), length separates the small classes that share a beam.
 */
import { VesselDimensions } from "../types";
import { SizeClass } from "./factor-data";

const CM_PER_M = 100;

/** The first class (smallest first) whose beam and length limits the vessel fits; the last otherwise. */
export function pickSizeClass(classes: readonly SizeClass[], vessel: VesselDimensions): SizeClass {
  if (classes.length === 0) throw new Error("emission-factors: no deep-sea size classes");
  const beamM = vessel.widthCm / CM_PER_M;
  const lengthM = vessel.lengthCm / CM_PER_M;
  for (const c of classes) {
    const beamFits = c.maxBeamM === undefined || beamM <= c.maxBeamM;
    const lengthFits = c.maxLengthM === undefined || lengthM <= c.maxLengthM;
    if (beamFits && lengthFits) return c;
  }
  return classes[classes.length - 1];
}
