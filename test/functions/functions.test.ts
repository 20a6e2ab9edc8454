import type { RouteApiClientOptions } from "../../src/client/api-client";
import {
  createRouteFunctions,
  OPTION_COLUMNS,
  PREVIEW_MESSAGE,
  routingRow,
} from "../../src/functions/route-functions";
import { distinctRoutings } from "../../src/client/distinct-routings";
import { describeFailure } from "../../src/functions/excel-errors";
import { ApiError } from "../../src/client/errors";
import {
  defaultHandler,
  fakeClient,
  fakeMetres,
  FakeServiceOptions,
  problem,
} from "../client/fake-service";
import {
  FakeExcelError,
  installCustomFunctions,
  withCustomFunctionsRuntime14,
  EMISSIONS_LEFT_OUT,
} from "./fake-custom-functions";
import { oneDecimal } from "../../src/functions/units";

installCustomFunctions();

function setup(
  service: FakeServiceOptions = { batch: true },
  options: Partial<RouteApiClientOptions> = {},
  key = "k1"
) {
  const { client, requests } = fakeClient(
    service,
    { windowMs: 5, backoff: { baseMs: 5, maxMs: 20 }, ...options },
    key
  );
  return { route: createRouteFunctions(() => client), requests, client };
}

async function excelError(promise: Promise<unknown>): Promise<FakeExcelError> {
  const error = await promise.then(
    (v) => {
      throw new Error(`expected an Excel error, got ${JSON.stringify(v)}`);
    },
    (e) => e
  );
  expect(error).toBeInstanceOf(FakeExcelError);
  return error as FakeExcelError;
}

describe("ROUTE.DISTANCE", () => {
  test("defaults: modality DEEPSEA, unit km; optional arguments arrive as null", async () => {
    const { route, requests } = setup();
    const km = await route.distance({ origin: "nlrtm", destination: "CNSHA" });
    expect(km).toBe(oneDecimal(fakeMetres("NLRTM", "CNSHA", "DEEPSEA") / 1000));
    // "nlrtm" in lower case may be a name ("busan"): looked up first, the code when no place is.
    expect(requests.map((r) => r.url.pathname)).toEqual([
      "/route-information/api/places",
      "/route-information/api/distance",
    ]);
    const asked = requests[1].url.searchParams;
    expect(asked.get("modality")).toBe("DEEPSEA");
    expect(asked.get("origin")).toBe("NLRTM");
    expect(asked.has("vesselInfo")).toBe(false);
  });

  test.each([
    ["m", 1],
    ["km", 1000],
    ["nm", 1852],
    ["mi", 1609.344],
    ["NM", 1852],
  ])("unit %s", async (unit, metresPer) => {
    const { route } = setup();
    const value = await route.distance({
      origin: "NLRTM",
      destination: "USNYC",
      modality: "rail",
      unit,
    });
    expect(value).toBe(oneDecimal(fakeMetres("NLRTM", "USNYC", "RAIL") / metresPer));
  });

  test("an unknown unit is #VALUE! naming the allowed units, without a request", async () => {
    const { route, requests } = setup();
    const error = await excelError(
      route.distance({ origin: "NLRTM", destination: "CNSHA", unit: "yards" })
    );
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toBe('unit "yards" is not allowed: use one of m, km, nm, mi');
    expect(requests).toHaveLength(0);
  });

  test("vesselInfo and coordinates are passed on (coordinates without spaces)", async () => {
    const { route, requests } = setup();
    await route.distance({
      origin: "51.95, 4.14",
      destination: "CNSHA",
      modality: "DEEPSEA",
      vesselInfo: "36600,5100,1600",
      unit: "km",
    });
    expect(requests[0].url.searchParams.get("origin")).toBe("51.95,4.14");
    expect(requests[0].url.searchParams.get("vesselInfo")).toBe("36600,5100,1600");
  });

  test("service errors map to Excel errors", async () => {
    const { route } = setup();
    const bad = await excelError(route.distance({ origin: "BAD", destination: "CNSHA" }));
    // A word is a name: looked up, and unknown (the fake knows a few names only).
    expect(bad).toMatchObject({ code: "#VALUE!", message: 'unknown place "BAD"' });
    const malformed = await excelError(route.distance({ origin: "1,2,3", destination: "CNSHA" }));
    expect(malformed).toMatchObject({
      code: "#VALUE!",
      message: 'origin "1,2,3": with decimal commas put ; between lat and lng, e.g. 51,95;4,05',
    });
    // A code the service does not know: the look-up's nearest code is suggested.
    const unknown = await excelError(route.distance({ origin: "XXXXX", destination: "CNSHA" }));
    expect(unknown).toMatchObject({
      code: "#VALUE!",
      message: 'unknown place "XXXXX" — did you mean XXXXY (Nowhere)?',
    });
  });

  test('names: a misspelling gets "did you mean", namesakes in one country are listed, never picked', async () => {
    const { route } = setup();
    expect(
      await excelError(route.distance({ origin: "Rotterdm", destination: "CNSHA" }))
    ).toMatchObject({
      code: "#VALUE!",
      message: 'unknown place "Rotterdm" — did you mean NLRTM (Rotterdam)?',
    });
    expect(
      await excelError(route.distance({ origin: "NLRTM", destination: "Portland" }))
    ).toMatchObject({
      code: "#VALUE!",
      message: "Portland: USPDX (Oregon) or USPWM (Maine)",
    });
    expect(await route.distance({ origin: "Rotterdam", destination: "CNSHA" })).toBe(
      oneDecimal(fakeMetres("NLRTM", "CNSHA", "DEEPSEA") / 1000)
    );
    // Five letters in lower case are looked up as names first: busan is Busan, not a code BUSAN.
    expect(await route.distance({ origin: "busan", destination: "rotterdam" })).toBe(
      oneDecimal(fakeMetres("KRPUS", "NLRTM", "DEEPSEA") / 1000)
    );
  });

  test("no key / invalid key → #N/A pointing at the pane", async () => {
    const none = await excelError(
      setup({ batch: true }, {}, "").route.distance({ origin: "NLRTM", destination: "CNSHA" })
    );
    expect(none).toMatchObject({ code: "#N/A", message: "No API key: open the Route Sheets pane" });
    const invalid = await excelError(
      setup({ batch: true }, {}, "bad").route.distance({ origin: "NLRTM", destination: "CNSHA" })
    );
    expect(invalid).toMatchObject({
      code: "#N/A",
      message: "Invalid API key: open the Route Sheets pane",
    });
  });

  test('out of credits → #N/A "Out of credits"; inactive → pane', async () => {
    const credits = setup({
      interceptor: () => problem(402, "Over Limit", "The credit total is exceeded"),
    });
    expect(
      await excelError(credits.route.distance({ origin: "NLRTM", destination: "CNSHA" }))
    ).toMatchObject({ code: "#N/A", message: "Out of credits" });
    const inactive = setup({
      interceptor: () => problem(403, "Inactive", "The account is inactive"),
    });
    expect(
      await excelError(inactive.route.distance({ origin: "NLRTM", destination: "CNSHA" }))
    ).toMatchObject({
      message: "Account inactive: open the Route Sheets pane",
    });
  });

  test('unreachable service → #N/A "Service unavailable" with the reason', async () => {
    const { route } = setup({ interceptor: () => "network-error" });
    expect(
      await excelError(route.distance({ origin: "NLRTM", destination: "CNSHA" }))
    ).toMatchObject({
      code: "#N/A",
      message: "Service unavailable: cannot reach the service",
    });
  });

  test("value preview spends nothing: a message, or the cached value", async () => {
    const { route, requests } = setup();
    expect(
      await route.distance(
        { origin: "NLRTM", destination: "CNSHA", unit: "km" },
        {
          isInValuePreview: true,
        }
      )
    ).toBe(PREVIEW_MESSAGE);
    expect(requests).toHaveLength(0);
    const real = await route.distance(
      { origin: "NLRTM", destination: "CNSHA", unit: "km" },
      {
        isInValuePreview: false,
      }
    );
    expect(requests).toHaveLength(1);
    expect(
      await route.distance(
        { origin: "NLRTM", destination: "CNSHA", unit: "nm" },
        {
          isInValuePreview: true,
        }
      )
    ).toBe(oneDecimal(((real as number) * 1000) / 1852));
    expect(requests).toHaveLength(1);
  });
});

describe("ROUTE.EMISSIONS", () => {
  test("per TEU (default) and per TON, optional arguments passed on", async () => {
    const { route, requests } = setup();
    const metres = fakeMetres("NLRTM", "CNSHA", "DEEPSEA");
    expect(
      await route.emissions({ origin: "NLRTM", destination: "CNSHA", ...EMISSIONS_LEFT_OUT })
    ).toBe(oneDecimal(metres / 1000));
    expect(
      await route.emissions({
        origin: "NLRTM",
        destination: "CNSHA",
        ...EMISSIONS_LEFT_OUT,
        modality: "DEEPSEA",
        per: "ton",
        containerType: "40HC",
        fuelType: "VLSFO",
      })
    ).toBe(oneDecimal(metres / 10_000));
    const q = requests[1].url.searchParams;
    expect([q.get("containerType"), q.get("fuelType")]).toEqual(["40HC", "VLSFO"]);
  });

  test("per must be TEU or TON", async () => {
    const { route } = setup();
    expect(
      await excelError(
        route.emissions({ origin: "NLRTM", destination: "CNSHA", ...EMISSIONS_LEFT_OUT, per: "kg" })
      )
    ).toMatchObject({
      code: "#VALUE!",
      message: 'per "kg" is not allowed: use TEU or TON',
    });
  });
});

describe("ROUTE.TERMINALS", () => {
  test("spills name, locode, id", async () => {
    const { route, requests } = setup();
    expect(await route.terminals({ locode: "nlrtm" })).toEqual([
      ["ECT Delta", "NLRTM", "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0001"],
      ["APM Maasvlakte II", "NLRTM", "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0002"],
    ]);
    expect(requests.at(-1)!.url.searchParams.get("terminalLocode")).toBe("NLRTM");
  });

  test("a name for the location is looked up; errors name the function's parameters", async () => {
    const { route, requests } = setup();
    expect(await route.terminals({ locode: "Rotterdam" })).toHaveLength(2);
    expect(requests.at(-1)!.url.searchParams.get("terminalLocode")).toBe("NLRTM");
    expect(await excelError(route.terminals({ locode: "Rotterdm" }))).toMatchObject({
      code: "#VALUE!",
      message: 'unknown place "Rotterdm" — did you mean NLRTM (Rotterdam)?',
    });
    expect(await excelError(route.terminals({ locode: "51.9,4.1" }))).toMatchObject({
      code: "#VALUE!",
      message: 'locode "51.9,4.1" is not allowed: use a UN/LOCODE such as NLRTM, or a name',
    });
    expect(await excelError(route.terminals({ locode: null }))).toMatchObject({
      code: "#VALUE!",
      message: expect.stringMatching(/^locode is required/),
    });
    const refused = setup({
      interceptor: () =>
        problem(
          400,
          "Incorrect Values",
          'terminalLocode "X" is not allowed; terminalName too long'
        ),
    });
    const error = await excelError(refused.route.terminals({ locode: "BEANR", name: "x" }));
    expect(error.message).toBe('locode "X" is not allowed; name too long');
    expect(error.message).not.toMatch(/terminal(Locode|Name)/);
  });

  test("none found → #N/A", async () => {
    const { route } = setup();
    expect(await excelError(route.terminals({ locode: "BEANR", name: "Zzz" }))).toMatchObject({
      code: "#N/A",
      message: 'No terminals found for locode BEANR and name "Zzz"',
    });
  });

  test("preview → one-cell message", async () => {
    const { route } = setup();
    expect(await route.terminals({ locode: "NLRTM" }, { isInValuePreview: true })).toEqual([
      [PREVIEW_MESSAGE],
    ]);
  });
});

const OPERATORS = [
  { id: "a1f6c7e2-0000-4000-8000-000000000001", name: "Maersk", scac: "MAEU" },
  { id: "a1f6c7e2-0000-4000-8000-000000000002", name: "MSC", scac: "MSCU" },
  { id: "a1f6c7e2-0000-4000-8000-000000000003", name: "Contargo", scac: "CTGO" },
];

const OPTION = {
  id: "c0ffee00-0000-4000-8000-000000000001",
  leadTimeInMinutes: 2880,
  latestDropOff: "2025-03-05T12:00:00Z",
  earliestPickup: "2025-03-03T08:00:00Z",
  emissionsInKgCo2e: 812.5,
  transfers: 1,
  transferEmissionsInKgCo2e: 12,
  truckToOriginInMeters: 0,
  truckToDestinationInMeters: 15000,
  legs: [
    {
      modality: "BARGE",
      operators: [{ ...OPERATORS[2], serviceCodes: [], collaboratingOperators: [] }],
    },
    { modality: "TRUCK", operators: [] },
  ],
};

function optimizerHandler(path: string, q: URLSearchParams, headers: Record<string, string>) {
  if (path === "/route-optimizer/api/external/operators") return { status: 200, body: OPERATORS };
  if (path === "/route-optimizer/api/external") {
    if (q.get("origin") === "NLRTM" && q.get("destination") === "BEANR")
      return problem(404, "Not Found", "No route from NLRTM to BEANR");
    return {
      status: 200,
      // Eight distinct routings (one service code each), so ROUTE.OPTIONS keeps all eight.
      body: {
        results: Array.from({ length: 8 }, (_, i) => ({
          ...OPTION,
          transfers: i,
          legs: [
            {
              ...OPTION.legs[0],
              operators: [{ ...OPERATORS[2], serviceCodes: [`S${i}`], collaboratingOperators: [] }],
            },
            OPTION.legs[1],
          ],
        })),
      },
    };
  }
  return defaultHandler(path, q, headers);
}

describe("ROUTE.OPERATORS", () => {
  test("all, or filtered by name or SCAC", async () => {
    const { route, requests } = setup({ handler: optimizerHandler });
    expect(await route.operators({})).toHaveLength(3);
    expect(await route.operators({ search: "msc" })).toEqual([["MSC", "MSCU", OPERATORS[1].id]]);
    expect(await route.operators({ search: "CTGO" })).toEqual([
      ["Contargo", "CTGO", OPERATORS[2].id],
    ]);
    expect(requests).toHaveLength(1);
  });

  test("no optimizer access (402 Free Tier Not Allowed) → pane", async () => {
    const { route } = setup({
      interceptor: () => problem(402, "Free Tier Not Allowed", "free accounts cannot"),
    });
    expect(await excelError(route.operators({}))).toMatchObject({
      code: "#N/A",
      message: expect.stringContaining("open the Route Sheets pane"),
    });
  });
});

describe("ROUTE.OPTIONS", () => {
  test("a key without optimizer access (403) → #N/A pointing at the pane", async () => {
    const { route } = setup({
      interceptor: () => problem(403, "Invalid Key", "This key has no route-optimizer access"),
    });
    expect(
      await excelError(route.options({ origin: "NLRTM", destination: "DEDUI", modalities: null }))
    ).toEqual(
      expect.objectContaining({
        code: "#N/A",
        message: "Invalid API key or no route optimizer access: open the Route Sheets pane",
      })
    );
  });

  test("detects place types and sends the filters", async () => {
    const { route, requests } = setup({ handler: optimizerHandler });
    const rows = await route.options({
      origin: "nlrtm",
      destination: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0001",
      modalities: "barge, rail",
      maxTransfers: 2,
      sort: "fastest",
    });
    expect(rows).toHaveLength(6); // the header row and 5 routings
    expect(rows[0]).toEqual([...OPTION_COLUMNS]);
    const q = requests.at(-1)!.url.searchParams;
    expect([q.get("origin"), q.get("originType"), q.get("destinationType")]).toEqual([
      "NLRTM",
      "LOCODE",
      "TERMINAL",
    ]);
    expect(q.getAll("modalities")).toEqual(["BARGE", "RAIL"]);
    expect([q.get("maxTransfers"), q.get("sort")]).toEqual(["2", "FASTEST"]);
    await route.options({ origin: "51.9,4.1", destination: "DEDUI", modalities: null, top: 2 });
    expect(requests.at(-1)!.url.searchParams.get("originType")).toBe("GEO");
    expect(requests.at(-1)!.url.searchParams.has("modalities")).toBe(false);
  });

  test("routing row: next departure, frequency, ports, modalities, operators, figures, drop-off before pick-up (Excel serials)", () => {
    const option = {
      ...OPTION,
      legs: OPTION.legs.map((leg, i) => ({
        ...leg,
        origin: ["NLRTM", "DEDUI"][i],
        destination: ["DEDUI", "DEDUS"][i],
        departureDate: ["2025-03-05T18:00:00Z", "2025-03-07T06:00:00Z"][i],
      })),
    };
    const weekLater = {
      ...option,
      legs: option.legs.map((leg, i) =>
        i === 0 ? { ...leg, departureDate: "2025-03-12T18:00:00Z" } : leg
      ),
    };
    const [row] = distinctRoutings([weekLater, option] as never).map((r) => routingRow(r));
    // 2025-03-05 18:00 UTC is serial 45721.75 (1900 date system).
    expect(row).toEqual([
      45721.75,
      "weekly",
      2,
      "NLRTM > DEDUI > DEDUS",
      "BARGE > TRUCK",
      "Contargo",
      2,
      1,
      812.5,
      45721.5,
      expect.closeTo(45719 + 8 / 24, 9),
    ]);
    expect(OPTION_COLUMNS).toHaveLength(row.length);
    expect(OPTION_COLUMNS[8]).toBe("kg CO2e per TEU");
    expect(OPTION_COLUMNS.indexOf("Latest drop-off")).toBeLessThan(
      OPTION_COLUMNS.indexOf("Earliest pick-up")
    );
  });

  test("header row by default, FALSE leaves it out; departure window sent as dates", async () => {
    const { route, requests } = setup({ handler: optimizerHandler });
    const rows = await route.options({
      origin: "NLRTM",
      destination: "DEDUI",
      modalities: null,
      top: 2,
      minDeparture: 45992,
      maxDeparture: "2026-01-31",
      header: true,
    });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual([...OPTION_COLUMNS]);
    const q = requests[0].url.searchParams;
    expect([q.get("minDeparture"), q.get("maxDeparture")]).toEqual(["2025-12-01", "2026-01-31"]);
    expect(
      await excelError(
        route.options({
          origin: "NLRTM",
          destination: "DEDUI",
          modalities: null,
          top: 2,
          minDeparture: "next week",
        })
      )
    ).toMatchObject({ code: "#VALUE!", message: expect.stringContaining("minDeparture") });
    const bare = await route.options({
      origin: "NLRTM",
      destination: "DEDUI",
      modalities: null,
      top: 2,
      header: false,
    });
    expect(bare).toHaveLength(2);
    expect(bare[0][0]).toBe(45721.5);
  });

  test("dates are formatted number values where the runtime has data types (1.4)", async () => {
    const { route } = setup({ handler: optimizerHandler });
    await withCustomFunctionsRuntime14(async () => {
      const [, row] = await route.options({
        origin: "NLRTM",
        destination: "DEDUI",
        modalities: null,
        top: 1,
      });
      expect(row[9]).toEqual({
        type: "FormattedNumber",
        basicValue: 45721.5,
        numberFormat: "yyyy-mm-dd hh:mm",
      });
    });
    const [, plain] = await route.options({
      origin: "NLRTM",
      destination: "DEDUI",
      modalities: null,
      top: 1,
    });
    expect(plain[9]).toBe(45721.5);
  });

  test("top limits the rows; bad top and bad places are #VALUE!", async () => {
    const { route, requests } = setup({ handler: optimizerHandler });
    expect(
      await route.options({ origin: "NLRTM", destination: "DEDUI", modalities: null, top: 3 })
    ).toHaveLength(4);
    expect(
      await excelError(
        route.options({ origin: "NLRTM", destination: "DEDUI", modalities: null, top: 0 })
      )
    ).toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining("top"),
    });
    const place = await excelError(
      route.options({ origin: "Atlantis", destination: "DEDUI", modalities: null })
    );
    expect(place).toMatchObject({ code: "#VALUE!", message: 'unknown place "Atlantis"' });
    // The name was looked up (free), no search was sent for it.
    expect(requests.map((r) => r.url.pathname)).toEqual([
      "/route-optimizer/api/external",
      "/route-information/api/places",
    ]);
  });

  test("no route → #N/A with the detail", async () => {
    const { route } = setup({ handler: optimizerHandler });
    expect(
      await excelError(route.options({ origin: "NLRTM", destination: "BEANR", modalities: null }))
    ).toMatchObject({ code: "#N/A", message: "No route from NLRTM to BEANR" });
  });
});

describe("error mapping", () => {
  test('429 and 5xx are "Service unavailable"', () => {
    expect(describeFailure(new ApiError(429, "Too Many Requests", ""))).toMatchObject({
      kind: "notAvailable",
      message: expect.stringMatching(/^Service unavailable/),
    });
    expect(describeFailure(new ApiError(503, "Service Unavailable", ""))).toEqual({
      kind: "notAvailable",
      message: "Service unavailable: the service answered 503",
    });
    expect(describeFailure(new ApiError(0, "Timeout", "No answer within 9 s"))).toEqual({
      kind: "notAvailable",
      message: "Service unavailable: no answer within 9 s",
    });
  });
});

describe("@cancelable", () => {
  test("a canceled call settles at once; its answer still fills the cache", async () => {
    const { route, requests } = setup({ batch: true }, { windowMs: 50 });
    const invocation: { onCanceled?: () => void } = {};
    const call = route.distance({ origin: "NLRTM", destination: "CNSHA" }, invocation);
    invocation.onCanceled!();
    expect(await excelError(call)).toMatchObject({ code: "#N/A", message: "Canceled" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requests).toHaveLength(1);
    expect(await route.distance({ origin: "NLRTM", destination: "CNSHA" })).toBe(
      oneDecimal(fakeMetres("NLRTM", "CNSHA", "DEEPSEA") / 1000)
    );
    expect(requests).toHaveLength(1);
  });
});
