/**
 * README's Excel section documents every ROUTE function the add-in registers, each with one
 * example formula, and the examples work: each is read as Excel would pass it (empty arguments
 * left out, text, numbers, TRUE/FALSE) and asked of the real server through the real client. The
 * optimizer's functions (OPTIONS, OPERATORS) and examples over cell ranges are checked for their
 * arguments only.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { RouteApiClient } from "../../src/client/api-client";
import { createEmissionFunctions } from "../../src/functions/emission-functions";
import { createRouteFunctions } from "../../src/functions/route-functions";
import { startTestServer, TestServer } from "../service/support";
import { FakeExcelError, installCustomFunctions } from "./fake-custom-functions";

installCustomFunctions();
jest.setTimeout(120_000);

const README = fs.readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");

/** A formula's arguments as Excel hands them over; `undefined` for a cell reference. */
type Argument = string | number | boolean | null | undefined;

function splitArguments(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (ch === "," && !quoted) {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  out.push(current.trim());
  return out;
}

function argumentOf(text: string): Argument {
  if (text === "") return null;
  if (/^".*"$/.test(text)) return text.slice(1, -1);
  if (/^(TRUE|FALSE)$/i.test(text)) return text.toUpperCase() === "TRUE";
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return undefined;
}

/** Every `Example: \`=ROUTE.X(…)\`` of README: the function and its arguments. */
function examples(): Array<{ id: string; formula: string; args: Argument[] }> {
  return [...README.matchAll(/^Example: `=ROUTE\.([A-Z]+)\((.*?)\)`/gm)].map((m) => ({
    id: m[1],
    formula: `=ROUTE.${m[1]}(${m[2]})`,
    args: splitArguments(m[2]).map(argumentOf),
  }));
}

let parameters: Map<string, string[]>;
let s: TestServer;
let client: RouteApiClient;

beforeAll(async () => {
  const r = await generateCustomFunctionsMetadata("src/functions/functions.ts", true);
  const fns = JSON.parse(r.metadataJson).functions as Array<{
    id: string;
    parameters: Array<{ name: string }>;
  }>;
  parameters = new Map(fns.map((f) => [f.id, f.parameters.map((p) => p.name)]));
  s = await startTestServer({}, { optimizer: null });
  const { key } = await s.account({ credits: 10_000 });
  client = new RouteApiClient({
    settings: { get: async () => ({ baseUrl: s.url, apiKey: key }) },
    windowMs: 5,
  });
}, 120_000);
afterAll(async () => s?.stop());

test("every function has a README section with one example, of no more arguments than it takes", () => {
  const found = examples();
  expect(found.map((e) => e.id).sort()).toEqual([...parameters.keys()].sort());
  for (const e of found) {
    expect(README).toContain(`### ROUTE.${e.id}\n`);
    expect({ formula: e.formula, fits: e.args.length <= parameters.get(e.id)!.length }).toEqual({
      formula: e.formula,
      fits: true,
    });
  }
});

test("the examples answer against the real server", async () => {
  const route = createRouteFunctions(() => client) as unknown as Record<
    string,
    (args: Record<string, unknown>) => Promise<unknown>
  >;
  const emission = createEmissionFunctions(() => client) as unknown as Record<
    string,
    (args: Record<string, unknown>) => Promise<unknown>
  >;
  const asked: string[] = [];
  for (const e of examples()) {
    if (e.id === "OPTIONS" || e.id === "OPERATORS" || e.args.includes(undefined)) continue;
    const names = parameters.get(e.id)!;
    const record = Object.fromEntries(e.args.map((a, i) => [names[i], a]));
    const name = e.id.toLowerCase();
    const call = route[name] ?? emission[name];
    const answer = await call(record).catch((error: unknown) => error);
    expect({
      formula: e.formula,
      failed: answer instanceof FakeExcelError ? answer : false,
    }).toEqual({ formula: e.formula, failed: false });
    const cells = (Array.isArray(answer) ? answer.flat() : [answer]) as unknown[];
    expect(cells.some((c) => c instanceof FakeExcelError)).toBe(false);
    expect(cells.length).toBeGreaterThan(0);
    asked.push(e.id);
  }
  expect(asked).toEqual(
    expect.arrayContaining(["DISTANCE", "EMISSIONS", "PASSAGES", "CHAIN", "DURATION", "ETS"])
  );
});
