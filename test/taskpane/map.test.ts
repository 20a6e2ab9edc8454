/** The route map: real Natural Earth land (world-atlas), real port points (data/ports-overlay.csv), d3-geo projection. */
import * as fs from "node:fs";
import * as path from "node:path";
import { feature } from "topojson-client";
import {
  centralLongitude,
  placeCoordinates,
  placeLabels,
  renderRouteMap,
  MODALITY_COLORS,
  LngLat,
} from "../../src/taskpane/map";
import { coordinateLookup } from "../../src/taskpane/port-coordinates";
import { OPTIONS } from "./fixtures";
import { loadEngine } from "../../src/data/load-engine";
import { parseModality } from "../../src/engine/route-engine";
import { pathFeature } from "../../src/service/path-geojson";

// d3-geo and d3-array are ES modules only; Jest runs CommonJS, so it gets their UMD builds.
const NM = path.join(__dirname, "../../node_modules");
jest.mock("d3-array", () =>
  jest.requireActual(path.join(__dirname, "../../node_modules/d3-array/dist/d3-array.js"))
);
jest.mock("d3-geo", () =>
  jest.requireActual(path.join(__dirname, "../../node_modules/d3-geo/dist/d3-geo.js"))
);

const topology = JSON.parse(fs.readFileSync(path.join(NM, "world-atlas/land-110m.json"), "utf8"));
const land = feature(topology, topology.objects.land);

/** The same table webpack compiles in: LOCODE → [lng, lat] from data/ports-overlay.csv. */
function portTable(): Record<string, LngLat> {
  const lines = fs
    .readFileSync(path.join(__dirname, "../../data/ports-overlay.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  const table: Record<string, LngLat> = {};
  for (const line of lines) {
    const [locode, , , lat, lng] = line.split(",");
    table[locode] = [Number(lng), Number(lat)];
  }
  return table;
}
const lookup = coordinateLookup(portTable());

test("draws each leg as an arc coloured by modality, marks and labels the ports", () => {
  const map = renderRouteMap({
    legs: OPTIONS[1].legs,
    coordinates: lookup,
    land,
    width: 300,
    height: 190,
  });
  expect(map.drawnLegs).toBe(3);
  expect(map.missing).toEqual([]);
  expect(map.modalities).toEqual(["DEEPSEA", "BARGE"]);
  const legs = [
    ...map.svg.matchAll(
      /<path class="leg" data-leg="(\d)" data-modality="(\w+)" d="([^"]+)" fill="none" stroke="(#[0-9a-f]{6})"/g
    ),
  ];
  expect(legs.map((m) => [m[1], m[2], m[4]])).toEqual([
    ["1", "DEEPSEA", MODALITY_COLORS.DEEPSEA],
    ["2", "DEEPSEA", MODALITY_COLORS.DEEPSEA],
    ["3", "BARGE", MODALITY_COLORS.BARGE],
  ]);
  // A great-circle arc is resampled into many points, not one straight segment.
  expect(legs[1][3].split("L").length).toBeGreaterThan(5);
  const ports = [
    ...map.svg.matchAll(
      /<g class="port" data-place="(\w+)"><title>\w+<\/title><circle cx="([\d.-]+)" cy="([\d.-]+)"/g
    ),
  ];
  expect(ports.map((m) => m[1])).toEqual(["CNSHA", "SGSIN", "NLRTM", "DEDUI"]);
  // Every port falls inside the frame; Shanghai is east of Rotterdam and Singapore south of both.
  const at = Object.fromEntries(ports.map((m) => [m[1], [Number(m[2]), Number(m[3])]]));
  for (const [x, y] of Object.values(at)) {
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x).toBeLessThanOrEqual(300);
    expect(y).toBeGreaterThanOrEqual(0);
    expect(y).toBeLessThanOrEqual(190);
  }
  expect(at.CNSHA[0]).toBeGreaterThan(at.NLRTM[0]);
  expect(at.SGSIN[1]).toBeGreaterThan(at.CNSHA[1]);
  expect(at.DEDUI[0]).toBeGreaterThan(at.NLRTM[0]);
  // Rotterdam and Duisburg crowd each other at world scale: they get an inset, with the barge leg.
  expect(map.svg).toMatch(/<g class="inset" data-places="(NLRTM,DEDUI|DEDUI,NLRTM)">/);
  const inset = map.svg.slice(map.svg.indexOf('<g class="inset"'));
  expect(
    [...inset.matchAll(/class="inset-port" data-place="(\w+)"/g)].map((m) => m[1]).sort()
  ).toEqual(["DEDUI", "NLRTM"]);
  expect(inset).toMatch(/class="inset-leg" data-leg="3" data-modality="BARGE" d="M/);
  // Land is drawn from the Natural Earth polygons.
  expect(map.svg).toMatch(/<path class="land" d="M[^"]{2000,}"/);
  expect(map.svg).toContain('role="img"');
});

test("legs whose ports have no coordinates are reported, not drawn; lat,lng places are read directly", () => {
  const legs = [
    { ...OPTIONS[0].legs[0], origin: "51.9,4.1", destination: "NLRTM", modality: "TRUCK" as const },
    { ...OPTIONS[0].legs[0], origin: "NLRTM", destination: "XXZZZ" },
  ];
  const map = renderRouteMap({ legs, coordinates: lookup, land });
  expect(map.drawnLegs).toBe(1);
  expect(map.missing).toEqual(["XXZZZ"]);
  expect(map.svg).toContain('data-modality="TRUCK"');
  expect(placeCoordinates("51.9, 4.1", lookup)).toEqual([4.1, 51.9]);
  expect(placeCoordinates("nlrtm", lookup)).toEqual(portTable().NLRTM);
});

test("labels never overlap each other; a label with no room is left out", () => {
  const frame = { x: 0, y: 0, width: 300, height: 190 };
  const labels = placeLabels(
    [
      { name: "NLRTM", p: [100, 50] },
      { name: "DENSS", p: [102, 52] },
      { name: "DEDUI", p: [104, 50] },
      { name: "BEANR", p: [99, 54] },
      { name: "DEHAM", p: [101, 51] },
    ],
    frame
  );
  const boxes = [...labels.entries()].map(([name, l]) => {
    const w = name.length * 6.2 + 2;
    return { x: l.anchor === "start" ? l.x : l.x - w, y: l.y - 9, width: w, height: 11 };
  });
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      expect(
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
      ).toBe(false);
    }
  // Right of Rotterdam would cover Duisburg's marker, so its label goes left; the origin is placed first.
  expect(labels.get("NLRTM")).toEqual({ x: 94, y: 45, anchor: "end" });
  expect(labels.size).toBeLessThan(5);
});

test("trans-Pacific routes centre on the Pacific", () => {
  expect(
    Math.abs(
      centralLongitude([
        [121.5, 31],
        [-118.2, 33.7],
      ])
    )
  ).toBeGreaterThan(170);
  expect(
    Math.abs(
      centralLongitude([
        [4, 52],
        [10, 53],
      ]) - 7
    )
  ).toBeLessThan(0.01);
});

describe("routed paths (the service's /path extension, computed here by the real engine)", () => {
  // The GeoJSON the service answers, built by the same code from the engine the service ships with.
  let engine: ReturnType<typeof loadEngine>;
  const routed = (origin: string, destination: string, modality: string): LngLat[] =>
    pathFeature(engine.distance({ origin, destination, modality }), parseModality(modality))
      .geometry.coordinates;
  /** The points of an SVG path's d (d3 writes M/L with x,y pairs). */
  const pointsOf = (d: string) =>
    [...d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map(
      (m) => [Number(m[1]), Number(m[2])] as [number, number]
    );
  const legD = (svg: string, leg: number) =>
    new RegExp(`<path class="leg" data-leg="${leg}" data-modality="\\w+" d="([^"]+)"`).exec(
      svg
    )![1];

  beforeAll(() => {
    engine = loadEngine({});
  });

  test("a leg with a path is drawn along it (Singapore → Rotterdam through Suez), the others as arcs", () => {
    const legs = OPTIONS[1].legs; // CNSHA → SGSIN (DEEPSEA), SGSIN → NLRTM (DEEPSEA), NLRTM → DEDUI (BARGE)
    const paths = [
      undefined,
      routed("SGSIN", "NLRTM", "DEEPSEA"),
      routed("NLRTM", "DEDUI", "BARGE"),
    ];
    const map = renderRouteMap({ legs, coordinates: lookup, land, width: 300, height: 190, paths });
    const arcs = renderRouteMap({ legs, coordinates: lookup, land, width: 300, height: 190 });
    expect([map.drawnLegs, map.routedLegs, arcs.routedLegs]).toEqual([3, 2, 0]);
    expect(
      [...map.svg.matchAll(/<path class="leg" [^>]*data-routed="true"/g)].map(
        (m) => /data-leg="(\d)"/.exec(m[0])![1]
      )
    ).toEqual(["2", "3"]);
    expect(map.svg).toMatch(
      /data-leg="2" data-modality="DEEPSEA" d="M[^"]+" fill="none" stroke="#0f6cbd"/
    );
    // The routed leg passes the Suez Canal (32.5E 30N); the great-circle arc of the same leg does not.
    const suez = map.project([32.5, 30])!;
    const nearSuez = (pts: [number, number][], at: [number, number]) =>
      Math.min(...pts.map((p) => Math.hypot(p[0] - at[0], p[1] - at[1])));
    expect(nearSuez(pointsOf(legD(map.svg, 2)), suez)).toBeLessThan(4);
    expect(nearSuez(pointsOf(legD(arcs.svg, 2)), arcs.project([32.5, 30])!)).toBeGreaterThan(8);
    expect(pointsOf(legD(map.svg, 2)).length).toBeGreaterThan(pointsOf(legD(arcs.svg, 2)).length);
    // Ports, colours, the inset with the barge leg: as without paths.
    expect([...map.svg.matchAll(/<g class="port" data-place="(\w+)"/g)].map((m) => m[1])).toEqual([
      "CNSHA",
      "SGSIN",
      "NLRTM",
      "DEDUI",
    ]);
    expect(map.svg).toMatch(
      /class="inset-leg" data-leg="3" data-modality="BARGE" d="M[^"]+"[^>]*data-routed="true"/
    );
    // The frame takes in the whole path: Suez is inside it.
    expect(suez[0]).toBeGreaterThan(0);
    expect(suez[0]).toBeLessThan(300);
  });

  test("across ±180°: continuous longitudes (> 180) and normalised ones draw the same unbroken line", () => {
    const legs = [
      {
        ...OPTIONS[0].legs[0],
        origin: "CNSHA",
        destination: "USLAX",
        modality: "DEEPSEA" as const,
      },
    ];
    const normalised = routed("CNSHA", "USLAX", "DEEPSEA");
    expect(normalised.some(([lng]) => lng < -170) && normalised.some(([lng]) => lng > 170)).toBe(
      true
    );
    let offset = 0;
    const continuous = normalised.map(([lng, lat], i): LngLat => {
      if (i && lng - normalised[i - 1][0] < -180) offset = 360;
      return [lng + offset, lat];
    });
    expect(Math.max(...continuous.map(([lng]) => lng))).toBeGreaterThan(180);
    const a = renderRouteMap({ legs, coordinates: lookup, land, paths: [normalised] });
    const b = renderRouteMap({ legs, coordinates: lookup, land, paths: [continuous] });
    expect(a.routedLegs).toBe(1);
    expect(legD(b.svg, 1)).toBe(legD(a.svg, 1));
    // Centred on the Pacific: one sub-path, no step across the frame.
    const d = legD(a.svg, 1);
    expect(d.match(/M/g)).toHaveLength(1);
    const pts = pointsOf(d);
    for (let i = 1; i < pts.length; i++)
      expect(Math.abs(pts[i][0] - pts[i - 1][0])).toBeLessThan(60);
  });
});
