/** Passage areas: small polygons around canals and straits, used to label the network's edges. */
import { pointInPolygon } from "../../geo/polygon";
import { Passage, PASSAGES } from "../../types";

export interface PassageArea {
  name: Passage;
  /** Closed or open ring of [lng, lat] vertices; must not cross the antimeridian. */
  polygon: ReadonlyArray<readonly [number, number]>;
}

/** Passage id stored on edges: 0 = none, else 1 + index in PASSAGES. */
export function passageId(name: Passage): number {
  return PASSAGES.indexOf(name) + 1;
}

export function passageOfId(id: number): Passage | undefined {
  return id > 0 ? PASSAGES[id - 1] : undefined;
}

export { pointInPolygon };

/** Bounding boxes of the areas ([minLng, minLat, maxLng, maxLat]), computed once per areas array. */
const boxes = new WeakMap<ReadonlyArray<PassageArea>, Float64Array>();

function boxesOf(areas: ReadonlyArray<PassageArea>): Float64Array {
  let b = boxes.get(areas);
  if (!b) {
    b = new Float64Array(areas.length * 4);
    areas.forEach((area, i) => {
      const lngs = area.polygon.map((p) => p[0]);
      const lats = area.polygon.map((p) => p[1]);
      b!.set([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)], i * 4);
    });
    boxes.set(areas, b);
  }
  return b;
}

/** The passage whose area contains the point, or 0. */
export function passageAt(lng: number, lat: number, areas: ReadonlyArray<PassageArea>): number {
  const b = boxesOf(areas);
  for (let i = 0; i < areas.length; i++) {
    if (lng < b[4 * i] || lat < b[4 * i + 1] || lng > b[4 * i + 2] || lat > b[4 * i + 3]) continue;
    if (pointInPolygon(lng, lat, areas[i].polygon)) return passageId(areas[i].name);
  }
  return 0;
}
