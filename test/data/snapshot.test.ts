/**
 * Engine snapshots: the file format (round trip, views onto one buffer, refusal of stale or damaged
 * files), the cache (build once, then read; rebuild on damage or changed inputs; two processes at
 * once), and the shipped sea network read back identical to a fresh build.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readSnapshot, verifiedFile, writeSnapshot } from "../../src/data/snapshot/bundle";
import { cachedSnapshot, snapshotDir, snapshotKey } from "../../src/data/snapshot/cache";
import { packPolygons, unpackPolygons } from "../../src/data/snapshot/polygons";
import {
  buildSeaNetwork,
  buildSeaTables,
  buildSnapLand,
  loadSeaNetwork,
  loadSeaParts,
  loadSeaTables,
  loadSnapLand,
  readPassageAreas,
} from "../../src/data/sea";
import { NetworkSeaRouter } from "../../src/engine/routing/sea";
import { loadLandPolygons } from "../../src/data/inland";

const ROOT = path.resolve(__dirname, "../..");
let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-snapshot-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function sample() {
  return {
    count: 3,
    name: "x",
    flag: true,
    labels: ["a", "b"],
    f64: Float64Array.from([1.5, -Infinity, Math.PI]),
    nested: { i32: Int32Array.from([-1, 2, 2 ** 31 - 1]), u8: Uint8Array.from([255, 0, 7]) },
  };
}

describe("snapshot file", () => {
  it("round-trips typed arrays and values; the arrays are aligned views onto one buffer", () => {
    const file = path.join(tmp, "round.snap");
    writeSnapshot(file, "k1", sample());
    const back = readSnapshot<ReturnType<typeof sample>>(file, "k1")!;
    expect(back).toEqual(sample());
    expect(back.f64).toBeInstanceOf(Float64Array);
    expect(back.nested.i32).toBeInstanceOf(Int32Array);
    expect(back.f64.buffer).toBe(back.nested.u8.buffer);
    expect(back.f64.byteOffset % 8).toBe(0);
    expect(back.nested.i32.byteOffset % 8).toBe(0);
  });

  it("round-trips empty typed arrays between others (each on a buffer of its own, as Int32Array.from([]) makes)", () => {
    const file = path.join(tmp, "empty.snap");
    const value = {
      before: Float64Array.from([1, 2]),
      empty: Int32Array.from([]),
      alsoEmpty: new Float64Array(0),
      after: Uint8Array.from([9]),
    };
    writeSnapshot(file, "k1", value);
    // The first read checks the checksum (nothing recorded yet): it must pass.
    expect(readSnapshot(file, "k1")).toEqual(value);
  });

  it("refuses another key, a missing file, a truncated file, a flipped byte, a damaged header and garbage", () => {
    const file = path.join(tmp, "bad.snap");
    writeSnapshot(file, "k1", sample());
    const good = fs.readFileSync(file);
    expect(readSnapshot(file, "k2")).toBeUndefined();
    expect(readSnapshot(path.join(tmp, "none.snap"), "k1")).toBeUndefined();

    fs.writeFileSync(file, good.subarray(0, good.length - 3));
    expect(readSnapshot(file, "k1")).toBeUndefined();

    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] ^= 0x10; // inside the arrays' bytes
    fs.writeFileSync(file, flipped);
    expect(readSnapshot(file, "k1")).toBeUndefined();

    const header = Buffer.from(good);
    header[14] ^= 0xff; // inside the JSON header
    fs.writeFileSync(file, header);
    expect(readSnapshot(file, "k1")).toBeUndefined();

    fs.writeFileSync(file, "not a snapshot at all");
    expect(readSnapshot(file, "k1")).toBeUndefined();

    fs.writeFileSync(file, good);
    expect(readSnapshot(file, "k1")).toEqual(sample());
  });

  it("checks the checksum once: a file's identity is recorded after a check, and any later write is checked again", () => {
    const file = path.join(tmp, "once.snap");
    writeSnapshot(file, "k1", sample());
    const later = Date.now() + 60_000;
    // Just written: read, but not recorded (a write in the same clock tick could keep its times).
    const written = fs.statSync(file).ctimeMs;
    expect(readSnapshot(file, "k1", { now: written + 100 })).toEqual(sample());
    expect(fs.existsSync(verifiedFile(file))).toBe(false);
    // Older: recorded with its size, times and inode.
    expect(readSnapshot(file, "k1", { now: later })).toEqual(sample());
    const stat = fs.statSync(file);
    expect(fs.readFileSync(verifiedFile(file), "utf8")).toBe(
      `${stat.size} ${stat.mtimeMs} ${stat.ctimeMs} ${stat.ino} ${stat.dev}`
    );

    // A flipped byte written over it, its modification time set back: the change time moved,
    // so the record no longer matches and the checksum refuses it.
    const flipped = fs.readFileSync(file);
    flipped[flipped.length - 8] ^= 0x10; // u8[0], the last array's first byte
    fs.writeFileSync(file, flipped);
    fs.utimesSync(file, stat.atime, stat.mtime);
    expect(readSnapshot(file, "k1", { now: later })).toBeUndefined();

    // The record is what skips the checksum: one forged for the damaged file lets it through
    // (u8[0] reads 239), which is why only a passed check writes one.
    const now = fs.statSync(file);
    fs.writeFileSync(
      verifiedFile(file),
      `${now.size} ${now.mtimeMs} ${now.ctimeMs} ${now.ino} ${now.dev}`
    );
    const forged = readSnapshot<ReturnType<typeof sample>>(file, "k1", { now: later });
    expect(Array.from(forged!.nested.u8)).toEqual([239, 0, 7]);
  });

  it("refuses what it could not read back (a Map, NaN)", () => {
    expect(() => writeSnapshot(path.join(tmp, "m.snap"), "k", { m: new Map() })).toThrow(/snapshot\.m/);
    expect(() => writeSnapshot(path.join(tmp, "n.snap"), "k", { n: NaN })).toThrow(/snapshot\.n/);
  });

  it("packs polygon lists losslessly", () => {
    const polygons = [
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
        [
          [0.2, 0.2],
          [0.3, 0.2],
          [0.2, 0.2],
        ],
      ],
      [
        [
          [10, 10],
          [11, 10],
          [10, 10],
        ],
      ],
    ] as Array<Array<Array<[number, number]>>>;
    expect(unpackPolygons(packPolygons(polygons))).toEqual(polygons);
  });
});

describe("snapshot cache", () => {
  const saved = process.env.ROUTE_SHEETS_CACHE_DIR;
  let dir: string;
  let dataFile: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(tmp, "cache-"));
    process.env.ROUTE_SHEETS_CACHE_DIR = dir;
    dataFile = path.join(dir, "input.json");
    fs.writeFileSync(dataFile, "[1,2,3]");
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.ROUTE_SHEETS_CACHE_DIR;
    else process.env.ROUTE_SHEETS_CACHE_DIR = saved;
  });

  const inputs = () => ({ dataFiles: [dataFile], code: ["data/snapshot"] });
  const build = jest.fn(() => ({
    values: Float64Array.from(JSON.parse(fs.readFileSync(dataFile, "utf8")) as number[]),
  }));
  const snaps = () => fs.readdirSync(dir).filter((f) => f.endsWith(".snap"));

  it("defaults to the project's own cache folder, not the OS temp folder", () => {
    delete process.env.ROUTE_SHEETS_CACHE_DIR;
    expect(snapshotDir()).toBe(path.join(ROOT, "node_modules", ".cache", "route-sheets"));
    // Not the shared folder of the OS temp directory that every checkout used before.
    expect(snapshotDir()).not.toBe(path.join(os.tmpdir(), "route-sheets-sea-cache"));
  });

  it("builds once, then reads; rebuilds a damaged file and after an input change (the stale file removed)", () => {
    build.mockClear();
    const first = cachedSnapshot("test", inputs(), build);
    expect(first.fromSnapshot).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
    const second = cachedSnapshot("test", inputs(), build);
    expect(second.fromSnapshot).toBe(true);
    expect(build).toHaveBeenCalledTimes(1);
    expect(Array.from(second.value.values)).toEqual([1, 2, 3]);
    expect(second.file.startsWith(dir)).toBe(true);

    const bytes = fs.readFileSync(second.file);
    bytes[bytes.length - 1] ^= 1;
    fs.writeFileSync(second.file, bytes);
    const repaired = cachedSnapshot("test", inputs(), build);
    expect(repaired.fromSnapshot).toBe(false);
    expect(build).toHaveBeenCalledTimes(2);
    expect(cachedSnapshot("test", inputs(), build).fromSnapshot).toBe(true);

    fs.writeFileSync(dataFile, "[4,5]");
    const changed = cachedSnapshot("test", inputs(), build);
    expect(changed.fromSnapshot).toBe(false);
    expect(Array.from(changed.value.values)).toEqual([4, 5]);
    expect(changed.file).not.toBe(second.file);
    expect(snaps()).toEqual([path.basename(changed.file)]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("remembers the key by the inputs' stats (a stamp), and hashes again when one changes", () => {
    build.mockClear();
    const first = cachedSnapshot("test", inputs(), build);
    const stamp = path.join(dir, `test-${path.extname(__filename) === ".ts" ? "ts" : "js"}.stamp`);
    const remembered = JSON.parse(fs.readFileSync(stamp, "utf8")) as { key: string };
    expect(remembered.key).toBe(snapshotKey("test", inputs()));
    expect(first.file).toContain(remembered.key);

    // Same size, new content and time: the stamp no longer matches, the key is hashed anew.
    fs.writeFileSync(dataFile, "[7,8,9]");
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(dataFile, later, later);
    const changed = cachedSnapshot("test", inputs(), build);
    expect(changed.fromSnapshot).toBe(false);
    expect(Array.from(changed.value.values)).toEqual([7, 8, 9]);

    // A damaged stamp is ignored (hashed again), not trusted.
    fs.writeFileSync(stamp, "{not json");
    const again = cachedSnapshot("test", inputs(), build);
    expect(again.fromSnapshot).toBe(true);
    expect(again.file).toBe(changed.file);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("two processes starting at once with no snapshot both get a whole one, and one valid file is left", async () => {
    // Each child builds 8 MB and writes it. Children run the snapshot module's TypeScript itself,
    // transpiled in memory by the project's TypeScript compiler.
    const script = `
      const ts = require("typescript");
      const fs = require("fs");
      const path = require("path");
      require.extensions[".ts"] = (m, file) => {
        const out = ts.transpileModule(fs.readFileSync(file, "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
        m._compile(out.outputText, file);
      };
      const { cachedSnapshot } = require(${JSON.stringify(path.join(ROOT, "src/data/snapshot/cache.ts"))});
      const r = cachedSnapshot("race", { dataFiles: [process.argv[1]], code: ["data/snapshot"] }, () => {
        const a = new Float64Array(1_000_000);
        for (let i = 0; i < a.length; i++) a[i] = i * 0.5;
        return { a };
      });
      let ok = r.value.a.length === 1_000_000 && r.value.a[999_999] === 999_999 * 0.5;
      console.log(JSON.stringify({ ok, fromSnapshot: r.fromSnapshot }));
    `;
    const run = () =>
      new Promise<{ ok: boolean }>((resolve, reject) => {
        const child = spawn(process.execPath, ["-e", script, dataFile], {
          env: { ...process.env, ROUTE_SHEETS_CACHE_DIR: dir },
          cwd: ROOT,
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (err += d));
        child.on("error", reject);
        child.on("close", (code) =>
          code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(err))
        );
      });
    const results = await Promise.all([run(), run()]);
    expect(results.every((r) => r.ok)).toBe(true);
    const left = snaps();
    expect(left).toHaveLength(1);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // What is left is whole: a third start reads it.
    const third = await run();
    expect(third).toEqual({ ok: true, fromSnapshot: true });
  });
});

describe("the shipped sea network's snapshot", () => {
  it("reads back exactly what a fresh build makes, and routes the same", () => {
    const parts = loadSeaParts();
    const fresh = buildSeaNetwork().graph;
    const snap = loadSeaNetwork().graph;
    expect(parts.value.graph).toBe(snap);
    // Byte comparison: Jest's deep equality walks millions of elements far too slowly.
    const same = (a: ArrayBufferView, b: ArrayBufferView): boolean =>
      a.constructor === b.constructor &&
      Buffer.compare(
        Buffer.from(a.buffer, a.byteOffset, a.byteLength),
        Buffer.from(b.buffer, b.byteOffset, b.byteLength)
      ) === 0;
    const sameParts = (a: object, b: object, where: string): void => {
      expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
      for (const [k, v] of Object.entries(a)) {
        const w = (b as Record<string, unknown>)[k];
        if (ArrayBuffer.isView(v)) expect([`${where}.${k}`, same(v, w as ArrayBufferView)]).toEqual([`${where}.${k}`, true]);
        else if (typeof v === "object" && v !== null) sameParts(v, w as object, `${where}.${k}`);
        else if (!k.endsWith("Ms")) expect([`${where}.${k}`, v]).toEqual([`${where}.${k}`, w]);
      }
    };
    sameParts(snap, fresh, "graph");
    const freshTables = buildSeaTables(fresh);
    const tables = loadSeaTables();
    sameParts(tables.chains, freshTables.chains, "chains");
    sameParts(tables.hierarchies[0], freshTables.hierarchies[0], "hierarchy");
    sameParts(loadSnapLand().mask, buildSnapLand().mask, "land");

    const options = { land: loadSnapLand().mask, areas: readPassageAreas() };
    const fromSnapshot = new NetworkSeaRouter(snap, { ...options, chains: tables.chains, hierarchies: tables.hierarchies });
    const fromBuild = new NetworkSeaRouter(fresh, { ...options, chains: freshTables.chains, hierarchies: freshTables.hierarchies });
    const closed = new Set(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"] as const);
    const places = [
      { lat: 31.23, lng: 121.8 },
      { lat: 51.95, lng: 4.05 },
      { lat: 1.26, lng: 103.84 },
      { lat: 33.74, lng: -118.26 },
      { lat: 40.67, lng: -74.04 },
      { lat: -33.9, lng: 18.43 },
    ];
    for (const a of places)
      for (const b of places) {
        if (a === b) continue;
        expect(fromSnapshot.route(a, b, { closed })).toEqual(fromBuild.route(a, b, { closed }));
      }
  });

  it("holds Natural Earth land polygons read back as decoded", () => {
    const polygons = loadLandPolygons();
    expect(polygons.length).toBeGreaterThan(1000);
    expect(polygons[0][0][0]).toHaveLength(2);
  });
});
