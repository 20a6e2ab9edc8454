/**
 * Issue 31 "Validation": numbers are decimal digits only, ranges are stated and enforced, a
 * conflict between via and avoid is named, and a parameter an endpoint does not use is a 400
 * naming it (never silently ignored). Real server on loopback.
 */
import fc from "fast-check";
import { decimalNumber, wholeNumber } from "../../src/engine/parameters";
import { problemOf, startTestServer, TestServer } from "./support";

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { optimizer: null });
  key = (await s.account({ credits: 1000 })).key;
}, 120_000);
afterAll(async () => s?.stop());

const RI = "/route-information/api";
const LANE = "origin=NLRTM&destination=DEHAM&modality=TRUCK";

async function refused(path: string, detail: RegExp): Promise<void> {
  const before = await credits();
  const res = await s.get(path, key);
  expect({ path, status: res.status }).toEqual({ path, status: 400 });
  expect((await problemOf(res)).detail).toMatch(detail);
  // A 400 is free.
  expect(await credits()).toBe(before);
}

async function credits(): Promise<number> {
  const r = (await (await s.get("/account", key)).json()) as {
    credits: { routeInformation: number };
  };
  return r.credits.routeInformation;
}

test("integers are decimal digits only: containers=0x10, containers=1e3, year=0x7E8, places limit=0x10", async () => {
  await refused(`${RI}/emissions?${LANE}&containers=0x10`, /containers/);
  await refused(`${RI}/emissions?${LANE}&containers=1e3`, /containers/);
  await refused(`${RI}/distance?${LANE}&include=eca&year=0x7E8`, /year/);
  await refused(
    `${RI}/places?query=Rotterdam&limit=0x10`,
    /limit must be a whole number from 1 to 20/
  );
});

test("tiny decimals are refused with the allowed range: speedKnots=1e-310, weightTons=1e-320", async () => {
  await refused(`${RI}/distance?${LANE}&include=time&speedKnots=1e-310`, /speedKnots.*1 to 60/);
  await refused(
    `${RI}/distance?${LANE}&include=time&speedKnots=0.0000001`,
    /speedKnots must be a number from 1 to 60/
  );
  await refused(`${RI}/emissions?${LANE}&weightTons=1e-320`, /weightTons.*0\.001 to 10000000/);
  await refused(
    `${RI}/emissions?${LANE}&weightTons=0.0000001`,
    /weightTons must be a number from 0.001 to 10000000/
  );
  await refused(`${RI}/chain?points=NLRTM,DEHAM&modalities=TRUCK&weightTons=1e-320`, /weightTons/);
});

test("via and avoid naming one passage is a 400 naming both, however the passage is written", async () => {
  const lane = `${RI}/distance?origin=CNSHA&destination=NLRTM&modality=DEEPSEA`;
  await refused(`${lane}&via=SUEZ&avoid=SUEZ`, /via "SUEZ" conflicts with avoid SUEZ/);
  // Long names and other spellings read by the one grammar (passage-grammar.ts).
  await refused(
    `${lane}&via=Suez%20Canal&avoid=SUEZ`,
    /via "Suez Canal" conflicts with avoid SUEZ/
  );
  await refused(`${lane}&via=SUEZ&avoid=Suez%20Canal`, /via "SUEZ" conflicts with avoid SUEZ/);
  await refused(
    `${lane}&via=Singapore;Bab-el-Mandeb&avoid=bab%20al%20mandab`,
    /via "Bab-el-Mandeb" conflicts with avoid BAB_EL_MANDEB/
  );
  await refused(`${lane}&via=Strait%20of%20Malacca&avoid=malacca`, /conflicts with avoid MALACCA/);
  // Every passage, its waypoint name against its long spelling, over /emissions too.
  for (const [via, avoid] of [
    ["Panama Canal", "PANAMA"],
    ["Bosphorus", "BOSPORUS"],
    ["Strait of Gibraltar", "GIBRALTAR"],
  ])
    await refused(
      `${RI}/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&via=${encodeURIComponent(via)}&avoid=${avoid}`,
      new RegExp(`via "${via}" conflicts with avoid ${avoid}`)
    );
  // A different passage in each is no conflict.
  expect((await s.get(`${lane}&via=Suez%20Canal&avoid=PANAMA`, key)).status).toBe(200);
});

test("/chain refuses via, avoid and include=time,passages; /distance refuses include=method; any unknown parameter is named", async () => {
  const chain = `${RI}/chain?points=NLRTM,DEHAM&modalities=TRUCK`;
  await refused(`${chain}&via=SUEZ`, /via is not used by this endpoint/);
  await refused(`${chain}&avoid=SUEZ`, /avoid is not used by this endpoint/);
  await refused(`${chain}&include=time`, /"time" is not used by this endpoint.*method, eca/);
  await refused(`${chain}&include=passages`, /"passages" is not used by this endpoint/);
  await refused(`${RI}/distance?${LANE}&include=method`, /"method" is not used by this endpoint/);
  await refused(`${RI}/distance?${LANE}&containers=2`, /containers is not used by this endpoint/);
  await refused(`${RI}/terminals?terminalLocode=NLRTM&colour=red`, /colour is not used/);
  // What is used still answers.
  expect((await s.get(`${chain}&include=method,eca`, key)).status).toBe(200);
  expect((await s.get(`${RI}/distance?${LANE}&include=passages,time`, key)).status).toBe(200);
});

test("the OpenAPI document states the ranges", async () => {
  const doc = JSON.stringify(await (await s.get("/openapi.json")).json());
  for (const range of ["from 1 to 60", "from 0.001 to 10000000", "from 1 to 100000"])
    expect(doc).toContain(range);
});

test("property: a decimal in range reads as its value; any text with a letter, exponent or 0x is refused", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000 }), fc.nat({ max: 999 }), (whole, frac) => {
      expect(wholeNumber(String(whole), "n", { min: 1, max: 100_000 })).toBe(whole);
      const text = `${whole}.${frac}`;
      expect(decimalNumber(text, "n", { min: 0, max: 200_000 })).toBe(Number(text));
      for (const bad of [`0x${whole.toString(16)}`, `${whole}e1`, `${whole}e-1`, `${whole}a`])
        expect(() => decimalNumber(bad, "n", { min: 0, max: 1e12 })).toThrow(/decimal digits/);
      expect(() => wholeNumber(text, "n", { min: 0, max: 1e12 })).toThrow(/whole number/);
    })
  );
});
