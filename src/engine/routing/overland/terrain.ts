/**
 * Terrain between the ends of a great-circle estimate: how much of the line runs through high
 * mountains or over open water, where no road or railway can follow it.
 *
 * - High mountains: within `mountainRadiusMeters` of a barrier peak, a peak of at least
 *   `barrierPeakMeters` with another such peak within `rangeSpacingMeters` (a range, not a lone
 *   volcano that roads pass round: Kilimanjaro, Ararat, Popocatépetl). Roads and lines there climb
 *   by valleys and switchbacks to a pass: the published Mendoza -> Santiago road over the Cristo
 *   Redentor pass is 380 km for 181 km of great circle, about 2.2 × along its mountain stretch.
 * - High ranges: inside a mountain range that holds such peaks (Natural Earth's range outlines:
 *   the Andes' cordilleras, Himalaya, Karakoram, Hindu Kush, Pamirs, Tian Shan, ...), roads wind
 *   along valleys: `highlandFactor` (Lima -> Huancayo's Central Highway is 300 km for 199 km,
 *   Bogotá -> Medellín 415 km for 238 km: 1.5-1.75).
 * - Open water: where the line is farther than the landmass snap (20 km) from land, a bay or lake
 *   the trip goes round; round a circular one the way is π/2 × the straight crossing.
 * Pure: the peaks and the water test arrive through the constructor.
 */
import { LatLng } from "../../types";
import { fastGeodesicMeters, slerp, toLatLng, toUnit, Vec3 } from "../../geo/geodesy";
import type { OverlandModality } from "./circuity";

/** Mean earth radius (IUGG), for the spherical radius test. */
const EARTH_RADIUS_METERS = 6_371_008.8;

export interface Peak {
  name: string;
  lat: number;
  lng: number;
  elevationMeters: number;
}

export interface TerrainSettings {
  barrierPeakMeters: number;
  rangeSpacingMeters: number;
  mountainRadiusMeters: number;
  /** Circuity of the stretch within reach of a barrier peak. */
  mountainFactor: number;
  /** Circuity of a stretch inside a high range, away from its crest. */
  highlandFactor: number;
  /** Circuity of a stretch over open water (round a circle: π/2). */
  waterFactor: number;
  /**
   * Relief: where the line climbs and falls steeply (elevation grid, summed between samples),
   * roads and lines wind, so the plain stretches' circuity is multiplied by 1 + slope × the climb
   * per km above reliefHingeClimb, counted up to reliefCapClimb. Only ever adds: below the hinge
   * the networks show little effect (docs/land.md), and the band factors are averages anyway.
   */
  reliefSlope: Record<OverlandModality, number>;
  reliefHingeClimb: number;
  reliefCapClimb: number;
  /** One sample of the line every this many metres, at most maxSamples. */
  sampleMeters: number;
  maxSamples: number;
}

/**
 * The peaks that have another within `spacingMeters` (a range, not a lone summit), in their order.
 * Pairs are measured only when their latitudes are within spacing / 100 km degrees: a degree of
 * latitude is over 110 km everywhere, so pairs farther apart in latitude are out of reach anyway.
 * The same peaks as measuring every pair, which cost ~10-30 ms of every overland start.
 */
export function peaksInRanges(peaks: ReadonlyArray<Peak>, spacingMeters: number): Peak[] {
  const window = spacingMeters / 100_000;
  const order = peaks.map((_, i) => i).sort((i, j) => peaks[i].lat - peaks[j].lat);
  const inRange = new Uint8Array(peaks.length);
  for (let a = 0; a < order.length; a++) {
    const p = peaks[order[a]];
    for (let b = a + 1; b < order.length && peaks[order[b]].lat - p.lat <= window; b++) {
      const q = peaks[order[b]];
      if (fastGeodesicMeters(p.lat, p.lng, q.lat, q.lng) <= spacingMeters)
        inRange[order[a]] = inRange[order[b]] = 1;
    }
  }
  return peaks.filter((_, i) => inRange[i] === 1);
}

export const DEFAULT_TERRAIN: TerrainSettings = {
  barrierPeakMeters: 5000,
  rangeSpacingMeters: 120_000,
  mountainRadiusMeters: 75_000,
  mountainFactor: 2.2,
  highlandFactor: 1.6,
  waterFactor: Math.PI / 2,
  // Fitted on random pairs of network nodes (seed 3, 800 each; docs/land.md): the US freeways and
  // the Trans-African roads give about 5 % per m/km for roads, Class I rail 15 %.
  reliefSlope: { TRUCK: 0.075, RAIL: 0 },
  reliefHingeClimb: 1,
  reliefCapClimb: 2,
  sampleMeters: 20_000,
  maxSamples: 100,
};

/** Metres of a great circle through high mountains and over open water. */
export interface TerrainStretches {
  mountainMeters: number;
  highlandMeters: number;
  waterMeters: number;
  /**
   * Metres climbed and descended along the line's samples beyond the net change between its first
   * and last sample (0 without an elevation grid): ups and downs, not a steady grade.
   */
  climbMeters: number;
}

export class Terrain {
  readonly settings: TerrainSettings;
  /** The barrier peaks (see above). */
  readonly barriers: ReadonlyArray<Peak>;
  private readonly barrierUnits: ReadonlyArray<Vec3>;

  constructor(
    peaks: ReadonlyArray<Peak>,
    private readonly isOpenWater: (p: LatLng) => boolean,
    private readonly isHighRange: (p: LatLng) => boolean = () => false,
    settings: Partial<TerrainSettings> = {},
    private readonly elevation?: (p: LatLng) => number
  ) {
    this.settings = { ...DEFAULT_TERRAIN, ...settings };
    const { barrierPeakMeters, rangeSpacingMeters } = this.settings;
    const high = peaks.filter((p) => p.elevationMeters >= barrierPeakMeters);
    this.barriers = peaksInRanges(high, rangeSpacingMeters);
    this.barrierUnits = this.barriers.map((p) => toUnit(p.lat, p.lng));
  }

  private readonly cells = new Map<number, number>();

  /** Whether a point's cell (its centre) is in a high range, over open water, or neither. */
  private cellKind(p: LatLng): number {
    const row = Math.floor(p.lat / CELL_DEGREES);
    const col = Math.floor(p.lng / CELL_DEGREES);
    const key = (row + 1000) * 4000 + col + 2000;
    let kind = this.cells.get(key);
    if (kind === undefined) {
      const centre = { lat: (row + 0.5) * CELL_DEGREES, lng: (col + 0.5) * CELL_DEGREES };
      kind = this.isHighRange(centre) ? HIGH_RANGE : this.isOpenWater(centre) ? OPEN_WATER : PLAIN;
      this.cells.set(key, kind);
    }
    return kind;
  }

  stretches(from: LatLng, to: LatLng, meters: number): TerrainStretches {
    const { sampleMeters, maxSamples, mountainRadiusMeters } = this.settings;
    const n = Math.max(2, Math.min(maxSamples, Math.ceil(meters / sampleMeters)));
    const a = toUnit(from.lat, from.lng);
    const b = toUnit(to.lat, to.lng);
    // Barrier peaks within reach of the line at all (most trips have none), as unit vectors: a
    // sample is within the radius when its dot product with the peak is at least cos(radius).
    const mid = toLatLng(slerp(a, b, 0.5));
    const reach = meters / 2 + mountainRadiusMeters;
    const near = this.barrierUnits.filter(
      (_, i) =>
        fastGeodesicMeters(mid.lat, mid.lng, this.barriers[i].lat, this.barriers[i].lng) <= reach
    );
    const minDot = Math.cos(mountainRadiusMeters / EARTH_RADIUS_METERS);
    const step = meters / n;
    let mountain = 0;
    let highland = 0;
    let water = 0;
    let climb = 0;
    let firstHeight: number | undefined;
    let previousHeight: number | undefined;
    // The midpoint of each of n equal pieces stands for the piece (a sphere is close enough here).
    for (let i = 0; i < n; i++) {
      const v = slerp(a, b, (i + 0.5) / n);
      if (this.elevation) {
        const h = this.elevation(toLatLng(v));
        if (previousHeight !== undefined) climb += Math.abs(h - previousHeight);
        else firstHeight = h;
        previousHeight = h;
      }
      if (near.some((q) => v[0] * q[0] + v[1] * q[1] + v[2] * q[2] >= minDot)) {
        mountain += step;
        continue;
      }
      const kind = this.cellKind(toLatLng(v));
      if (kind === HIGH_RANGE) highland += step;
      else if (kind === OPEN_WATER) water += step;
    }
    const net = firstHeight === undefined ? 0 : Math.abs(previousHeight! - firstHeight);
    return {
      mountainMeters: mountain,
      highlandMeters: highland,
      waterMeters: water,
      climbMeters: climb - net,
    };
  }
}

/** The multiplier (≥ 1) of the plain stretches' circuity for a line climbing `climbPerKm` m/km. */
export function reliefMultiplier(
  settings: TerrainSettings,
  modality: OverlandModality,
  climbPerKm: number
): number {
  const { reliefSlope, reliefHingeClimb, reliefCapClimb } = settings;
  const steep = Math.max(0, Math.min(climbPerKm, reliefCapClimb) - reliefHingeClimb);
  return 1 + reliefSlope[modality] * steep;
}

const PLAIN = 0;
const HIGH_RANGE = 1;
const OPEN_WATER = 2;
/** Range and water tests are answered per cell of this many degrees, cached (they cost ~10 µs). */
const CELL_DEGREES = 0.1;
