/**
 * The curated place files as shipped (data/ports-overlay.csv, data/terminals.csv): their shape,
 * sources and codes, read straight from disk and through the real loader.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import {
  DATA_ROOT,
  loadPlaces,
  PORT_OVERLAY_COLUMNS,
  TERMINAL_COLUMNS,
} from "../../../src/data/places";
import { terminalId } from "../../../src/engine/places";

const OVERLAY = path.join(DATA_ROOT, "ports-overlay.csv");
const TERMINALS = path.join(DATA_ROOT, "terminals.csv");

function rows(file: string): { header: string[]; records: Record<string, string>[] } {
  const text = fs.readFileSync(file, "utf8");
  const all = parse(text, { skip_empty_lines: true }) as string[][];
  const [header, ...body] = all;
  return { header, records: body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}

const overlay = rows(OVERLAY);
const terminals = rows(TERMINALS);
const { ports, resolver, terminals: registry } = loadPlaces();

describe("data/ports-overlay.csv", () => {
  it("keeps exactly the loader columns, one value for each", () => {
    expect(overlay.header).toEqual(PORT_OVERLAY_COLUMNS);
    for (const r of overlay.records)
      expect(Object.values(r).every((v) => v !== undefined)).toBe(true);
    expect(overlay.records.length).toBeGreaterThan(230);
  });

  it("has unique codes, each with a non-empty source that starts with a public URL", () => {
    const codes = overlay.records.map((r) => r.locode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const r of overlay.records) {
      expect({ locode: r.locode, source: r.source.trim().length > 0 }).toEqual({
        locode: r.locode,
        source: true,
      });
      expect(r.source).toMatch(/^https?:\/\/\S+/);
    }
  });

  it("has well-formed rows: country prefix, kinds, 4-decimal coordinates", () => {
    for (const r of overlay.records) {
      expect(r.locode).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/);
      expect(r.country).toBe(r.locode.slice(0, 2));
      for (const k of r.kind.split(";")) expect(["seaport", "inland", "rail"]).toContain(k);
      expect(r.lat).toMatch(/^-?\d{1,2}\.\d{4}$/);
      expect(r.lng).toMatch(/^-?\d{1,3}\.\d{4}$/);
    }
  });

  it("records where each code written from memory was checked; the wrong ones are replaced", () => {
    const byCode = new Map(overlay.records.map((r) => [r.locode, r]));
    const checked = [
      "DEDUI",
      "DELUH",
      "DEMAI",
      "DENSS",
      "DEKAE",
      "DEKOB",
      "DEFRA",
      "DEMUC",
      "DELEJ",
      "DEMAG",
      "DEDRS",
      "DENUE",
      "CHBSL",
      "FRSXB",
      "NLNIJ",
      "BELGG",
      "ATVIE",
      "ATLNZ",
      "RSBEG",
      "ITVRN",
      "PLWAW",
    ];
    for (const code of checked)
      expect(byCode.get(code)?.source).toMatch(/code checked in the UN\/LOCODE list/);
    // CNCGO is Zhengzhou's airport in the list and CNYIW is not in it: the rail hubs use CNZGZ and CNYIU.
    expect(byCode.has("CNCGO")).toBe(false);
    expect(byCode.has("CNYIW")).toBe(false);
    expect(byCode.get("CNZGZ")).toMatchObject({
      name: "Zhengzhou (Putian)",
      lat: "34.7300",
      lng: "113.8000",
    });
    expect(byCode.get("CNYIU")).toMatchObject({
      name: "Yiwu (Yiwu West)",
      lat: "29.3300",
      lng: "119.9800",
    });
  });

  it.each([
    ["PLMAA", 52.03, 23.53, "rail"],
    ["BYBQT", 52.09, 23.69, "rail"],
    ["KZHOR", 44.2, 80.24, "rail"],
    ["PLKUT", 52.24, 19.39, "rail"],
    ["CZPRG", 50.03, 14.6, "rail"],
    ["DEEMM", 51.83, 6.24, "inland"],
    ["FRMZM", 49.16, 6.17, "inland"],
    ["INHZA", 21.08, 72.64, "seaport"],
    ["INKAT", 13.31, 80.35, "seaport"],
    ["MXLZC", 17.94, -102.18, "seaport"],
    ["CNQZH", 21.67, 108.6, "seaport"],
    ["CNTGS", 39.21, 119.02, "seaport"],
  ])("resolves the added place %s near (%d, %d) as %s", (locode, lat, lng, kind) => {
    const p = resolver.resolve(locode, "origin");
    expect(p).toMatchObject({ kind: "LOCODE", locode });
    expect(Math.abs(p.lat - lat)).toBeLessThan(0.05);
    expect(Math.abs(p.lng - lng)).toBeLessThan(0.05);
    expect(overlay.records.find((r) => r.locode === locode)!.kind.split(";")).toContain(kind);
    expect(ports.get(locode)!.source).toMatch(/^https?:\/\//);
  });
});

describe("data/terminals.csv", () => {
  it("keeps exactly the loader columns; every row has a source", () => {
    expect(terminals.header).toEqual(TERMINAL_COLUMNS);
    for (const r of terminals.records) expect(r.source).toMatch(/^https?:\/\/\S+/);
  });

  it("every terminal's locode is a row of the overlay", () => {
    const codes = new Set(overlay.records.map((r) => r.locode));
    const missing = terminals.records
      .filter((r) => !codes.has(r.locode))
      .map((r) => `${r.locode} ${r.name}`);
    expect(missing).toEqual([]);
  });

  it("finds the rail terminals at the rail hubs by name", () => {
    expect(registry.search("CZPRG", "uhrineves")[0].name).toBe("Metrans Praha Uhříněves");
    expect(registry.search("HUBUD", "bilk")[0].name).toBe("Rail Cargo Terminal BILK");
    expect(registry.search("PLKUT", "pcc")[0].name).toBe("PCC Intermodal Terminal Kutno");
    expect(registry.search("PLMAA", "europort")[0].name).toBe("CL Europort Małaszewicze");
    expect(registry.search("KZHOR", "khorgos")[0].name).toBe("Khorgos Gateway Dryport");
    const putian = registry.search("CNZGZ", "putian")[0];
    expect(putian).toMatchObject({
      locode: "CNZGZ",
      name: "Zhengzhou Putian Railway Container Center",
    });
    expect(putian.id).toBe(terminalId("CNZGZ", "Zhengzhou Putian Railway Container Center"));
    expect(registry.search("CNYIU", "yiwu west")[0].locode).toBe("CNYIU");
  });
});

describe("data/schedules/sample-network.json", () => {
  it("uses only codes the places resolve", () => {
    const file = path.join(DATA_ROOT, "schedules", "sample-network.json");
    const net = JSON.parse(fs.readFileSync(file, "utf8")) as {
      services: { rotation: { locode: string }[] }[];
    };
    const codes = new Set(net.services.flatMap((s) => s.rotation.map((c) => c.locode)));
    expect(codes.size).toBeGreaterThan(20);
    const unresolved = [...codes].filter((c) => !ports.get(c));
    expect(unresolved).toEqual([]);
    expect(codes.has("CNZGZ")).toBe(true);
    expect(codes.has("CNYIU")).toBe(true);
  });
});
