/**
 * ROUTE.CHAIN, ROUTE.DURATION, ROUTE.ETS and ROUTE.EMISSIONS with a shipment (issue 20), through
 * the real client against the real server on loopback; only Excel's CustomFunctions is a stand-in.
 * The functions' metadata is generated from functions.ts as the add-in build does.
 */
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { RouteApiClient } from "../../src/client/api-client";
import { createEmissionFunctions } from "../../src/functions/emission-functions";
import { createRouteFunctions } from "../../src/functions/route-functions";
import { startTestServer, TestServer } from "../service/support";
import {
  FakeExcelError,
  installCustomFunctions,
  EMISSIONS_LEFT_OUT,
} from "./fake-custom-functions";

installCustomFunctions();

let s: TestServer;
let client: RouteApiClient;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { optimizer: null });
  ({ key } = await s.account({ credits: 10_000 }));
  client = new RouteApiClient({
    settings: { get: async () => ({ baseUrl: s.url, apiKey: key }) },
    windowMs: 5,
  });
}, 120_000);
afterAll(async () => s?.stop());

const fns = () => createEmissionFunctions(() => client);

async function api(path: string): Promise<Record<string, any>> {
  return (await (await s.get(path, key)).json()) as Record<string, any>;
}

test("ROUTE.CHAIN spills one row per leg and hub plus a total row; points and modalities as text or ranges", async () => {
  const rows = await fns().chain({
    points: "CNCTU,CNSHA,NLRTM,DEDUI",
    modalities: "RAIL,DEEPSEA,BARGE",
  });
  expect(rows.map((r) => r[0])).toEqual(["Leg 1", "Hub", "Leg 2", "Hub", "Leg 3", "Total"]);
  expect(rows.map((r) => r[3])).toEqual([
    "RAIL",
    "MARITIME_CONTAINER_TERMINAL",
    "DEEPSEA",
    "MARITIME_CONTAINER_TERMINAL",
    "BARGE",
    "",
  ]);
  const chain = await api(
    "/route-information/api/chain?points=CNCTU,CNSHA,NLRTM,DEDUI&modalities=RAIL,DEEPSEA,BARGE&containers=1"
  );
  const total = rows[5];
  // Figures to 0.1 (km, kg), as README says and every other function shows them.
  const tenth = (x: number) => Math.round(x * 10) / 10;
  expect(total[4]).toBe(tenth(chain.total.distance / 1000));
  expect(total[5]).toBe(tenth(chain.total.co2eTeu));
  expect(total[6]).toBe(tenth(chain.total.co2eTon));
  for (const row of rows)
    for (const figure of row.slice(4)) expect(figure).toBe(tenth(figure as number));
  const sum = rows.slice(0, 5).reduce((t, r) => t + (r[5] as number), 0);
  expect(Math.abs((total[5] as number) - sum)).toBeLessThanOrEqual(0.05 * 6);
  // One box by default: the shipment column is one TEU's figure.
  expect(total[7]).toBe(tenth(chain.total.co2eKg));
  const ranged = await fns().chain({
    points: [["CNCTU"], ["CNSHA"], ["NLRTM"], ["DEDUI"]],
    modalities: [["RAIL"], ["DEEPSEA"], ["BARGE"]],
    containerType: "40HC",
    containers: 3,
    header: true,
  });
  expect(ranged[0][0]).toBe("Element");
  expect(ranged).toHaveLength(7);
  expect(Math.abs((ranged[6][7] as number) - (ranged[6][5] as number) * 2 * 3)).toBeLessThanOrEqual(
    0.05 * 6 + 0.05
  );
});

test("ROUTE.CHAIN: an unknown code is #VALUE! with a suggestion, as DISTANCE answers it", async () => {
  const error = await fns()
    .chain({ points: "CNSHA,KRPUX", modalities: "DEEPSEA" })
    .then(
      () => undefined,
      (e) => e as FakeExcelError
    );
  const distance = await createRouteFunctions(() => client)
    .distance({ origin: "CNSHA", destination: "KRPUX" })
    .then(
      () => undefined,
      (e) => e as FakeExcelError
    );
  expect(error).toBeInstanceOf(FakeExcelError);
  expect(error!.code).toBe("#VALUE!");
  expect(error!.message).toMatch(/^unknown place "KRPUX" — did you mean KRPUS \(Busan\)\?$/);
  expect({ code: error!.code, message: error!.message }).toEqual({
    code: distance!.code,
    message: distance!.message,
  });
});

test("ROUTE.CHAIN: a wrong number of modalities is #VALUE! naming modalities", async () => {
  const error = await fns()
    .chain({ points: "CNSHA,NLRTM,DEDUI", modalities: "DEEPSEA" })
    .then(
      () => undefined,
      (e) => e as FakeExcelError
    );
  expect(error).toBeInstanceOf(FakeExcelError);
  expect(error!.message).toMatch(/modalities: give one modality per leg \(2 for 3 points\)/);
});

test("ROUTE.DURATION: days at the default 16 kn, or at speedKnots, plus port hours; ranges spill", async () => {
  const d = await api(
    "/route-information/api/distance?origin=CNSHA&destination=NLRTM&modality=DEEPSEA"
  );
  const days = await fns().duration({ origin: "CNSHA", destination: "NLRTM" });
  // Days to 0.1, like every figure.
  expect(days).toBe(Math.round((d.distance / 1852 / 16 / 24) * 10) / 10);
  const fast = await fns().duration({
    origin: "CNSHA",
    destination: "NLRTM",
    modality: "DEEPSEA",
    speedKnots: 20,
    portHours: 48,
  });
  expect(fast).toBe(Math.round(((d.distance / 1852 / 20 + 48) / 24) * 10) / 10);
  const spill = (await fns().duration({
    origin: [["CNSHA"], ["SGSIN"]],
    destination: "NLRTM",
  })) as number[][];
  expect(spill).toHaveLength(2);
  expect(spill[0][0]).toBeCloseTo(days as number, 6);
});

test("ROUTE.ETS: covered tank-to-wake kg per TEU × price; EU–non-EU 50 % × the phase-in of the year, 0 outside the EU", async () => {
  const e = await api(
    "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&include=eca&year=2026"
  );
  const cost = await fns().ets({
    origin: "CNSHA",
    destination: "NLRTM",
    carbonPrice: 70,
    year: 2026,
  });
  expect(cost).toBeCloseTo((e.ets.co2eTeuCovered * 70) / 1000, 2);
  const y2024 = (await fns().ets({
    origin: "CNSHA",
    destination: "NLRTM",
    carbonPrice: 70,
    year: 2024,
  })) as number;
  expect(y2024 / (cost as number)).toBeCloseTo(0.4, 2);
  const none = await fns().ets({
    origin: "CNSHA",
    destination: "SGSIN",
    carbonPrice: 70,
    year: 2026,
  });
  expect(none).toBe(0);
  const missing = await fns()
    .ets({ origin: "CNSHA", destination: "NLRTM", carbonPrice: null })
    .then(
      () => undefined,
      (x) => x as FakeExcelError
    );
  expect(missing!.message).toMatch(/carbonPrice is required/);
});

test("ROUTE.EMISSIONS with containers / weightTons answers the shipment total; without, as before", async () => {
  const route = createRouteFunctions(() => client);
  const perTeu = (await route.emissions({
    origin: "CNSHA",
    destination: "NLRTM",
    ...EMISSIONS_LEFT_OUT,
    containerType: "40HC",
  })) as number;
  const shipment = (await route.emissions({
    origin: "CNSHA",
    destination: "NLRTM",
    ...EMISSIONS_LEFT_OUT,
    containerType: "40HC",
    containers: 3,
    weightTons: null,
  })) as number;
  // Cells show figures to 0.1 kg (the add-in's precision): the total is the service's, rounded.
  const server = await api(
    "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&containerType=40HC&containers=3"
  );
  expect(shipment).toBe(Math.round(server.co2eKg * 10) / 10);
  expect(Math.abs(shipment - perTeu * 2 * 3)).toBeLessThanOrEqual(0.05 * 6 + 0.05);
  const perTon = (await route.emissions({
    origin: "CNSHA",
    destination: "NLRTM",
    ...EMISSIONS_LEFT_OUT,
    per: "TON",
  })) as number;
  const part = (await route.emissions({
    origin: "CNSHA",
    destination: "NLRTM",
    ...EMISSIONS_LEFT_OUT,
    containers: null,
    weightTons: 4.5,
  })) as number;
  expect(Math.abs(part - perTon * 4.5)).toBeLessThanOrEqual(0.05 * 4.5 + 0.05);
});

test("metadata: ROUTE.CHAIN, ROUTE.DURATION, ROUTE.ETS and the new ROUTE.EMISSIONS arguments", async () => {
  const r = await generateCustomFunctionsMetadata("src/functions/functions.ts", true);
  expect(r.errors).toEqual([]);
  const fns = JSON.parse(r.metadataJson).functions as Array<{
    id: string;
    parameters: Array<{ name: string }>;
    result: { dimensionality?: string };
  }>;
  const params = (id: string) => fns.find((f) => f.id === id)!.parameters.map((p) => p.name);
  expect(params("CHAIN")).toEqual([
    "points",
    "modalities",
    "containerType",
    "containers",
    "weightTons",
    "header",
  ]);
  expect(params("DURATION")).toEqual([
    "origin",
    "destination",
    "modality",
    "speedKnots",
    "portHours",
    "vesselInfo",
    "avoid",
  ]);
  expect(params("ETS")).toEqual([
    "origin",
    "destination",
    "carbonPrice",
    "modality",
    "containerType",
    "year",
  ]);
  expect(params("EMISSIONS")).toEqual(
    expect.arrayContaining(["containerType", "containers", "weightTons"])
  );
  expect(fns.find((f) => f.id === "CHAIN")!.result.dimensionality).toBe("matrix");
});
