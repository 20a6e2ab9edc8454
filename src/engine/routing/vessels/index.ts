export { parseVesselInfo, isValidImo, isValidMmsi, allowedForms, VesselInfo } from "./vessel-info";
export { CanalLimit, CanalLimits } from "./canal-limits";
export {
  VesselRegistry,
  VesselRecord,
  VesselImportResult,
  parseVesselCsv,
  DEFAULT_CLOSED,
  DEFAULT_SHORTSEA_VESSEL,
  ALWAYS_CLOSED,
} from "./vessel-registry";
export { TradeVessels, TradeVessel, TradeRegion, parseTradeVessels } from "./trade-vessels";
