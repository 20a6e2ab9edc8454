export { FactorEmissionCalculator } from './calculator';
export type { EmissionBreakdown, EmissionInput } from './calculator';
export { ContainerTypes } from './containers';
export type { ContainerType } from './containers';
export type { EmissionFactorData, FuelFactors, ModalityFactors, ContainerTypeFactors, Intensity, SizeClass } from './factor-data';
export { wtwGramsPerMj } from './fuels';
export { pickSizeClass } from './size-class';
