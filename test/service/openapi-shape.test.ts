/**
 * The OpenAPI document keeps its shape whatever the plugin structure: every path under its prefix,
 * its methods, responses, query parameters and the shared schemas.
 */
import { startTestServer, TestServer } from "./support";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => server?.stop());

interface Operation {
  responses: Record<string, unknown>;
  parameters?: { name: string; in: string }[];
}

const ROUTE_QUERY = ["origin", "destination", "modality", "vesselInfo", "avoid"];
const KEYED = ["401", "403", "429", "500"];

const EXPECTED: Record<string, { method: string; statuses: string[]; query: string[] }> = {
  "/account": { method: "get", statuses: ["200", ...KEYED], query: [] },
  "/health": { method: "get", statuses: ["200"], query: [] },
  "/route-information/api/terminals": {
    method: "get",
    statuses: ["200", "204", "400", "402", "404", ...KEYED],
    query: ["terminalLocode", "terminalName"],
  },
  "/route-information/api/distance": {
    method: "get",
    statuses: ["200", "400", "402", "404", ...KEYED],
    query: [...ROUTE_QUERY, "include"],
  },
  "/route-information/api/emissions": {
    method: "get",
    statuses: ["200", "400", "402", "404", ...KEYED],
    query: [...ROUTE_QUERY, "include", "containerType", "fuelType"],
  },
  "/route-information/api/path": {
    method: "get",
    statuses: ["200", "400", "402", "404", ...KEYED],
    query: ROUTE_QUERY,
  },
  "/route-information/api/places": {
    method: "get",
    statuses: ["200", "400", ...KEYED],
    query: ["query", "limit"],
  },
  "/route-information/api/chain": {
    method: "get",
    statuses: ["200", "400", "402", "404", ...KEYED],
    query: ["points", "modalities", "containerType", "containers", "weightTons", "factorSet"],
  },
  "/route-information/api/batch": {
    method: "post",
    statuses: ["200", "400", ...KEYED],
    query: [],
  },
  "/route-optimizer/api/external": {
    method: "get",
    statuses: ["200", "400", "402", "404", "503", ...KEYED],
    query: ["origin", "originType", "destination", "destinationType", "modalities", "sort"],
  },
  "/route-optimizer/api/external/operators": {
    method: "get",
    statuses: ["200", "402", ...KEYED],
    query: [],
  },
};

test("/openapi.json lists every route under its prefix with its responses and parameters", async () => {
  const res = await server.get("/openapi.json");
  expect(res.status).toBe(200);
  const doc = (await res.json()) as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown> };
  };
  expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(EXPECTED).sort());
  for (const [path, want] of Object.entries(EXPECTED)) {
    expect([path, Object.keys(doc.paths[path])]).toEqual([path, [want.method]]);
    const op = doc.paths[path][want.method];
    expect([path, Object.keys(op.responses).sort()]).toEqual([path, [...want.statuses].sort()]);
    const query = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    expect(query).toEqual(expect.arrayContaining(want.query));
  }
  expect(Object.keys(doc.components.schemas).sort()).toEqual([
    "AccountInfo",
    "DistanceResult",
    "EmissionsResult",
    "Operator",
    "PathFeature",
    "PlaceResult",
    "Problem",
    "RouteSearchResult",
    "Terminal",
  ]);
});
