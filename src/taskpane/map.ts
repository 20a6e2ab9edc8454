/**
 * The map of one route option as an SVG string: Natural Earth land on an Equal Earth projection
 * centred on the route, each leg coloured by modality, and the ports marked and labelled. A leg is
 * drawn along its routed path when the caller has one (the service's /path extension), else as a
 * great-circle arc between its ports. The API's legs carry only LOCODEs, so the caller supplies
 * the coordinates; legs whose ends have none are left out and reported.
 * Pure (no DOM): the same input always gives the same markup.
 */
import { geoEqualEarth, geoGraticule10, geoMercator, geoPath } from "d3-geo";
import type { GeoPermissibleObjects, GeoProjection } from "d3-geo";
import type { Leg } from "../client/types";

/** [longitude, latitude] in degrees. */
export type LngLat = [number, number];
export type CoordinateLookup = (place: string) => LngLat | undefined;

/** One colour per modality (Fluent 2 shared colours: blue, teal, purple, red, orange). */
export const MODALITY_COLORS: Record<string, string> = {
  DEEPSEA: "#0f6cbd",
  SHORTSEA: "#038387",
  BARGE: "#8764b8",
  RAIL: "#c50f1f",
  TRUCK: "#ca5010",
};
const OTHER_COLOR = "#616161";

export interface RouteMapInput {
  legs: Leg[];
  coordinates: CoordinateLookup;
  /** Land polygons (GeoJSON), e.g. `feature(worldAtlasLand110m, 'land')`. */
  land: GeoPermissibleObjects;
  width?: number;
  height?: number;
  /** Accessible name of the picture. */
  title?: string;
  /** Routed path of each leg by leg index, [lng, lat] points (any longitude range); missing = arc. */
  paths?: ReadonlyArray<LngLat[] | undefined>;
}

export interface RouteMap {
  svg: string;
  /** Legs drawn. */
  drawnLegs: number;
  /** Legs drawn along a routed path (the others are great-circle arcs). */
  routedLegs: number;
  /** How each drawn leg is drawn, in leg order: along its routed path, or straight (a great-circle arc). */
  drawing: Array<{ leg: Leg; routed: boolean }>;
  /** Places without coordinates (their legs are not drawn). */
  missing: string[];
  /** Modalities drawn, in order of first appearance (for the legend). */
  modalities: string[];
  /** Where a point lands on the main map (SVG units), or null when it is out of view. */
  project(point: LngLat): [number, number] | null;
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
  const drawn: Drawn[] = [];
  input.legs.forEach((leg, i) => {
    const from = placeCoordinates(leg.origin, input.coordinates);
    const to = placeCoordinates(leg.destination, input.coordinates);
    if (!from) missing.add(leg.origin);
    if (!to) missing.add(leg.destination);
    const routed = input.paths?.[i];
    if (from && to)
      drawn.push({
        leg,
        from,
        to,
        line: routed && routed.length >= 2 ? joinEnds(normalisePath(routed), from, to) : undefined,
      });
  });

  const ports = new Map<string, LngLat>();
  for (const d of drawn) {
    ports.set(d.leg.origin, d.from);
    ports.set(d.leg.destination, d.to);
  }
  const points = [...ports.values()];
  const pad = 14;
  const projection = geoEqualEarth()
    .rotate([-centralLongitude(points), 0])
    .precision(0.2);
  if (points.length) {
    // A margin of a few degrees keeps short routes from filling the frame edge to edge.
    const margin = points.flatMap(
      ([lng, lat]) =>
        [
          [lng - 6, clampLat(lat - 4)],
          [lng + 6, clampLat(lat + 4)],
        ] as LngLat[]
    );
    // A routed path may swing far from its ports (Shanghai → Rotterdam passes Singapore and Suez).
    for (const d of drawn)
      if (d.line) margin.push(...d.line.map(([lng, lat]): LngLat => [lng, clampLat(lat)]));
    projection.fitExtent(
      [
        [pad, pad],
        [width - pad, height - pad],
      ],
      { type: "MultiPoint", coordinates: margin }
    );
  } else {
    projection.fitExtent(
      [
        [pad, pad],
        [width - pad, height - pad],
      ],
      { type: "Sphere" }
    );
  }
  projection.clipExtent([
    [0, 0],
    [width, height],
  ]);
  const path = geoPath(projection);

  const modalities: string[] = [];
  for (const d of drawn) if (!modalities.includes(d.leg.modality)) modalities.push(d.leg.modality);
  const main = drawLayer(projection, drawn, ports, { width, height }, "");
  const inset = insetFor(projection, drawn, ports, input.land, width, height);

  const title =
    input.title ??
    (drawn.length ? `Route map: ${[...ports.keys()].join(" – ")}` : "Route map: no places to draw");
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="route-map" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    `<defs><clipPath id="route-map-clip"><rect width="${width}" height="${height}"/></clipPath></defs>`,
    `<g clip-path="url(#route-map-clip)">`,
    `<rect class="ocean" width="${width}" height="${height}" fill="#eaf3fb"/>`,
    `<path class="graticule" d="${path(geoGraticule10()) ?? ""}" fill="none" stroke="#d1e3f3" stroke-width="0.5"/>`,
    `<path class="land" d="${path(input.land) ?? ""}" fill="#e8e4da" stroke="#b9b3a5" stroke-width="0.5"/>`,
    main,
    inset,
    `</g>`,
    `</svg>`,
  ].join("");
  return {
    svg,
    drawnLegs: drawn.length,
    routedLegs: drawn.filter((d) => d.line).length,
    drawing: drawn.map((d) => ({ leg: d.leg, routed: !!d.line })),
    missing: [...missing],
    modalities,
    project: (point) => projection(point),
  };
}

/** A leg to draw: `line` is its routed path (longitudes in [-180, 180]) or undefined for an arc. */
type Drawn = { leg: Leg; from: LngLat; to: LngLat; line?: LngLat[] };

/**
 * Longitudes into [-180, 180] as d3-geo expects. Each step of a path is drawn as the short great
 * circle between its points (the service's steps are small), so a path across ±180° — continuous
 * longitudes such as 181 or a jump from 179 to -179 — is cut at the antimeridian by the projection.
 */
export function normalisePath(path: LngLat[]): LngLat[] {
  return path.map(([lng, lat]) => [((((lng + 180) % 360) + 360) % 360) - 180, lat]);
}

/** Starts and ends the path at the port markers when the router began a little offshore. */
function joinEnds(line: LngLat[], from: LngLat, to: LngLat): LngLat[] {
  const apart = (a: LngLat, b: LngLat) =>
    Math.abs(a[1] - b[1]) > 1e-4 || Math.abs(((a[0] - b[0] + 540) % 360) - 180) > 1e-4;
  return [
    ...(apart(line[0], from) ? [from] : []),
    ...line,
    ...(apart(line[line.length - 1], to) ? [to] : []),
  ];
}
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Legs and ports under one projection; `prefix` '' for the main map, 'inset-' for the inset. */
function drawLayer(
  projection: GeoProjection,
  drawn: Drawn[],
  ports: Map<string, LngLat>,
  box: Box | { width: number; height: number },
  prefix: string
): string {
  const path = geoPath(projection);
  const frame: Box = "x" in box ? box : { x: 0, y: 0, ...box };
  const legs = drawn.map(({ leg, from, to, line }, i) => {
    const d = path({ type: "LineString", coordinates: line ?? [from, to] }) ?? "";
    if (!d) return "";
    const color = MODALITY_COLORS[leg.modality] ?? OTHER_COLOR;
    const dash =
      leg.modality === "TRUCK"
        ? ' stroke-dasharray="5 3"'
        : leg.modality === "RAIL"
          ? ' stroke-dasharray="8 2 2 2"'
          : "";
    return `<path class="${prefix}leg" data-leg="${i + 1}" data-modality="${esc(leg.modality)}" d="${d}" fill="none" stroke="${color}" stroke-width="2.5" stroke-linecap="round"${dash}${line ? ' data-routed="true"' : ""}><title>Leg ${i + 1}: ${esc(leg.origin)} → ${esc(leg.destination)} (${esc(leg.modality)}${line ? ", routed path" : ", great-circle arc"})</title></path>`;
  });
  const at = [...ports.entries()]
    .map(([name, lngLat]) => ({ name, p: projection(lngLat) }))
    .filter((x): x is { name: string; p: [number, number] } => !!x.p && inside(x.p, frame));
  const labels = placeLabels(at, frame);
  const marks = at.map(({ name, p }) => {
    const [x, y] = p.map(round);
    const label = labels.get(name);
    const text = label
      ? `<text x="${round(label.x)}" y="${round(label.y)}" text-anchor="${label.anchor}" font-size="10" font-family="Segoe UI, system-ui, sans-serif" fill="#242424" stroke="#ffffff" stroke-width="3" paint-order="stroke">${esc(name)}</text>`
      : "";
    return `<g class="${prefix}port" data-place="${esc(name)}"><title>${esc(name)}</title><circle cx="${x}" cy="${y}" r="3.5" fill="#ffffff" stroke="#242424" stroke-width="1.5"/>${text}</g>`;
  });
  return legs.join("") + marks.join("");
}

/**
 * Labels right-above, left-above, right-below or left-below their port, whichever first overlaps no
 * label already placed and stays in the frame; ports keep their order (origin first), so the ends
 * of the route win. A port with no free spot keeps its marker and tooltip, without a label.
 */
export function placeLabels(
  ports: { name: string; p: [number, number] }[],
  frame: Box
): Map<string, { x: number; y: number; anchor: "start" | "end" }> {
  const placed: Box[] = [];
  const out = new Map<string, { x: number; y: number; anchor: "start" | "end" }>();
  const markers: Box[] = ports.map(({ p }) => ({ x: p[0] - 4, y: p[1] - 4, width: 8, height: 8 }));
  for (const { name, p } of ports) {
    const w = name.length * 6.2 + 2;
    const spots: { x: number; y: number; anchor: "start" | "end" }[] = [
      { x: p[0] + 6, y: p[1] - 5, anchor: "start" },
      { x: p[0] - 6, y: p[1] - 5, anchor: "end" },
      { x: p[0] + 6, y: p[1] + 13, anchor: "start" },
      { x: p[0] - 6, y: p[1] + 13, anchor: "end" },
    ];
    for (const s of spots) {
      const b: Box = { x: s.anchor === "start" ? s.x : s.x - w, y: s.y - 9, width: w, height: 11 };
      const fits =
        b.x >= frame.x &&
        b.y >= frame.y &&
        b.x + b.width <= frame.x + frame.width &&
        b.y + b.height <= frame.y + frame.height;
      if (fits && !placed.some((o) => overlaps(o, b)) && !markers.some((m) => overlaps(m, b))) {
        placed.push(b);
        out.set(name, s);
        break;
      }
    }
  }
  return out;
}

/**
 * Ports that crowd each other on the world map (e.g. Rotterdam, Neuss and Duisburg at the end of a
 * voyage from Shanghai) get an inset: a Mercator close-up of that cluster in the emptiest corner.
 */
function insetFor(
  projection: GeoProjection,
  drawn: Drawn[],
  ports: Map<string, LngLat>,
  land: GeoPermissibleObjects,
  width: number,
  height: number
): string {
  const names = [...ports.keys()];
  const xy: [number, number][] = names.map((n) => projection(ports.get(n)!) ?? [NaN, NaN]);
  const cluster = largestCluster(xy, 18);
  if (cluster.length < 2) return "";
  const members = cluster.map((i) => names[i]);
  const memberPoints = members.map((n) => ports.get(n)!);
  const w = Math.round(width * 0.44);
  const h = Math.round(height * 0.46);
  const corners: Box[] = [
    { x: 4, y: height - h - 4, width: w, height: h },
    { x: 4, y: 4, width: w, height: h },
    { x: width - w - 4, y: height - h - 4, width: w, height: h },
    { x: width - w - 4, y: 4, width: w, height: h },
  ];
  // The corner covering the fewest ports and leg points of the main map; a hidden port costs far
  // more than a hidden stretch of line (a routed path brings dozens of points per leg).
  const samples: [number, number][] = [
    ...drawn.flatMap(({ from, to, line }) => {
      if (line) return line.map((p): [number, number] => projection(p) ?? [NaN, NaN]);
      const out: [number, number][] = [];
      for (let t = 0.1; t < 1; t += 0.1)
        out.push(
          projection([from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t]) ?? [
            NaN,
            NaN,
          ]
        );
      return out;
    }),
  ];
  const cost = (b: Box) =>
    100 * xy.filter((p) => inside(p, b)).length + samples.filter((p) => inside(p, b)).length;
  const box = corners.reduce((best, b) => (cost(b) < cost(best) ? b : best));
  const span =
    Math.max(...memberPoints.map((p) => p[0])) -
    Math.min(...memberPoints.map((p) => p[0])) +
    Math.max(...memberPoints.map((p) => p[1])) -
    Math.min(...memberPoints.map((p) => p[1]));
  const m = Math.max(0.3, span * 0.25);
  const margin = memberPoints.flatMap(
    ([lng, lat]) =>
      [
        [lng - m, lat - m],
        [lng + m, lat + m],
      ] as LngLat[]
  );
  const inner = 10;
  const zoom = geoMercator()
    .fitExtent(
      [
        [box.x + inner, box.y + inner + 4],
        [box.x + box.width - inner, box.y + box.height - inner],
      ],
      { type: "MultiPoint", coordinates: margin }
    )
    .clipExtent([
      [box.x, box.y],
      [box.x + box.width, box.y + box.height],
    ]);
  const zpath = geoPath(zoom);
  return [
    `<g class="inset" data-places="${esc(members.join(","))}">`,
    `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" fill="#eaf3fb" stroke="#616161" stroke-width="1"/>`,
    `<path class="inset-land" d="${zpath(land) ?? ""}" fill="#e8e4da" stroke="#b9b3a5" stroke-width="0.5"/>`,
    drawLayer(zoom, drawn, ports, box, "inset-"),
    `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" fill="none" stroke="#616161" stroke-width="1"/>`,
    `</g>`,
  ].join("");
}

/** Indexes of the largest group of points chained within `radius` px of each other. */
function largestCluster(points: [number, number][], radius: number): number[] {
  const parent = points.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const [a, b] = [points[i], points[j]];
      if (Math.hypot(a[0] - b[0], a[1] - b[1]) <= radius) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, number[]>();
  points.forEach((p, i) => {
    if (!Number.isFinite(p[0])) return;
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });
  return [...groups.values()].reduce(
    (best, g) => (g.length > best.length ? g : best),
    [] as number[]
  );
}

function inside(p: [number, number], b: Box): boolean {
  return p[0] >= b.x && p[0] <= b.x + b.width && p[1] >= b.y && p[1] <= b.y + b.height;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function clampLat(lat: number): number {
  return Math.max(-85, Math.min(85, lat));
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

function esc(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
