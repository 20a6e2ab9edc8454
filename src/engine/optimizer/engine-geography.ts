/** The Geography the optimizer needs, answered by the RouteEngine's parts. */
import { RouteEngine } from "../route-engine";
import { FactorEmissionCalculator, hubTypeFor } from "../emissions";
import { Geography } from "./model";

export function engineGeography(engine: RouteEngine): Geography {
  return {
    port(locode) {
      try {
        const p = engine.parts.places.resolve(locode, "locode");
        return { lat: p.lat, lng: p.lng, name: p.name ?? locode };
      } catch {
        return undefined;
      }
    },
    terminal(locode, name, modality) {
      const found = engine.parts.terminals.search(locode, name);
      const t = name ? found[0] : (found.find((x) => x.modalities.includes(modality)) ?? found[0]);
      return t ? { id: t.id, name: t.name, lat: t.lat, lng: t.lng } : undefined;
    },
    terminalPoints(locode) {
      return engine.parts.terminals
        .search(locode)
        .map((t) => ({ id: t.id, lat: t.lat, lng: t.lng }));
    },
    distance(from, to, modality) {
      return engine.distanceBetween(from, to, modality).distance;
    },
    emissionsKgPerTeu(modality, meters, ends) {
      // The one emission model: the calculator /emissions uses, with the leg's own ends.
      return engine.parts.emissions.compute({ modality, distanceMeters: meters, lane: ends })
        .co2eTeu;
    },
    hubKgPerTeu(from, to) {
      const calc = engine.parts.emissions as Partial<FactorEmissionCalculator>;
      if (!calc.hubEmissions) return 0;
      return calc.hubEmissions(hubTypeFor(from, to)).perTeu;
    },
  };
}
