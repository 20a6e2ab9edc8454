/**
 * A route as the sea router's cache keeps it: its path is made on the first read of `path` (and
 * kept from then on), from one Float64Array of coordinates or by the router assembling it again.
 * A lane sheet asks for distances only: its thousands of cached routes then hold no path at all,
 * not millions of small objects that every young-generation collection would copy.
 */
import { LatLng, Passage } from "../../types";

export interface CompactableRoute {
  meters: number;
  path: LatLng[];
  passages: Passage[];
}

export function compactRoute<T extends CompactableRoute>(route: T): T {
  const { path, ...rest } = route;
  const flat = new Float64Array(2 * path.length);
  for (let i = 0; i < path.length; i++) {
    flat[2 * i] = path[i].lat;
    flat[2 * i + 1] = path[i].lng;
  }
  return withLazyPath(rest, () => expand(flat)) as T;
}

/** The route with `path` made by `make` when it is first read. */
export function withLazyPath<T extends object>(
  route: T,
  make: () => LatLng[]
): T & { path: LatLng[] } {
  let points: LatLng[] | undefined;
  return Object.defineProperty(route, "path", {
    enumerable: true,
    get: (): LatLng[] => (points ??= make()),
  }) as T & { path: LatLng[] };
}

function expand(flat: Float64Array): LatLng[] {
  const out: LatLng[] = new Array(flat.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = { lat: flat[2 * i], lng: flat[2 * i + 1] };
  return out;
}
