/** Black-box HTTP tests: the real server on 127.0.0.1, the real engine and a real SQLite store. */
import { problemOf, startTestServer, TestServer } from "./support";

const DIST = "/route-information/api/distance";
const EMIS = "/route-information/api/emissions";
const TERM = "/route-information/api/terminals";
const OPT = "/route-optimizer/api/external";
const OPS = "/route-optimizer/api/external/operators";
const SEA = `${DIST}?origin=NLRTM&destination=CNSHA&modality=DEEPSEA`;
const TRUCK = `${DIST}?origin=NLRTM&destination=DEHAM&modality=TRUCK`;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.stop();
});

async function balance(accountId: string) {
  return (await s.store.accountState(accountId))!;
}

describe("meta", () => {
  test("GET /health needs no key", async () => {
    const res = await s.get("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expect.objectContaining({ status: "ok" }));
  });

  test("GET /openapi.json is OpenAPI 3.1 with every path, the extension, units and the problem schema", async () => {
    const res = await s.get("/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    for (const p of [TERM, DIST, EMIS, "/route-information/api/batch", OPT, OPS, "/health"])
      expect(Object.keys(doc.paths)).toContain(p);
    const avoid = doc.paths[DIST].get.parameters.find((p: { name: string }) => p.name === "avoid");
    expect(avoid.schema["x-extension"] ?? avoid["x-extension"]).toBe(true);
    expect(avoid.description ?? avoid.schema.description).toMatch(/Extension/);
    expect(doc.components.schemas.Problem.properties.title.enum).toContain("Free Tier Not Allowed");
    expect(doc.components.schemas.DistanceResult.properties.distance.description).toMatch(/metres/);
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
    const modalities = doc.paths[OPT].get.parameters.find(
      (p: { name: string }) => p.name === "modalities"
    );
    expect(modalities.schema.items.enum).toEqual(["DEEPSEA", "SHORTSEA", "BARGE", "RAIL", "TRUCK"]);
    expect(doc.paths[DIST].get.responses["402"].content["application/problem+json"]).toBeDefined();
    expect(doc.paths[DIST].get.responses["429"].headers["Retry-After"]).toBeDefined();
  });

  test("unknown paths answer 404 Not Found as problem+json", async () => {
    const res = await s.get("/route-information/api/nothing-here");
    const p = await problemOf(res);
    expect(p).toEqual({
      type: "/problems/not-found",
      title: "Not Found",
      status: 404,
      detail: expect.stringContaining("/route-information/api/nothing-here"),
    });
  });

  test("problem type URIs resolve to their explanation", async () => {
    const res = await s.get("/problems/over-limit");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expect.objectContaining({ title: "Over Limit", status: 402 }));
  });
});

describe("authentication", () => {
  test("no x-api-key → 401 No Key (before any validation)", async () => {
    const p = await problemOf(await s.get(`${DIST}?modality=NOPE`));
    expect(p.title).toBe("No Key");
    expect(p.status).toBe(401);
    expect(p.detail).toMatch(/x-api-key/);
  });

  test("unknown key → 403 Invalid Key", async () => {
    const p = await problemOf(await s.get(SEA, "rs_notakeyatall"));
    expect([p.status, p.title]).toEqual([403, "Invalid Key"]);
  });

  test("inactive account → 403 Inactive, even with no credits left", async () => {
    const { key, account } = await s.account({ credits: 0 });
    await s.store.setActive(account.id, false);
    const p = await problemOf(await s.get(SEA, key));
    expect([p.status, p.title]).toEqual([403, "Inactive"]);
    await s.store.setActive(account.id, true);
    expect((await problemOf(await s.get(SEA, key))).title).toBe("Over Limit");
  });

  test("keys are rs_ + 43 base64url characters and the database holds only their hash", async () => {
    const { key } = await s.account();
    expect(key).toMatch(/^rs_[A-Za-z0-9_-]{43}$/);
    const fs = await import("node:fs");
    s.store.db.pragma("wal_checkpoint(TRUNCATE)");
    const bytes = fs.readFileSync(s.store.file).toString("latin1");
    expect(bytes.includes(key)).toBe(false);
    expect(bytes.includes(key.slice(0, 8))).toBe(true); // the shown prefix only
  });
});

describe("terminals", () => {
  test("200 with an array of {id, name, locode}, free of charge", async () => {
    const { key, account } = await s.account({ credits: 5 });
    const res = await s.get(`${TERM}?terminalLocode=NLRTM&terminalName=Euromax`, key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.length).toBeGreaterThan(0);
    for (const t of body) {
      expect(Object.keys(t).sort()).toEqual(["id", "locode", "name"]);
      expect(t.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(t.locode).toBe("NLRTM");
    }
    expect(body[0].name).toMatch(/Euromax/i);
    expect((await balance(account.id)).credits).toBe(5);
  });

  test("204 with no body when nothing matches", async () => {
    const { key } = await s.account();
    const res = await s.get(`${TERM}?terminalLocode=NLRTM&terminalName=zzqqxx`, key);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  test("400 Incorrect Values naming terminalLocode when it is missing or malformed", async () => {
    const { key } = await s.account();
    const missing = await problemOf(await s.get(TERM, key));
    expect([missing.status, missing.title]).toEqual([400, "Incorrect Values"]);
    expect(missing.detail).toMatch(/terminalLocode/);
    const bad = await problemOf(await s.get(`${TERM}?terminalLocode=R0TTERDAM`, key));
    expect(bad.detail).toMatch(/terminalLocode.*UN\/LOCODE/);
  });
});

describe("distance", () => {
  test("200 with exactly {distance} in metres, modality case-insensitive, one credit", async () => {
    const { key, account } = await s.account({ credits: 10 });
    const res = await s.get(SEA.replace("DEEPSEA", "deepsea"), key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["distance"]);
    // Rotterdam–Shanghai by sea via Suez is about 10,500 nautical miles (19,400 km).
    expect(body.distance).toBeGreaterThan(18_000_000);
    expect(body.distance).toBeLessThan(21_000_000);
    expect(Number.isInteger(body.distance)).toBe(true);
    const st = await balance(account.id);
    expect(st.credits).toBe(9);
    expect(await s.store.ledgerTotal(account.id, "route-information")).toEqual({
      rows: 1,
      credits: 1,
    });
  });

  test("avoid (extension) reroutes: avoiding Suez is longer; unknown passage → 400 naming avoid", async () => {
    const { key } = await s.account();
    const direct = (await (await s.get(SEA, key)).json()).distance;
    const around = (await (await s.get(`${SEA}&avoid=SUEZ`, key)).json()).distance;
    expect(around).toBeGreaterThan(direct + 3_000_000);
    const p = await problemOf(await s.get(`${SEA}&avoid=ATLANTIS`, key));
    expect(p.title).toBe("Incorrect Values");
    expect(p.detail).toMatch(/avoid.*SUEZ/);
  });

  test("missing parameter → 400 naming it; wrong modality → 400 listing the allowed values; not charged", async () => {
    const { key, account } = await s.account({ credits: 10 });
    const missing = await problemOf(await s.get(`${DIST}?origin=NLRTM&modality=DEEPSEA`, key));
    expect(missing.title).toBe("Incorrect Values");
    expect(missing.detail).toMatch(/destination/);
    const wrong = await problemOf(
      await s.get(`${DIST}?origin=NLRTM&destination=DEHAM&modality=PLANE`, key)
    );
    expect(wrong.detail).toMatch(/modality/);
    expect(wrong.detail).toMatch(/DEEPSEA, SHORTSEA, BARGE, RAIL, TRUCK/);
    const dup = await problemOf(
      await s.get(`${DIST}?origin=NLRTM&origin=DEHAM&destination=DEHAM&modality=TRUCK`, key)
    );
    expect(dup.detail).toMatch(/origin/);
    expect((await balance(account.id)).credits).toBe(10);
  });

  test("unknown LOCODE → 404 Unknown Data; unknown vessel → 404 Unknown Data; no route → 404 Not Found", async () => {
    const { key, account } = await s.account({ credits: 10 });
    const unknown = await problemOf(
      await s.get(`${DIST}?origin=NLZZZ&destination=CNSHA&modality=DEEPSEA`, key)
    );
    expect([unknown.status, unknown.title]).toEqual([404, "Unknown Data"]);
    expect(unknown.detail).toMatch(/origin/);
    const vessel = await problemOf(await s.get(`${SEA}&vesselInfo=IMO0000000`, key));
    expect([vessel.status, vessel.title]).toEqual([404, "Unknown Data"]);
    const none = await problemOf(
      await s.get(`${DIST}?origin=NLRTM&destination=USNYC&modality=TRUCK`, key)
    );
    expect([none.status, none.title]).toEqual([404, "Not Found"]);
    expect((await balance(account.id)).credits).toBe(10);
  });

  test("unknown extra query parameters are refused, named", async () => {
    const { key } = await s.account();
    // Issue 31: a parameter the endpoint does not use is a 400 naming it, never silently ignored.
    const res = await s.get(`${TRUCK}&foo=bar&apiVersion=7`, key);
    expect(res.status).toBe(400);
    expect((await problemOf(res)).detail).toMatch(/foo is not used by this endpoint/);
  });

  test("empty pool → 402 Over Limit, answered before computing", async () => {
    const { key, account } = await s.account({ credits: 1 });
    expect((await s.get(TRUCK, key)).status).toBe(200);
    const p = await problemOf(await s.get(TRUCK, key));
    expect([p.status, p.title]).toEqual([402, "Over Limit"]);
    expect(p.detail).toMatch(/route-information credits/);
    // Even an invalid query gets 402 first: the balance pre-check precedes validation.
    expect((await problemOf(await s.get(`${DIST}?modality=NOPE`, key))).title).toBe("Over Limit");
    expect(await s.store.ledgerTotal(account.id, "route-information")).toEqual({
      rows: 1,
      credits: 1,
    });
  });
});

describe("emissions", () => {
  test("200 with exactly {co2eTeu, co2eTon, distance}; distance as the distance call; one credit", async () => {
    const { key, account } = await s.account({ credits: 10 });
    const res = await s.get(`${EMIS}?origin=NLRTM&destination=CNSHA&modality=DEEPSEA`, key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["co2eTeu", "co2eTon", "distance"]);
    const d = (await (await s.get(SEA, key)).json()).distance;
    expect(body.distance).toBe(d);
    expect(body.co2eTeu).toBeGreaterThan(body.co2eTon);
    expect(body.co2eTon).toBeGreaterThan(0);
    expect((await balance(account.id)).credits).toBe(8);
  });

  test("wrong containerType → 400 listing allowed values", async () => {
    const { key } = await s.account();
    const p = await problemOf(
      await s.get(`${EMIS}?origin=NLRTM&destination=CNSHA&modality=DEEPSEA&containerType=BOX`, key)
    );
    expect(p.title).toBe("Incorrect Values");
    expect(p.detail).toMatch(/containerType.*40HC/);
  });

  test("free tier → 402 Free Tier Not Allowed (before validation), distance and terminals allowed", async () => {
    const { key, account } = await s.account({ tier: "free", credits: 10 });
    const p = await problemOf(
      await s.get(`${EMIS}?origin=NLRTM&destination=CNSHA&modality=DEEPSEA`, key)
    );
    expect([p.status, p.title]).toEqual([402, "Free Tier Not Allowed"]);
    expect((await problemOf(await s.get(EMIS, key))).title).toBe("Free Tier Not Allowed");
    expect((await s.get(TRUCK, key)).status).toBe(200);
    expect((await s.get(`${TERM}?terminalLocode=NLRTM`, key)).status).toBe(200);
    expect((await balance(account.id)).credits).toBe(9);
  });
});

describe("rate limit", () => {
  test("token bucket per key → 429 Too Many Requests with an integer Retry-After ≥ 1; other keys unaffected", async () => {
    const limited = await s.account({ ratePerSecond: 1, burst: 2 });
    const other = await s.account();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await s.get(`${TERM}?terminalLocode=NLRTM`, limited.key);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const p = await problemOf(last!);
    expect(p.title).toBe("Too Many Requests");
    const retry = Number(last!.headers.get("retry-after"));
    expect(Number.isInteger(retry) && retry >= 1).toBe(true);
    expect((await s.get(`${TERM}?terminalLocode=NLRTM`, other.key)).status).toBe(200);
  });

  test("rate limit is checked before the tier: a limited free key gets 429, not 402", async () => {
    const { key } = await s.account({ tier: "free", ratePerSecond: 1, burst: 1 });
    expect((await problemOf(await s.get(EMIS, key))).title).toBe("Free Tier Not Allowed");
    expect((await problemOf(await s.get(EMIS, key))).title).toBe("Too Many Requests");
  });
});

describe("route optimizer access", () => {
  test("a key without optimizer access → 403 Invalid Key saying so", async () => {
    const { key } = await s.account();
    for (const path of [
      `${OPT}?origin=NLRTM&originType=LOCODE&destination=DEHAM&destinationType=LOCODE`,
      OPS,
    ]) {
      const p = await problemOf(await s.get(path, key));
      expect([p.status, p.title]).toEqual([403, "Invalid Key"]);
      expect(p.detail).toMatch(/no route-optimizer access/);
    }
  });

  test("a free account → 402 Free Tier Not Allowed", async () => {
    const { key } = await s.account({ tier: "free", optimizerAccess: true, optimizerCredits: 5 });
    expect((await problemOf(await s.get(OPS, key))).title).toBe("Free Tier Not Allowed");
  });

  test("invalid optimizer parameters → 400 naming the parameter and allowed values", async () => {
    const { key } = await s.account({ optimizerAccess: true, optimizerCredits: 5 });
    const type = await problemOf(
      await s.get(
        `${OPT}?origin=NLRTM&originType=CITY&destination=DEHAM&destinationType=LOCODE`,
        key
      )
    );
    expect(type.title).toBe("Incorrect Values");
    expect(type.detail).toMatch(/originType.*LOCODE, TERMINAL, GEO/);
    const mode = await problemOf(
      await s.get(
        `${OPT}?origin=NLRTM&originType=LOCODE&destination=DEHAM&destinationType=LOCODE&modalities=RAIL,PLANE`,
        key
      )
    );
    expect(mode.detail).toMatch(/modalities.*DEEPSEA, SHORTSEA, BARGE, RAIL, TRUCK/);
    const n = await problemOf(
      await s.get(
        `${OPT}?origin=NLRTM&originType=LOCODE&destination=DEHAM&destinationType=LOCODE&maxTransfers=many`,
        key
      )
    );
    expect(n.detail).toMatch(/maxTransfers.*integer/);
    const d = await problemOf(
      await s.get(
        `${OPT}?origin=NLRTM&originType=LOCODE&destination=DEHAM&destinationType=LOCODE&minDeparture=tomorrow`,
        key
      )
    );
    expect(d.detail).toMatch(/minDeparture.*date/);
  });

  test("optimizer pool empty → 402 Over Limit naming the route-optimizer pool", async () => {
    const { key } = await s.account({ optimizerAccess: true, optimizerCredits: 0 });
    const p = await problemOf(
      await s.get(
        `${OPT}?origin=NLRTM&originType=LOCODE&destination=DEHAM&destinationType=LOCODE`,
        key
      )
    );
    expect([p.status, p.title]).toEqual([402, "Over Limit"]);
    expect(p.detail).toMatch(/route-optimizer/);
  });
});

describe("CORS", () => {
  test("preflight is answered without a key, allows x-api-key and is cacheable", async () => {
    const res = await fetch(s.url + DIST, {
      method: "OPTIONS",
      headers: {
        Origin: "https://excel.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-api-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toBe(
      "x-api-key, content-type, idempotency-key"
    );
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  test("answers (errors too) carry Access-Control-Allow-Origin", async () => {
    const res = await s.get(SEA, undefined, { Origin: "https://excel.example" });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toBe(
      "retry-after, request-id, idempotent-replayed"
    );
  });
});

describe("route optimizer search (real optimizer)", () => {
  const Q = `${OPT}?origin=DEDUI&originType=LOCODE&destination=ITMIL&destinationType=locode`;

  test("200 {results:[…]} with the record fields; one route-optimizer credit, route-information untouched", async () => {
    const { key, account } = await s.account({
      credits: 5,
      optimizerAccess: true,
      optimizerCredits: 3,
    });
    const res = await s.get(
      `${OPT}?origin=NLRTM&originType=LOCODE&destination=CNSHA&destinationType=LOCODE`,
      key
    );
    expect(res.status).toBe(200);
    const { results } = await res.json();
    expect(results.length).toBeGreaterThan(0);
    const r = results[0];
    for (const f of [
      "id",
      "leadTimeInMinutes",
      "latestDropOff",
      "earliestPickup",
      "emissionsInKgCo2e",
      "transfers",
      "transferEmissionsInKgCo2e",
      "truckToOriginInMeters",
      "truckToDestinationInMeters",
      "legs",
    ]) {
      expect(r).toHaveProperty(f);
    }
    expect(r.legs[0]).toEqual(
      expect.objectContaining({
        origin: "NLRTM",
        modality: expect.stringMatching(/^(DEEPSEA|SHORTSEA|BARGE|RAIL|TRUCK)$/),
      })
    );
    expect(new Date(r.latestDropOff).toISOString()).toBeTruthy();
    const st = await balance(account.id);
    expect([st.credits, st.optimizerCredits]).toEqual([5, 2]);
    expect(await s.store.ledgerTotal(account.id, "route-optimizer")).toEqual({
      rows: 1,
      credits: 1,
    });
  });

  test("list parameters: repeated keys and comma lists give the same answer", async () => {
    const { key } = await s.account({ optimizerAccess: true, optimizerCredits: 10 });
    const repeated = await (await s.get(`${Q}&modalities=RAIL&modalities=TRUCK`, key)).json();
    const comma = await (await s.get(`${Q}&modalities=rail,TRUCK`, key)).json();
    expect(repeated.results.length).toBeGreaterThan(0);
    expect(comma).toEqual(repeated);
    for (const r of repeated.results)
      for (const leg of r.legs) expect(["RAIL", "TRUCK"]).toContain(leg.modality);
    const truckOnly = await (await s.get(`${Q}&modalities=TRUCK`, key)).json();
    expect(truckOnly.results.length).toBeLessThan(repeated.results.length);
  });

  test("sort is case-insensitive; a wrong one → 400 listing the allowed values", async () => {
    const { key } = await s.account({ optimizerAccess: true, optimizerCredits: 10 });
    const res = await s.get(`${Q}&sort=emissions`, key);
    expect(res.status).toBe(200);
    const { results } = await res.json();
    const e = results.map((r: { emissionsInKgCo2e: number }) => r.emissionsInKgCo2e);
    expect(e).toEqual([...e].sort((a, b) => a - b));
    const p = await problemOf(await s.get(`${Q}&sort=CHEAPEST`, key));
    expect(p.detail).toMatch(/sort.*LEAD_TIME, EMISSIONS, TRANSFERS, DEPARTURE, ARRIVAL/);
  });

  test("unknown LOCODE → 404 Unknown Data, not charged", async () => {
    const { key, account } = await s.account({ optimizerAccess: true, optimizerCredits: 10 });
    const p = await problemOf(
      await s.get(
        `${OPT}?origin=NLZZZ&originType=LOCODE&destination=ITMIL&destinationType=LOCODE`,
        key
      )
    );
    expect([p.status, p.title]).toEqual([404, "Unknown Data"]);
    expect((await balance(account.id)).optimizerCredits).toBe(10);
  });

  test("operators: an array of exactly {id, name, scac}, free of charge", async () => {
    const { key, account } = await s.account({ optimizerAccess: true, optimizerCredits: 1 });
    const res = await s.get(OPS, key);
    expect(res.status).toBe(200);
    const ops = await res.json();
    expect(ops.length).toBeGreaterThan(5);
    for (const o of ops) expect(Object.keys(o).sort()).toEqual(["id", "name", "scac"]);
    expect(ops.map((o: { scac: string }) => o.scac)).toContain("MAEU");
    expect((await balance(account.id)).optimizerCredits).toBe(1);
  });
});
