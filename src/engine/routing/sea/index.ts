export { buildSeaGraph, SeaGraph, Polyline, BuildOptions } from "./graph";
export {
  NetworkSeaRouter,
  SeaRoute,
  SeaRouterOptions,
  Snap,
  closedPassageMask,
  unwrapLongitudes,
} from "./sea-router";
export { buildChainGraph, ChainGraph } from "./chains";
export { buildContractionHierarchy, ContractionHierarchy } from "./contraction";
export { PassageArea, passageId, passageOfId, pointInPolygon } from "./passages";
export { geodesicMeters, LOWER_BOUND_RADIUS_M } from "../../geo/geodesy";
export { passageEdgeCounts } from "./inspect";
