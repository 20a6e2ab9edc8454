/**
 * ROUTE.DISTANCE/EMISSIONS over ranges, avoid, ROUTE.PASSAGES and ROUTE.LANE against the real
 * service on loopback (only Excel's CustomFunctions global is a stand-in).
 */
import { RouteApiClient } from "../../src/client/api-client";
import {
  Answer,
  createRouteFunctions,
  LANE_COLUMNS,
  PREVIEW_MESSAGE,
} from "../../src/functions/route-functions";
import { startTestServer, TestServer } from "../service/support";
import { settingsOf } from "../client/fake-service";
import {
  FakeExcelError,
  installCustomFunctions,
  withCustomFunctionsRuntime14,
  EMISSIONS_LEFT_OUT,
} from "./fake-custom-functions";
import { oneDecimal } from "../../src/functions/units";

installCustomFunctions();

let s: TestServer;
let key: string;
let client: RouteApiClient;
let sent: string[];
let route: ReturnType<typeof createRouteFunctions>;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account({ credits: 100_000 })).key;
});
afterAll(async () => {
  await s.stop();
});
beforeEach(() => {
  sent = [];
  client = new RouteApiClient({
    settings: settingsOf(key, s.url),
    fetch: (url, init) => {
      sent.push(`${init?.method ?? "GET"} ${new URL(String(url)).pathname}`);
      return fetch(url, init);
    },
  });
  route = createRouteFunctions(() => client);
});

async function apiJson(path: string): Promise<Record<string, unknown>> {
  const res = await s.get(path, key);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const column = (values: string[]) => values.map((v) => [v]);

test("a range spills one answer per row; a single value broadcasts; a bad row keeps its own error", async () => {
  const origins = ["NLRTM", "nl-rtm", "+51.9,4.1", "1,2,3", "DEHAM"];
  const destinations = ["CNSHA", "CNSHA", "SGSIN", "SGSIN", "SGSIN"];
  const spill = (await route.distance({
    origin: column(origins),
    destination: column(destinations),
    modality: [["DEEPSEA"]],
  })) as Answer[][];
  expect(spill).toHaveLength(5);
  const km = async (o: string, d: string) =>
    ((
      await apiJson(`/route-information/api/distance?origin=${o}&destination=${d}&modality=DEEPSEA`)
    ).distance as number) / 1000;
  // Figures to the precision the data has (0.1 km).
  expect(spill[0][0]).toBe(oneDecimal(await km("NLRTM", "CNSHA")));
  // nl-rtm and +51.9,4.1 read as the service reads them (one grammar).
  expect(spill[1][0]).toBe(spill[0][0]);
  expect(spill[2][0]).toBe(oneDecimal(await km("51.9,4.1", "SGSIN")));
  expect(spill[3][0]).toBeInstanceOf(FakeExcelError);
  expect(spill[3][0]).toMatchObject({
    code: "#VALUE!",
    message: expect.stringContaining('origin "1,2,3"'),
  });
  expect(spill[4][0]).toBe(oneDecimal(await km("DEHAM", "SGSIN")));
  // Four good lanes, one of them twice: one batch request.
  expect(sent).toEqual(["POST /route-information/api/batch"]);
});

test("ranges of different shapes: one clear #VALUE! for the call", async () => {
  const error = await route
    .distance({
      origin: column(["NLRTM", "DEHAM"]),
      destination: column(["CNSHA", "SGSIN", "USNYC"]),
    })
    .catch((e) => e);
  expect(error).toBeInstanceOf(FakeExcelError);
  expect(error.code).toBe("#VALUE!");
  expect(error.message).toBe(
    "origin (2×1) and destination (3×1) differ in shape: give ranges of one shape, or one value"
  );
  expect(sent).toHaveLength(0);
});

test("via: Suez or Cape side by side, a column of waypoints spilling like the other arguments (issue 20)", async () => {
  const lanes = await route.distance({
    origin: column(["CNSHA", "CNSHA"]),
    destination: column(["NLRTM", "NLRTM"]),
    via: column(["", "CAPE_OF_GOOD_HOPE"]),
  });
  const [[bySuez], [byCape]] = lanes as number[][];
  const plain = await apiJson(
    "/route-information/api/distance?origin=CNSHA&destination=NLRTM&modality=DEEPSEA"
  );
  const cape = await apiJson(
    "/route-information/api/distance?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&via=CAPE_OF_GOOD_HOPE"
  );
  expect(bySuez).toBe(oneDecimal((plain.distance as number) / 1000));
  expect(byCape).toBe(oneDecimal((cape.distance as number) / 1000));
  expect(byCape).toBeGreaterThan(bySuez + 5000);

  const emissions = await route.emissions({
    origin: "CNSHA",
    destination: "NLRTM",
    ...EMISSIONS_LEFT_OUT,
    via: "CAPE_OF_GOOD_HOPE",
  });
  const api = await apiJson(
    "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&via=CAPE_OF_GOOD_HOPE"
  );
  expect(emissions).toBe(oneDecimal(api.co2eTeu as number));
});

test("avoid: DISTANCE and EMISSIONS round the Cape, PASSAGES names the passages in route order", async () => {
  const [[viaSuez]] = (await route.distance({
    origin: [["CNSHA"]],
    destination: [["NLRTM"]],
  })) as number[][];
  const [[viaCape]] = (await route.distance({
    origin: [["CNSHA"]],
    destination: [["NLRTM"]],
    avoid: [["suez; panama"]],
  })) as number[][];
  expect(viaCape).toBe(
    oneDecimal(
      ((
        await apiJson(
          "/route-information/api/distance?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&avoid=PANAMA,SUEZ"
        )
      ).distance as number) / 1000
    )
  );
  expect(viaCape).toBeGreaterThan(viaSuez + 3000);
  const emissions = await route.emissions({
    origin: "CNSHA",
    destination: "NLRTM",
    ...EMISSIONS_LEFT_OUT,
    avoid: "SUEZ",
  });
  const api = await apiJson(
    "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&avoid=SUEZ"
  );
  expect(emissions).toBe(oneDecimal(api.co2eTeu as number));

  const passages = await route.passages({
    origin: column(["CNSHA", "CNSHA", "NLRTM"]),
    destination: column(["NLRTM", "NLRTM", "DEHAM"]),
    avoid: column(["", "SUEZ", ""]),
  });
  const withPassages = await apiJson(
    "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&include=passages"
  );
  expect(passages).toEqual([
    [(withPassages.passages as string[]).join(", ")],
    [expect.not.stringContaining("SUEZ")],
    [expect.any(String)],
  ]);
  expect((passages as string[][])[0][0]).toMatch(/MALACCA.*BAB_EL_MANDEB, SUEZ.*GIBRALTAR/);
  const bad = await route
    .passages({ origin: "CNSHA", destination: "NLRTM", avoid: "SUES" })
    .catch((e) => e);
  expect(bad).toMatchObject({ code: "#VALUE!", message: expect.stringContaining("SUES") });
});

test("LANE: a header and a row without data types; an entity card where the runtime has them", async () => {
  const plain = await route.lane({ origin: "CNSHA", destination: "NLRTM" });
  const api = await apiJson(
    "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&include=passages"
  );
  expect(plain).toEqual([
    [...LANE_COLUMNS],
    [
      "CNSHA",
      "NLRTM",
      "DEEPSEA",
      oneDecimal((api.distance as number) / 1000),
      oneDecimal((api.distance as number) / 1852),
      oneDecimal(api.co2eTeu as number),
      oneDecimal(api.co2eTon as number),
      (api.passages as string[]).join(", "),
    ],
  ]);
  await withCustomFunctionsRuntime14(async () => {
    const [[card]] = (await route.lane({ origin: "CNSHA", destination: "NLRTM" })) as Array<
      Array<{ type: string; properties: Record<string, { basicValue: unknown }> }>
    >;
    expect(card.type).toBe("Entity");
    expect(card.properties.Distance.basicValue).toBe(oneDecimal((api.distance as number) / 1000));
    expect(card.properties.DistanceNm.basicValue).toBe(oneDecimal((api.distance as number) / 1852));
    expect(card.properties.CO2ePerTEU.basicValue).toBe(oneDecimal(api.co2eTeu as number));
    expect(card.properties.CO2ePerTonne.basicValue).toBe(oneDecimal(api.co2eTon as number));
    expect(card.properties.Passages.basicValue).toBe((api.passages as string[]).join(", "));
    expect(card.properties.Modality.basicValue).toBe("DEEPSEA");
  });
  // Both LANE calls and the earlier answer: one request (the include=passages emissions call).
  expect(sent).toHaveLength(1);
});

test("preview: cached lanes answer, others show the message, no request", async () => {
  await route.distance({ origin: [["NLRTM"]], destination: [["CNSHA"]] });
  const before = sent.length;
  const spill = await route.distance(
    { origin: column(["NLRTM", "DEHAM"]), destination: [["CNSHA"]] },
    { isInValuePreview: true }
  );
  expect((spill as Answer[][])[1][0]).toBe(PREVIEW_MESSAGE);
  expect(typeof (spill as Answer[][])[0][0]).toBe("number");
  expect(sent.length).toBe(before);
});

test("account(): the key's balances, never cached", async () => {
  const first = await client.account();
  expect(first).toMatchObject({ active: true, credits: { routeInformation: expect.any(Number) } });
  await route.distance({ origin: "NLRTM", destination: "USNYC" });
  const second = await client.account();
  expect(second.credits.routeInformation).toBeLessThan(first.credits.routeInformation);
  expect(sent.filter((r) => r === "GET /account")).toHaveLength(2);
});
