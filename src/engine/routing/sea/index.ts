export { buildSeaGraph, SeaGraph, Polyline, BuildOptions } from './graph';
export { NetworkSeaRouter, SeaRoute, SeaRouterOptions } from './sea-router';
export { PassageArea, passageId, passageOfId, pointInPolygon } from './passages';
export { geodesicMeters, LOWER_BOUND_RADIUS_M } from './geodesy';
export { passageEdgeCounts } from './inspect';
