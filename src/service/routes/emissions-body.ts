/**
 * The body of an /emissions answer (also a batch item's): the spec's fields, then the extensions
 * asked for (passages, shipment totals, include=method). One engine computation for all of them.
 */
import { loadFactorSets } from "../../data/emissions";
import {
  emissionsReport,
  EmissionsReportQuery,
  FactorEmissionCalculator,
} from "../../engine/emissions";
import { RouteEngine } from "../../engine/route-engine";
import { IncludeValue } from "../schemas";

/** The factor sets beside the engine's own calculator (the current set). */
export function factorSetsOf(engine: RouteEngine) {
  const current = engine.parts.emissions;
  return loadFactorSets(current instanceof FactorEmissionCalculator ? current : undefined);
}

export function emissionsBody(
  engine: RouteEngine,
  query: EmissionsReportQuery & { containers?: string | number; weightTons?: string | number },
  include: ReadonlySet<IncludeValue>
): Record<string, unknown> {
  const r = emissionsReport(engine, factorSetsOf(engine), query, {
    method: include.has("method"),
  });
  const { co2eTeu, co2eTon, distance, origin: _o, destination: _d, modality: _m, ...rest } = r;
  // The route is cached by the engine: asking again for its passages does not route twice.
  const passages = include.has("passages") ? { passages: engine.distance(query).passages } : {};
  return { co2eTeu, co2eTon, distance, ...passages, ...rest };
}
