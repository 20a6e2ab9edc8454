/** What the pane says after a search (summary, no results) and under the map, and the credits card. */
import * as path from "node:path";
import { ApiError } from "../../src/client/errors";
import { mapNote } from "../../src/taskpane/map-view";
import { emptySearchForm } from "../../src/taskpane/search-form";
import { filtersSet, noResultsMessage, searchSummary } from "../../src/taskpane/search-outcome";
import { accountLines, accountProblem } from "../../src/taskpane/first-run";
import type { Leg } from "../../src/client/types";

jest.mock("../../src/client/shared", () => ({}));
// d3-geo and d3-array (under the map) are ES modules only: Jest gets their UMD builds.
jest.mock("d3-array", () =>
  jest.requireActual(path.join(__dirname, "../../node_modules/d3-array/dist/d3-array.js"))
);
jest.mock("d3-geo", () =>
  jest.requireActual(path.join(__dirname, "../../node_modules/d3-geo/dist/d3-geo.js"))
);

const lane = () => ({ ...emptySearchForm(), origin: "CNSHA", destination: " NLRTM " });

describe("no results", () => {
  test("without filters: the schedules are the reason, no filter is suggested", () => {
    const v = lane();
    expect(filtersSet(v)).toEqual([]);
    expect(noResultsMessage(v)).toBe(
      "No route options from CNSHA to NLRTM departing in the service's default window from today: no scheduled service connects these places in that window."
    );
    expect(noResultsMessage({ ...v, minDeparture: "2027-01-04", maxDeparture: "2027-01-31" })).toBe(
      "No route options from CNSHA to NLRTM departing 2027-01-04 to 2027-01-31: no scheduled service connects these places in that window."
    );
  });

  test("with filters: exactly the ones set, in words", () => {
    const v = {
      ...lane(),
      maxTransfers: "0",
      maxLeadTime: "1",
      directSeaOnly: true,
      excludedOperators: ["MAEU"],
    };
    const message = noResultsMessage(v);
    expect(message).toBe(
      "No route options from CNSHA to NLRTM departing in the service's default window from today with at most 0 transfers; lead time at most 1 day; direct sea only; excluded operators MAEU: these filters rule out every option; loosen or clear them."
    );
    expect(message).not.toMatch(/modalities|CO2e|trucking|calling/);
    expect(filtersSet({ ...lane(), maxLeadTime: "P21D", modalities: ["RAIL"] })).toEqual([
      "modalities RAIL",
      "lead time at most P21D",
    ]);
  });

  test("the summary of a collapsed search", () => {
    expect(searchSummary(lane(), 3, 12)).toBe("CNSHA → NLRTM · 3 routings (12 departures)");
    expect(searchSummary({ ...lane(), maxTransfers: "1" }, 1, 1)).toBe(
      "CNSHA → NLRTM · 1 routing (1 departure) · at most 1 transfer"
    );
  });
});

describe("map caption", () => {
  const leg = (origin: string, destination: string, modality: string) =>
    ({ origin, destination, modality }) as Leg;
  test("names the routed legs and the ones drawn straight", () => {
    const drawing = [
      { leg: leg("CNSHA", "NLRTM", "DEEPSEA"), routed: true },
      { leg: leg("NLRTM", "DEDUI", "TRUCK"), routed: false },
    ];
    expect(mapNote({ drawing }, "done")).toBe(
      "Lines follow the routed paths the distances are computed on: CNSHA → NLRTM (deepsea). Drawn straight (great-circle arcs; trucking, or no path from the service): NLRTM → DEDUI (truck)."
    );
    expect(mapNote({ drawing: [drawing[1]] }, "done")).toBe(
      "Drawn straight, as great-circle arcs between ports, not the sailed path: NLRTM → DEDUI (truck)."
    );
    expect(mapNote({ drawing: [drawing[0]] }, "done")).toBe(
      "Lines follow the routed paths the distances are computed on: CNSHA → NLRTM (deepsea)."
    );
    expect(mapNote({ drawing }, "loading")).toMatch(/^Drawn straight .* for now; loading/);
  });
});

describe("credits card", () => {
  const account = {
    name: "local",
    tier: "paid" as const,
    active: true,
    optimizerAccess: false,
    credits: { routeInformation: 999_000, routeOptimizer: 0 },
    rateLimit: { perSecond: 50, burst: 100 },
  };
  test("both pools, and what no optimizer access means", () => {
    expect(accountLines(account)).toEqual({
      information: "999,000",
      optimizer: "0 (no route-optimizer access)",
    });
    expect(accountLines({ ...account, optimizerAccess: true }).optimizer).toBe("0");
  });
  test("a service without GET /account reports no balances", () => {
    expect(accountProblem(new ApiError(404, "Not Found", ""))).toBe(
      "This service does not report balances (it has no GET /account)."
    );
    expect(accountProblem(new ApiError(401, "Unauthorized", "Invalid API key."))).toMatch(
      /^Credits unknown: /
    );
  });
});
