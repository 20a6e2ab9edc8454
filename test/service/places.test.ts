/** GET /route-information/api/places (extension): place look-up by code or name, on a real server. */
import { problemOf, startTestServer, TestServer } from "./support";

const PLACES = "/route-information/api/places";

interface PlaceResult {
  kind: string;
  locode: string;
  name: string;
  country: string;
  lat: number;
  lng: number;
  modalities: string[];
  terminalId?: string;
  match: string;
  score: number;
}

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({ rateLimit: { perSecond: 50, burst: 100 } }, { optimizer: null });
  key = (await s.account({ tier: "free", credits: 3 })).key;
});
afterAll(async () => {
  await s.stop();
});

async function search(query: string, extra = ""): Promise<PlaceResult[]> {
  const res = await s.get(`${PLACES}?query=${encodeURIComponent(query)}${extra}`, key);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { query: string; results: PlaceResult[] };
  expect(body.query).toBe(query);
  return body.results;
}

test("needs a key: 401 without one, 403 with an unknown one", async () => {
  const none = await s.get(`${PLACES}?query=Rotterdam`);
  expect(none.status).toBe(401);
  expect((await problemOf(none)).title).toBe("No Key");
  const wrong = await s.get(`${PLACES}?query=Rotterdam`, "rs_not_a_key");
  expect(wrong.status).toBe(403);
  expect((await problemOf(wrong)).title).toBe("Invalid Key");
});

test("is free: a free account's balance is the same after look-ups", async () => {
  for (const q of ["Rotterdam", "Shanghai", "KRPUX"]) await search(q);
  const account = await (await s.get("/account", key)).json();
  expect(account.credits.routeInformation).toBe(3);
});

test.each([
  ["missing", ""],
  ["blank", "?query=%20%20"],
  ["over 200 characters", `?query=${"a".repeat(201)}`],
])("query %s: 400 naming query", async (_what, qs) => {
  const res = await s.get(`${PLACES}${qs}`, key);
  expect(res.status).toBe(400);
  const p = await problemOf(res);
  expect(p.title).toBe("Incorrect Values");
  expect(p.detail).toMatch(/\bquery\b/);
});

test("limit outside 1..20: 400 naming limit and the allowed values", async () => {
  for (const limit of ["0", "21", "x"]) {
    const res = await s.get(`${PLACES}?query=Rotterdam&limit=${limit}`, key);
    expect(res.status).toBe(400);
    expect((await problemOf(res)).detail).toMatch(/limit .*1 to 20/);
  }
  expect(await search("Rotterdam", "&limit=1")).toHaveLength(1);
});

test("Rotterdam finds NLRTM first, an exact port match with its modalities", async () => {
  const [first] = await search("Rotterdam");
  expect(first).toEqual({
    kind: "port",
    locode: "NLRTM",
    name: "Rotterdam (Maasvlakte)",
    country: "NL",
    lat: 51.955,
    lng: 4.04,
    modalities: ["DEEPSEA", "BARGE", "RAIL", "TRUCK"],
    match: "exact",
    score: 1,
    subdivision: "ZH",
    region: "South Holland",
    population: expect.any(Number),
  });
});

test("Shanghai finds CNSHA first", async () => {
  const results = await search("Shanghai");
  expect(results[0]).toMatchObject({ locode: "CNSHA", kind: "port", match: "exact" });
});

test.each(["ECT Euromax Terminal", "Euromax", "NLRTM Euromax", "nlrtm euromax"])(
  "%s finds the Euromax terminal with its id and port",
  async (q) => {
    const [first] = await search(q);
    expect(first).toMatchObject({
      kind: "terminal",
      locode: "NLRTM",
      name: "ECT Euromax Terminal",
    });
    // The id the other endpoints accept: the terminal search of the same port lists it.
    const listed = await (
      await s.get("/route-information/api/terminals?terminalLocode=NLRTM&terminalName=Euromax", key)
    ).json();
    expect(listed.map((t: { id: string }) => t.id)).toContain(first.terminalId);
  }
);

test("a mistyped LOCODE (KRPUX) gives the nearest codes, Busan first, as fuzzy matches", async () => {
  const results = await search("KRPUX");
  expect(results[0]).toMatchObject({ locode: "KRPUS", match: "fuzzy" });
  expect(results[0].score).toBeLessThan(1);
});

test("inland places are found by name and code: Delhi, Xi'an, Hanoi", async () => {
  expect((await search("Delhi"))[0]).toMatchObject({ locode: "INDEL", kind: "place" });
  // Xi'an: the list's city code (CNXIA, with its population) or the inland-places code.
  expect(["CNXIA", "CNXIY"]).toContain((await search("xian"))[0].locode);
  expect((await search("VNHAN"))[0]).toMatchObject({ locode: "VNHAN", match: "exact" });
});

test("an unknown name answers 200 with no results", async () => {
  expect(await search("qqqqzzzz")).toEqual([]);
});

test("is listed in /openapi.json as an extension with its query parameters", async () => {
  const doc = await (await s.get("/openapi.json")).json();
  const op = doc.paths[PLACES].get;
  expect(op.tags).toContain("extension");
  expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
    "limit",
    "q",
    "query",
  ]);
  expect(doc.components.schemas.PlaceResult.properties.match.anyOf).toBeDefined();
});

test("is rate-limited like the other endpoints", async () => {
  const slow = (await s.account({ ratePerSecond: 1 })).key;
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await s.get(`${PLACES}?query=Hamburg`, slow)).status);
  expect(statuses).toContain(429);
});

describe("names (issue 28)", () => {
  async function answer(qs: string) {
    const res = await s.get(`${PLACES}?${qs}`, key);
    expect(res.status).toBe(200);
    return (await res.json()) as {
      query: string;
      results: (PlaceResult & { region?: string; population?: number })[];
      choice: { kind: string; locode?: string; message?: string };
    };
  }

  test("q is query's short form; an ambiguous name lists the candidates ranked by size", async () => {
    const body = await answer("q=Portland");
    expect(body.query).toBe("Portland");
    expect(body.results.slice(0, 2).map((r) => [r.locode, r.region])).toEqual([
      ["USPDX", "Oregon"],
      ["USPWM", "Maine"],
    ]);
    expect(body.results[0].population!).toBeGreaterThan(body.results[1].population!);
    expect(body.choice).toEqual({
      kind: "ambiguous",
      message: "Portland: USPDX (Oregon) or USPWM (Maine)",
    });
  });

  test.each([
    ["Sao Paulo", "BRSAO"],
    ["SÃO PAULO", "BRSAO"],
    ["ho chi minh city", "VNSGN"],
    ["Antwerpen", "BEANR"],
    ["Wien", "ATVIE"],
    ["Praha", "CZPRG"],
    ["Göteborg", "SEGOT"],
    ["Canton", "CNCAN"],
    ["CNTNJ", "CNTNJ"],
  ])("%s is one place: %s", async (name, locode) => {
    const body = await answer(`q=${encodeURIComponent(name)}`);
    expect(body.choice).toEqual({ kind: "one", locode });
  });

  test("a misspelling gets did you mean, at most 100 characters", async () => {
    const body = await answer("query=Rotterdm");
    expect(body.choice.kind).toBe("unknown");
    expect(body.choice.message).toMatch(/did you mean NLRTM/);
    expect(body.choice.message!.length).toBeLessThanOrEqual(100);
  });

  test("query and q that differ: 400 naming q", async () => {
    const res = await s.get(`${PLACES}?query=Rotterdam&q=Hamburg`, key);
    expect(res.status).toBe(400);
    expect((await problemOf(res)).detail).toMatch(/^q: give query or q, not both|give query or q/);
  });
});
