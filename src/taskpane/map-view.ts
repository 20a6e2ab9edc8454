/** Puts the map of an option into the pane, with a legend of the modalities drawn. */
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import landTopology from 'world-atlas/land-110m.json';
import type { RouteOption } from '../client/types';
import { h } from './dom';
import { renderRouteMap, MODALITY_COLORS, RouteMap } from './map';
import { bundledPorts, coordinateLookup } from './port-coordinates';

let land: ReturnType<typeof feature> | undefined;
const lookup = coordinateLookup(bundledPorts());

/** Natural Earth 1:110m land, converted from TopoJSON once. */
function landShapes() {
  if (!land) {
    const topo = landTopology as unknown as Topology<{ land: GeometryCollection }>;
    land = feature(topo, topo.objects.land);
  }
  return land;
}

export function showRouteMap(container: HTMLElement, option: RouteOption, index: number): RouteMap {
  const width = Math.max(240, Math.min(container.clientWidth || 300, 600));
  const map = renderRouteMap({
    legs: option.legs,
    coordinates: lookup,
    land: landShapes(),
    width,
    height: Math.round(width * 0.62),
    title: `Map of option ${index + 1}: ${[option.legs[0]?.origin, ...option.legs.map((l) => l.destination)].join(' → ')}`,
  });
  const figure = h('figure', { className: 'map-figure' });
  figure.innerHTML = map.svg; // our own markup: every text in it is escaped by renderRouteMap
  const legend = h('ul', { className: 'map-legend', 'aria-label': 'Modalities' },
    ...map.modalities.map((m) => h('li', {}, h('span', { className: 'swatch', style: `background:${MODALITY_COLORS[m] ?? '#616161'}` }), m)));
  const caption = h('figcaption', {},
    legend,
    h('span', { className: 'muted' }, 'Arcs are great circles between ports, not the sailed path.'),
    map.missing.length ? h('span', { className: 'warning' }, ` No coordinates for ${map.missing.join(', ')}: those legs are not drawn.`) : null);
  figure.append(caption);
  container.replaceChildren(figure);
  container.dataset.legs = String(map.drawnLegs);
  return map;
}
