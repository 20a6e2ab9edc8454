/**
 * The map of one route option as an SVG string: Natural Earth land on an Equal Earth projection
 * centred on the route, each leg a great-circle arc between its ports coloured by modality, and
 * the ports marked and labelled. The API's legs carry only LOCODEs, so the caller supplies the
 * coordinates; legs whose ends have none are left out and reported.
 * Pure (no DOM): the same input always gives the same markup.
 */
import { geoEqualEarth, geoGraticule10, geoPath } from 'd3-geo';
import type { GeoPermissibleObjects } from 'd3-geo';
import type { Leg } from '../client/types';

/** [longitude, latitude] in degrees. */
export type LngLat = [number, number];
export type CoordinateLookup = (place: string) => LngLat | undefined;

/** One colour per modality (Fluent 2 shared colours: blue, teal, purple, red, orange). */
export const MODALITY_COLORS: Record<string, string> = {
  DEEPSEA: '#0f6cbd',
  SHORTSEA: '#038387',
  BARGE: '#8764b8',
  RAIL: '#c50f1f',
  TRUCK: '#ca5010',
};
const OTHER_COLOR = '#616161';

export interface RouteMapInput {
  legs: Leg[];
  coordinates: CoordinateLookup;
  /** Land polygons (GeoJSON), e.g. `feature(worldAtlasLand110m, 'land')`. */
  land: GeoPermissibleObjects;
  width?: number;
  height?: number;
  /** Accessible name of the picture. */
  title?: string;
}

export interface RouteMap {
  svg: string;
  /** Legs drawn. */
  drawnLegs: number;
  /** Places without coordinates (their legs are not drawn). */
  missing: string[];
  /** Modalities drawn, in order of first appearance (for the legend). */
  modalities: string[];
}

const LAT_LNG = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

/** Coordinates of a place: `lat,lng` text is read directly, anything else asks the lookup. */
export function placeCoordinates(place: string, lookup: CoordinateLookup): LngLat | undefined {
  const m = LAT_LNG.exec(place);
  if (m) {
    const lat = Number(m[1]);
    const lng = Number(m[2]);
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) return [lng, lat];
  }
  return lookup(place.trim().toUpperCase());
}

/** Circular mean of longitudes, so a trans-Pacific route centres on the Pacific, not on Greenwich. */
export function centralLongitude(points: LngLat[]): number {
  if (!points.length) return 0;
  let x = 0;
  let y = 0;
  for (const [lng] of points) {
    x += Math.cos((lng * Math.PI) / 180);
    y += Math.sin((lng * Math.PI) / 180);
  }
  if (Math.abs(x) < 1e-9 && Math.abs(y) < 1e-9) return points[0][0];
  return (Math.atan2(y, x) * 180) / Math.PI;
}

export function renderRouteMap(input: RouteMapInput): RouteMap {
  const width = input.width ?? 300;
  const height = input.height ?? 190;
  const missing = new Set<string>();
  const drawn: { leg: Leg; from: LngLat; to: LngLat }[] = [];
  for (const leg of input.legs) {
    const from = placeCoordinates(leg.origin, input.coordinates);
    const to = placeCoordinates(leg.destination, input.coordinates);
    if (!from) missing.add(leg.origin);
    if (!to) missing.add(leg.destination);
    if (from && to) drawn.push({ leg, from, to });
  }

  const ports = new Map<string, LngLat>();
  for (const d of drawn) {
    ports.set(d.leg.origin, d.from);
    ports.set(d.leg.destination, d.to);
  }
  const points = [...ports.values()];
  const projection = geoEqualEarth().rotate([-centralLongitude(points), 0]).precision(0.2);
  const pad = 14;
  if (points.length) {
    // A margin of a few degrees keeps short routes from filling the frame edge to edge.
    const margin = points.flatMap(([lng, lat]) => [
      [lng - 6, clampLat(lat - 4)], [lng + 6, clampLat(lat + 4)],
    ] as LngLat[]);
    projection.fitExtent([[pad, pad], [width - pad, height - pad]], { type: 'MultiPoint', coordinates: margin });
  } else {
    projection.fitExtent([[pad, pad], [width - pad, height - pad]], { type: 'Sphere' });
  }
  const path = geoPath(projection);

  const modalities: string[] = [];
  const legPaths = drawn.map(({ leg, from, to }, i) => {
    if (!modalities.includes(leg.modality)) modalities.push(leg.modality);
    const d = path({ type: 'LineString', coordinates: [from, to] }) ?? '';
    const color = MODALITY_COLORS[leg.modality] ?? OTHER_COLOR;
    const dash = leg.modality === 'TRUCK' ? ' stroke-dasharray="5 3"' : leg.modality === 'RAIL' ? ' stroke-dasharray="8 2 2 2"' : '';
    return `<path class="leg" data-leg="${i + 1}" data-modality="${esc(leg.modality)}" d="${d}" fill="none" stroke="${color}" stroke-width="2.5" stroke-linecap="round"${dash}><title>Leg ${i + 1}: ${esc(leg.origin)} → ${esc(leg.destination)} (${esc(leg.modality)})</title></path>`;
  });

  const portMarks = [...ports.entries()].map(([name, lngLat]) => {
    const p = projection(lngLat);
    if (!p) return '';
    const [x, y] = p.map((v) => round(v));
    const anchor = x > width - 60 ? 'end' : 'start';
    const dx = anchor === 'end' ? -6 : 6;
    return `<g class="port" data-place="${esc(name)}"><circle cx="${x}" cy="${y}" r="3.5" fill="#ffffff" stroke="#242424" stroke-width="1.5"/>` +
      `<text x="${round(x + dx)}" y="${round(y - 5)}" text-anchor="${anchor}" font-size="10" font-family="Segoe UI, system-ui, sans-serif" fill="#242424" stroke="#ffffff" stroke-width="3" paint-order="stroke">${esc(name)}</text></g>`;
  });

  const title = input.title ?? (drawn.length ? `Route map: ${[...ports.keys()].join(' – ')}` : 'Route map: no places to draw');
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="route-map" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    `<defs><clipPath id="route-map-clip"><rect width="${width}" height="${height}"/></clipPath></defs>`,
    `<g clip-path="url(#route-map-clip)">`,
    `<rect class="ocean" width="${width}" height="${height}" fill="#eaf3fb"/>`,
    `<path class="graticule" d="${path(geoGraticule10()) ?? ''}" fill="none" stroke="#d1e3f3" stroke-width="0.5"/>`,
    `<path class="land" d="${path(input.land) ?? ''}" fill="#e8e4da" stroke="#b9b3a5" stroke-width="0.5"/>`,
    ...legPaths,
    ...portMarks,
    `</g>`,
    `</svg>`,
  ].join('');
  return { svg, drawnLegs: drawn.length, missing: [...missing], modalities };
}

function clampLat(lat: number): number {
  return Math.max(-85, Math.min(85, lat));
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
