/**
 * The Kiel Canal in the sea network: MARNET has no line through it, so the canal comes from
 * data/waterways.json (KIEL_CANAL) through data/sea-approaches.json, with a Kiel Fjord leg to the
 * Baltic lanes; data/passages.json labels its edges KIEL, closed unless the vessel fits.
 */
import {
  loadSeaNetwork,
  loadSeaRouter,
  loadVesselResolver,
  readPassageAreas,
} from "../../../src/data/sea";
import { passageId, passageAt } from "../../../src/engine/routing/sea/passages";
import { Passage } from "../../../src/engine/types";

const ROTTERDAM = { lat: 51.95, lng: 4.05 };
const GDANSK = { lat: 54.4, lng: 18.67 };
const HAMBURG = { lat: 53.545, lng: 9.97 };
const KM = 1000;
const NM = 1852;

describe("Kiel Canal edges", () => {
  const { graph } = loadSeaNetwork();
  const kiel = passageId("KIEL");

  it('are as long as the canal: 98.26 km between the locks (Wikipedia "Nord-Ostsee-Kanal") within 2 %', () => {
    let meters = 0;
    let count = 0;
    for (let e = 0; e < graph.edgeCount; e++) {
      if (graph.edgePassage[e] !== kiel) continue;
      meters += graph.edgeLength[e];
      count++;
      expect(graph.edgeInMain[e]).toBe(1);
    }
    expect(count).toBeGreaterThan(20);
    expect(Math.abs(meters / KM - 98.26) / 98.26).toBeLessThan(0.02);
  });

  it("the KIEL area covers the canal only: the Elbe fairway and the Kiel Fjord stay open sea", () => {
    const areas = readPassageAreas();
    expect(passageAt(9.67, 54.292, areas)).toBe(kiel); // Rendsburg
    expect(passageAt(9.1, 53.885, areas)).toBe(0); // Elbe off Brunsbüttel
    expect(passageAt(10.16, 54.372, areas)).toBe(0); // Kiel Fjord off Holtenau
  });
});

describe("Rotterdam → Gdańsk", () => {
  const router = loadSeaRouter();
  const vessels = loadVesselResolver();
  const closedFor = (vesselInfo?: string): Set<Passage> =>
    new Set(
      vessels.closedPassages(vesselInfo ? vessels.resolve(vesselInfo, "vesselInfo") : undefined)
    );

  const byDefault = router.route(ROTTERDAM, GDANSK, { closed: closedFor() })!;
  const small = router.route(ROTTERDAM, GDANSK, { closed: closedFor("15000,2000,700") })!;

  it("without vesselInfo goes round Skagen (KIEL closed), about 1,550-1,850 km", () => {
    expect(closedFor().has("KIEL")).toBe(true);
    expect(byDefault.passages).not.toContain("KIEL");
    // Through the Kattegat and the Danish straits since they have lanes (1,598 km); before, the
    // route detoured in the Kattegat (about 1,700 km).
    expect(byDefault.meters / KM).toBeGreaterThan(1550);
    expect(byDefault.meters / KM).toBeLessThan(1850);
    // Round the Skaw: the path goes north of 57.5°N.
    expect(Math.max(...byDefault.path.map((p) => p.lat))).toBeGreaterThan(57.5);
  });

  it("a 150 m × 20 m × 7 m vessel fits the canal and saves several hundred km", () => {
    expect(small.passages).toContain("KIEL");
    expect(Math.max(...small.path.map((p) => p.lat))).toBeLessThan(55.5);
    expect(small.meters / KM).toBeGreaterThan(1150);
    expect(small.meters / KM).toBeLessThan(1350);
    expect((byDefault.meters - small.meters) / KM).toBeGreaterThan(300);
  });

  it("a 300 m × 40 m × 12 m vessel is too big for Kiel: round Skagen again", () => {
    const big = router.route(ROTTERDAM, GDANSK, { closed: closedFor("30000,4000,1200") })!;
    expect(big.passages).not.toContain("KIEL");
    expect(big.meters).toBeCloseTo(byDefault.meters, 0);
  });

  it("avoid=KIEL with a small vessel goes round Skagen again", () => {
    const closed = closedFor("15000,2000,700");
    closed.add("KIEL");
    const avoided = router.route(ROTTERDAM, GDANSK, { closed })!;
    expect(avoided.passages).not.toContain("KIEL");
    expect(avoided.meters).toBeCloseTo(byDefault.meters, 0);
  });
});

describe("Hamburg → Gdańsk", () => {
  it("via the canal matches the published 440 nm within 4 % (Gdańsk-Hamburg by the Kiel Canal, https://www.monikawitkowska.pl/europa/58-niemcy/540-212)", () => {
    const vessels = loadVesselResolver();
    const r = loadSeaRouter().route(HAMBURG, GDANSK, {
      closed: vessels.closedPassages(vessels.resolve("15000,2000,700", "vesselInfo")),
    })!;
    expect(r.passages).toEqual(["KIEL"]);
    // 455 nm: within 4 % (the route used to be 445 nm by cutting 8.6 km across the Hel Peninsula).
    expect(Math.abs(r.meters / NM - 440) / 440).toBeLessThan(0.04);
  });

  it("Kiel (the port, in the fjord) is reached without the canal by default", () => {
    const vessels = loadVesselResolver();
    const r = loadSeaRouter().route(
      GDANSK,
      { lat: 54.32, lng: 10.145 },
      { closed: vessels.closedPassages(undefined) }
    )!;
    expect(r.passages).not.toContain("KIEL");
    expect(r.meters / KM).toBeLessThan(700);
  });
});
