/**
 * Which passage areas a straight (great-circle) leg enters. The router's straight legs may cross
 * an open strait's water but never a closed passage's area nor a canal's (a canal is followed by
 * its own edges only), so smoothing never skips a passage that `avoid` names or that the vessel
 * cannot use. Most legs are far from every area: a circle round each area and its latitude band
 * rule them out without sampling; the rest are sampled only where the leg is within the circle.
 */
import {
  angleBetween,
  MEAN_RADIUS_M,
  nearestOnArc,
  toUnit,
  Vec3,
  unitLat,
  unitLng,
} from "../../geo/geodesy";
import { LatLng, Passage } from "../../types";
import { passageBit } from "./chains";
import { PassageArea, passageId, pointInPolygon } from "./passages";

const RAD_TO_DEG = 180 / Math.PI;

interface AreaShape {
  area: PassageArea;
  bit: number;
  centre: Vec3;
  /** Radians from the centre to the farthest vertex, plus a margin. */
  radius: number;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

export class PassageLegs {
  private readonly shapes: AreaShape[];

  constructor(areas: ReadonlyArray<PassageArea>) {
    this.shapes = areas.map(shapeOf);
  }

  /**
   * Bits (passageBit) of the areas among `mask` that the leg a→b enters, sampled every `stepKm`
   * but for its first `skipAKm` and last `skipBKm`.
   */
  entered(
    a: LatLng,
    b: LatLng,
    skipAKm: number,
    skipBKm: number,
    stepKm: number,
    mask = -1
  ): number {
    let found = 0;
    let ua: Vec3 | undefined;
    let ub: Vec3 | undefined;
    let omega = 0;
    let band: [number, number] | undefined;
    for (const s of this.shapes) {
      if ((s.bit & mask) === 0 || (found & s.bit) !== 0) continue;
      ua ??= toUnit(a.lat, a.lng);
      ub ??= toUnit(b.lat, b.lng);
      // Latitude band first (an arc bulges poleward up to its vertex).
      band ??= arcLatRange(ua, ub);
      if (band[1] < s.minLat || band[0] > s.maxLat) continue;
      const near = nearestOnArc(s.centre, ua, ub);
      if (near.angle > s.radius) continue;
      omega ||= angleBetween(ua[0], ua[1], ua[2], ub[0], ub[1], ub[2]);
      if (omega === 0) continue;
      // Sample only the stretch of the arc within the circle.
      const tNear =
        angleBetween(ua[0], ua[1], ua[2], near.point[0], near.point[1], near.point[2]) / omega;
      const half = s.radius / omega;
      const km = omega * (MEAN_RADIUS_M / 1000);
      const t0 = Math.max(skipAKm / km, tNear - half);
      const t1 = Math.min(1 - skipBKm / km, tNear + half);
      if (t1 < t0) continue;
      const steps = Math.max(1, Math.ceil(((t1 - t0) * km) / stepKm));
      const sinOmega = Math.sin(omega);
      for (let i = 0; i <= steps; i++) {
        const t = t0 + ((t1 - t0) * i) / steps;
        const wa = Math.sin((1 - t) * omega) / sinOmega;
        const wb = Math.sin(t * omega) / sinOmega;
        const x = wa * ua[0] + wb * ub[0];
        const y = wa * ua[1] + wb * ub[1];
        const z = wa * ua[2] + wb * ub[2];
        const lat = unitLat(x, y, z);
        const lng = unitLng(x, y);
        if (lat < s.minLat || lat > s.maxLat) continue;
        // Areas may reach past ±180 (Northeast): test the longitude on either side.
        const inBox = (l: number): boolean => l >= s.minLng && l <= s.maxLng;
        const l = inBox(lng)
          ? lng
          : inBox(lng + 360)
            ? lng + 360
            : inBox(lng - 360)
              ? lng - 360
              : NaN;
        if (Number.isNaN(l)) continue;
        if (pointInPolygon(l, lat, s.area.polygon)) {
          found |= s.bit;
          break;
        }
      }
    }
    return found;
  }

  /** The passages whose areas the leg a→b enters, in the order it meets them. */
  listed(a: LatLng, b: LatLng, stepKm: number): Passage[] {
    const mask = this.entered(a, b, 0, 0, stepKm);
    if (!mask) return [];
    const ua = toUnit(a.lat, a.lng);
    const ub = toUnit(b.lat, b.lng);
    return this.shapes
      .filter((s) => (mask & s.bit) !== 0)
      .map((s) => {
        const p = nearestOnArc(s.centre, ua, ub).point;
        return { name: s.area.name, at: angleBetween(ua[0], ua[1], ua[2], p[0], p[1], p[2]) };
      })
      .sort((x, y) => x.at - y.at)
      .map((x) => x.name)
      .filter((name, i, all) => all.indexOf(name) === i);
  }
}

/** The latitude range (degrees) of the great-circle arc ua→ub: its ends, or a vertex on the arc. */
function arcLatRange(ua: Vec3, ub: Vec3): [number, number] {
  let lo = Math.min(ua[2], ub[2]);
  let hi = Math.max(ua[2], ub[2]);
  // The arc's pole n; the great circle's highest point is along z − (z·n) n.
  const nx = ua[1] * ub[2] - ua[2] * ub[1];
  const ny = ua[2] * ub[0] - ua[0] * ub[2];
  const nz = ua[0] * ub[1] - ua[1] * ub[0];
  const nn = Math.hypot(nx, ny, nz);
  if (nn > 1e-12) {
    const cz = nz / nn;
    const vn = Math.sqrt(Math.max(0, 1 - cz * cz));
    if (vn > 1e-12) {
      const v: Vec3 = [(-cz * nx) / nn / vn, (-cz * ny) / nn / vn, (1 - cz * cz) / vn];
      const omega = angleBetween(ua[0], ua[1], ua[2], ub[0], ub[1], ub[2]);
      const onArc = (p: Vec3): boolean =>
        angleBetween(ua[0], ua[1], ua[2], p[0], p[1], p[2]) +
          angleBetween(p[0], p[1], p[2], ub[0], ub[1], ub[2]) <=
        omega + 1e-9;
      if (onArc(v)) hi = Math.max(hi, v[2]);
      const w: Vec3 = [-v[0], -v[1], -v[2]];
      if (onArc(w)) lo = Math.min(lo, w[2]);
    }
  }
  return [Math.asin(Math.max(-1, lo)) * RAD_TO_DEG, Math.asin(Math.min(1, hi)) * RAD_TO_DEG];
}

function shapeOf(area: PassageArea): AreaShape {
  const units = area.polygon.map((q) => toUnit(q[1], q[0]));
  const sum = units.reduce((s, u) => [s[0] + u[0], s[1] + u[1], s[2] + u[2]], [0, 0, 0]);
  const n = Math.hypot(sum[0], sum[1], sum[2]);
  const centre: Vec3 = [sum[0] / n, sum[1] / n, sum[2] / n];
  const radius =
    Math.max(...units.map((u) => angleBetween(u[0], u[1], u[2], centre[0], centre[1], centre[2]))) +
    1_000 / MEAN_RADIUS_M;
  const lngs = area.polygon.map((q) => q[0]);
  const lats = area.polygon.map((q) => q[1]);
  return {
    area,
    bit: passageBit(passageId(area.name)),
    centre,
    radius,
    minLng: Math.min(...lngs),
    minLat: Math.min(...lats),
    maxLng: Math.max(...lngs),
    maxLat: Math.max(...lats),
  };
}
