/**
 * Puts the map of an option into the pane, with a legend of the modalities drawn. The map appears
 * at once with great-circle arcs; then the routed path of each non-truck leg is asked from the
 * service (/path extension, one request per leg, in parallel) and the map is redrawn along them.
 * Legs without a path (service without the extension, no route, no answer) keep their arc.
 */
import { feature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import landTopology from "world-atlas/land-110m.json";
import { sharedClient } from "../client/shared";
import type { Leg, RouteOption } from "../client/types";
import { h, whileBusy } from "./dom";
import { renderRouteMap, LngLat, MODALITY_COLORS, RouteMap } from "./map";
import { bundledPorts, coordinateLookup } from "./port-coordinates";

let land: ReturnType<typeof feature> | undefined;
const lookup = coordinateLookup(bundledPorts());

/** The routed path of a leg as [lng, lat] points, or undefined when there is none. */
export type PathSource = (leg: Leg) => Promise<LngLat[] | undefined>;

/** Natural Earth 1:110m land, converted from TopoJSON once. */
function landShapes() {
  if (!land) {
    const topo = landTopology as unknown as Topology<{ land: GeometryCollection }>;
    land = feature(topo, topo.objects.land);
  }
  return land;
}

/** Asks the shared client; any failure (e.g. 404 from a service without the extension) means "no path". */
export const servicePaths: PathSource = async (leg) => {
  try {
    const answer = await sharedClient().routePath({
      origin: leg.origin,
      destination: leg.destination,
      modality: leg.modality,
    });
    return answer.geometry.coordinates;
  } catch {
    return undefined;
  }
};

/** Trucking legs are short and the router's road graph is coarse: they stay arcs. */
export function wantsPath(leg: Leg): boolean {
  return leg.modality !== "TRUCK";
}

type MapState = "loading" | "done";

/** Draws the arcs at once, then the routed paths; resolves with the final map. */
export async function showRoutedMap(
  container: HTMLElement,
  option: RouteOption,
  index: number,
  source: PathSource = servicePaths
): Promise<RouteMap> {
  const asked = option.legs.map(wantsPath);
  if (!asked.some(Boolean)) return showRouteMap(container, option, index, [], "done");
  const first = showRouteMap(container, option, index, [], "loading");
  // The caption's note gets the pane's spinner (aria-busy on its parent) while the paths load.
  const caption = container.querySelector<HTMLElement>("figcaption");
  const fetchAll = () =>
    Promise.all(option.legs.map((leg, i) => (asked[i] ? source(leg) : Promise.resolve(undefined))));
  const paths = caption ? await whileBusy(caption, null, fetchAll) : await fetchAll();
  // Another option was selected meanwhile (its map replaced this container): leave it be.
  if (!container.isConnected) return first;
  return showRouteMap(container, option, index, paths, "done");
}

export function showRouteMap(
  container: HTMLElement,
  option: RouteOption,
  index: number,
  paths: ReadonlyArray<LngLat[] | undefined> = [],
  state: MapState = "done"
): RouteMap {
  const width = Math.max(240, Math.min(container.clientWidth || 300, 600));
  const map = renderRouteMap({
    legs: option.legs,
    coordinates: lookup,
    land: landShapes(),
    width,
    height: Math.round(width * 0.62),
    title: `Map of routing ${index + 1}: ${[option.legs[0]?.origin, ...option.legs.map((l) => l.destination)].join(" → ")}`,
    paths,
  });
  const figure = h("figure", { className: "map-figure" });
  figure.innerHTML = map.svg; // our own markup: every text in it is escaped by renderRouteMap
  const legend = h(
    "ul",
    { className: "map-legend", "aria-label": "Modalities" },
    ...map.modalities.map((m) =>
      h(
        "li",
        {},
        h("span", { className: "swatch", style: `background:${MODALITY_COLORS[m] ?? "#616161"}` }),
        m
      )
    )
  );
  const caption = h(
    "figcaption",
    {},
    legend,
    h("span", { className: "muted spinner-slot map-note" }, mapNote(map, state)),
    map.missing.length
      ? h(
          "span",
          { className: "warning" },
          ` No coordinates for ${map.missing.join(", ")}: those legs are not drawn.`
        )
      : null
  );
  figure.append(caption);
  container.replaceChildren(figure);
  container.dataset.legs = String(map.drawnLegs);
  container.dataset.routedLegs = String(map.routedLegs);
  container.dataset.paths = state;
  return map;
}

/** Says which legs follow a routed path and which are drawn straight (great-circle arcs). */
export function mapNote(map: Pick<RouteMap, "drawing">, state: MapState): string {
  const name = (d: RouteMap["drawing"][number]) =>
    `${d.leg.origin} → ${d.leg.destination} (${d.leg.modality.toLowerCase()})`;
  const routed = map.drawing.filter((d) => d.routed).map(name);
  const straight = map.drawing.filter((d) => !d.routed).map(name);
  if (state === "loading")
    return "Drawn straight (great-circle arcs between ports) for now; loading the routed paths…";
  if (!routed.length)
    return `Drawn straight, as great-circle arcs between ports, not the sailed path: ${straight.join(", ")}.`;
  if (!straight.length)
    return `Lines follow the routed paths the distances are computed on: ${routed.join(", ")}.`;
  return `Lines follow the routed paths the distances are computed on: ${routed.join(", ")}. Drawn straight (great-circle arcs; trucking, or no path from the service): ${straight.join(", ")}.`;
}
