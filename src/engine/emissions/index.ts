export { FactorEmissionCalculator } from "./calculator";
export type { EmissionBreakdown, EmissionInput } from "./calculator";
export { ContainerTypes } from "./containers";
export type { ContainerType } from "./containers";
export type {
  EmissionFactorData,
  FuelFactors,
  ModalityFactors,
  ContainerTypeFactors,
  Intensity,
  SizeClass,
  Region,
  TradeLane,
  HubFactor,
  RegionalFactors,
  VesselTypeFactors,
} from "./factor-data";
export { TradeLanes } from "./lanes";
export type { LaneEnds } from "./lanes";
export { wtwGramsPerMj } from "./fuels";
export { pickSizeClass } from "./size-class";
export { FactorSets, factorSetId, frameworkOf, hubTypeFor } from "./factor-sets";
export type { HubEmissions } from "./calculator";
export * from "./report";
export * from "./chain";
