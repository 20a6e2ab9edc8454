/**
 * The shipped sample network with the real route engine: load, timetable, terminals, distances and
 * emissions from the engine, and searches on real ports.
 */
import { loadEngine } from "../../../src/data/load-engine";
import { loadOptimizer, PARAMETERS_FILE, SAMPLE_NETWORK_FILE } from "../../../src/data/optimizer";
import { operatorId } from "../../../src/engine/optimizer";
import { ScheduleParameters, ServiceDef } from "../../../src/engine/optimizer/model";
import { RouteOption } from "../../../src/engine/optimizer/types";
import { legGrams } from "../../../src/engine/optimizer/network";
import fs from "node:fs";

const NOW = new Date("2026-11-23T00:00:00Z"); // a Monday
const engine = loadEngine({});
const started = Date.now();
const optimizer = loadOptimizer({ engine, now: NOW });
const loadMs = Date.now() - started;
const net = optimizer.network;
const sample = JSON.parse(fs.readFileSync(SAMPLE_NETWORK_FILE, "utf8")) as {
  services: ServiceDef[];
};
const params = JSON.parse(fs.readFileSync(PARAMETERS_FILE, "utf8")) as ScheduleParameters;
const WEEK_MIN = 7 * 1440;
const nowMin = NOW.getTime() / 60000;
const search = (q: Record<string, string | string[]>) =>
  optimizer.search({ originType: "LOCODE", destinationType: "LOCODE", ...q }).results;
const modes = (o: RouteOption) => o.legs.map((l) => l.modality).join(">");

describe("sample network", () => {
  test("loads every service without warnings", () => {
    expect(net.warnings).toEqual([]);
    expect(sample.services.length).toBeGreaterThanOrEqual(60);
    expect(net.patterns.length).toBe(sample.services.length);
    console.log(`sample network load: ${loadMs} ms`);
    const byModality = new Map<string, number>();
    for (const p of net.patterns) byModality.set(p.modality, (byModality.get(p.modality) ?? 0) + 1);
    for (const m of ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL"])
      expect(byModality.get(m)).toBeGreaterThanOrEqual(5);
  });

  test("real carriers with their SCACs; placeholder codes are marked; ids are UUID v5 of the SCAC", () => {
    const scacs = optimizer.operators().map((o) => o.scac);
    for (const s of [
      "MAEU",
      "MSCU",
      "CMDU",
      "HLCU",
      "ONEY",
      "EGLV",
      "COSU",
      "OOLU",
      "YMLU",
      "ZIMU",
      "HDMU",
      "WHLC",
    ])
      expect(scacs).toContain(s);
    const maersk = optimizer.operators().find((o) => o.scac === "MAEU")!;
    expect(maersk).toEqual({ id: operatorId("MAEU"), name: "Maersk", scac: "MAEU" });
    const ops = JSON.parse(fs.readFileSync(SAMPLE_NETWORK_FILE, "utf8")).operators as Array<{
      scac: string;
      scacIsPlaceholder?: boolean;
      source: string;
    }>;
    for (const o of ops.filter((x) => x.scacIsPlaceholder)) expect(o.source).toMatch(/placeholder/);
  });

  test("every weekly service has departures for at least 26 weeks after now", () => {
    const lastDeparture = new Map<number, number>();
    for (const t of net.trips)
      lastDeparture.set(
        t.pattern,
        Math.max(lastDeparture.get(t.pattern) ?? -Infinity, t.departure[0])
      );
    for (const p of net.patterns)
      expect(lastDeparture.get(p.index)!).toBeGreaterThanOrEqual(nowMin + 25 * WEEK_MIN);
    // Departures per week as the data says (a Mon–Fri shuttle: 5 in a week).
    const rtmDui = net.patterns.find((p) => p.code === "RTM-DUI" && p.modality === "BARGE")!;
    const inWeek = net.trips.filter(
      (t) =>
        t.pattern === rtmDui.index &&
        t.departure[0] >= nowMin + 4 * WEEK_MIN &&
        t.departure[0] < nowMin + 5 * WEEK_MIN
    );
    expect(inWeek).toHaveLength(5);
  });

  test("hops use the engine distance between the registry terminals, the modality speed and the engine emissions", () => {
    const p = net.patterns.find((x) => x.code === "RTM-DUI" && x.modality === "BARGE")!;
    const from = engine.parts.terminals.search("NLRTM", "ECT Delta Terminal")[0];
    const to = engine.parts.terminals.search("DEDUI", "Duisburg Intermodal Terminal (DIT)")[0];
    expect(p.calls[0].terminal).toEqual({ id: from.id, name: from.name });
    expect(p.calls[1].terminal).toEqual({ id: to.id, name: to.name });
    const meters = engine.distanceBetween(from, to, "BARGE").distance;
    expect(p.cumMeters[1]).toBe(meters);
    expect(legGrams(p, 0, 1)).toBe(
      Math.round(
        engine.parts.emissions.compute({
          modality: "BARGE",
          distanceMeters: meters,
          lane: { from, to },
        }).co2eTeu * 1000
      )
    );
    const trip = net.trips.find((t) => t.pattern === p.index)!;
    const sail = trip.arrival[1] - trip.departure[0];
    expect(sail).toBe(Math.round((meters / 1000 / params.speedKmh.BARGE.value) * 60));
    // Port stay at the far end before the return trip.
    expect(trip.departure[1] - trip.arrival[1]).toBe(params.portStayHours.BARGE.value * 60);
  });

  test("Shanghai to Duisburg: deep-sea plus hinterland options, China–Europe rail is not a Shanghai option", () => {
    const results = search({ origin: "CNSHA", destination: "DEDUI" });
    expect(results.length).toBeGreaterThan(3);
    for (const o of results) {
      expect(o.legs[0].origin).toBe("CNSHA");
      expect(o.legs[0].modality).toMatch(/DEEPSEA|SHORTSEA/);
      expect(o.legs[o.legs.length - 1].destination).toBe("DEDUI");
      // Four to six weeks door to door, as carriers quote for Asia–North Europe plus hinterland.
      expect(o.leadTimeInMinutes / 1440).toBeGreaterThan(25);
      expect(o.leadTimeInMinutes / 1440).toBeLessThan(60);
      const legSum = o.legs.reduce((s, l) => s + l.emissionsInKgCo2e, 0);
      expect(o.emissionsInKgCo2e).toBeCloseTo(legSum + o.transferEmissionsInKgCo2e, 6);
      for (const l of o.legs.filter((x) => x.modality !== "TRUCK")) {
        expect(l.operators[0].id).toBe(operatorId(l.operators[0].scac));
        expect(l.originTerminals.length + l.destinationTerminals.length).toBeGreaterThan(0);
      }
    }
    const byEmissions = search({ origin: "CNSHA", destination: "DEDUI", sort: "EMISSIONS" });
    for (let i = 1; i < byEmissions.length; i++)
      expect(byEmissions[i].emissionsInKgCo2e).toBeGreaterThanOrEqual(
        byEmissions[i - 1].emissionsInKgCo2e
      );
    expect(
      search({ origin: "CNSHA", destination: "DEDUI", modalities: "DEEPSEA,BARGE" }).every((o) =>
        /^DEEPSEA(>DEEPSEA)*>BARGE$/.test(modes(o))
      )
    ).toBe(true);
  });

  test("Chongqing to Duisburg by China–Europe rail in about 16 days", () => {
    const [best] = search({ origin: "CNCKG", destination: "DEDUI" });
    expect(best.legs).toHaveLength(1);
    expect(best.legs[0].modality).toBe("RAIL");
    expect(best.legs[0].operators[0].scac).toBe("UTLC");
    expect(best.leadTimeInMinutes / 1440).toBeGreaterThan(14);
    expect(best.leadTimeInMinutes / 1440).toBeLessThan(18);
  });

  test("vessel and collaborating operators on a sample Ocean Alliance leg", () => {
    const results = search({
      origin: "CNNGB",
      destination: "NLRTM",
      allRequiredOperators: "EGLV",
      directSeaOnly: "true",
      maxTransfers: "0",
    });
    const cem = results.find((o) => o.legs[0].operators[0].serviceCodes[0] === "CEM")!;
    expect(cem.legs[0].vessel).toEqual({ name: "EVER GIVEN", imo: "9811000", mmsi: "353136000" });
    expect(cem.legs[0].operators[0].collaboratingOperators.map((o) => o.scac)).toEqual([
      "CMDU",
      "COSU",
      "OOLU",
    ]);
    const ae1 = search({
      origin: "CNNGB",
      destination: "NLRTM",
      anyRequiredOperators: "HLCU",
      maxTransfers: "0",
    }).find((o) => o.legs[0].operators[0].serviceCodes.includes("NE2"));
    expect(ae1?.legs[0].operators[0].serviceCodes).toEqual(["AE1", "NE2"]);
  });

  test("door-to-door from coordinates near Duisburg to a Shanghai terminal", () => {
    const terminal = engine.parts.terminals.search("CNSHA", "Yangshan Phase IV")[0];
    const results = optimizer.search({
      origin: "51.45,6.8",
      originType: "GEO",
      destination: terminal.id,
      destinationType: "TERMINAL",
    }).results;
    expect(results.length).toBeGreaterThan(0);
    for (const o of results) {
      expect(o.legs[0].modality).toBe("TRUCK");
      expect(o.truckToOriginInMeters).toBeGreaterThan(0);
      expect(o.truckToOriginInMeters).toBeLessThanOrEqual(150_000);
      expect(o.legs[o.legs.length - 1].destination).toBe("CNSHA");
    }
  });
});
