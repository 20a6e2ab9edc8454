/**
 * Port positions as the engine reads them (overlay over the sea-ports list): none has its latitude
 * and longitude swapped. A swap puts a port thousands of kilometres from its country, where the
 * swapped pair lands among its neighbours; the overlay corrects the ones sea-ports has swapped.
 */
import { portOf, seaPortsLayer } from "../../src/data/places";
import { geodesicMeters } from "../../src/engine/geo/geodesy";
import type { Port } from "../../src/engine/types";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Ports whose swapped position lies at least 4× nearer their country's median than their own. */
function swappedLooking(ports: Port[]): string[] {
  const byCountry = new Map<string, Port[]>();
  for (const p of ports) byCountry.set(p.country, [...(byCountry.get(p.country) ?? []), p]);
  const found: string[] = [];
  for (const list of byCountry.values()) {
    if (list.length < 3) continue;
    const lat = median(list.map((p) => p.lat));
    const lng = median(list.map((p) => p.lng));
    for (const p of list) {
      if (Math.abs(p.lng) > 90) continue; // its swap is no position at all
      const given = geodesicMeters(p.lat, p.lng, lat, lng);
      const swapped = geodesicMeters(p.lng, p.lat, lat, lng);
      if (given > 1_000_000 && swapped * 4 < given) found.push(p.locode);
    }
  }
  return found.sort();
}

describe("port positions", () => {
  const ports = [...seaPortsLayer().keys()]
    .map((code) => portOf(code))
    .filter((p): p is Port => p !== undefined);

  it("reads positions for the sea-ports list", () => {
    expect(ports.length).toBeGreaterThan(1500);
  });

  it("has no port with latitude and longitude swapped", () => {
    expect(swappedLooking(ports)).toEqual([]);
  });

  it("the check finds a swapped position", () => {
    const reunion = portOf("REPDG")!;
    expect(reunion.lat).toBeCloseTo(-20.924, 3);
    const swapped = { ...reunion, lat: reunion.lng, lng: reunion.lat };
    const others = ports.filter((p) => p.locode !== "REPDG");
    expect(swappedLooking([...others, swapped])).toEqual(["REPDG"]);
  });
});
