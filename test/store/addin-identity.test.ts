/**
 * The add-in's identity in the store (SQLite and a real PostgreSQL): one Id and name per
 * deployment, one build number per add-in build, the same for every instance that asks, also
 * when several ask at once.
 */
import * as fs from "node:fs";
import { PostgresStore } from "../../src/service/store/postgres";
import { SqliteStore } from "../../src/service/store/sqlite";
import { Store } from "../../src/service/store/store";
import { tempDir } from "../service/support";
import { PostgresServer, startPostgres } from "../support/servers";

let postgres: PostgresServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await postgres?.stop();
});

const ID_A = "0f8fad5b-d9cb-469f-a165-70867728950e";
const ID_B = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/** `n` stores on one fresh database: n instances of one deployment. */
const adapters: Array<{ name: string; open(n: number): Promise<Store[]> }> = [
  {
    name: "SQLite",
    async open(n) {
      const dir = tempDir("route-sheets-identity-");
      const stores = Array.from({ length: n }, () => SqliteStore.open(dir));
      cleanups.push(async () => {
        for (const s of stores) await s.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return stores;
    },
  },
  {
    name: "PostgreSQL",
    async open(n) {
      const url = await postgres.createDatabase("identity");
      const stores: Store[] = [];
      for (let i = 0; i < n; i++) stores.push(await PostgresStore.connect(url));
      cleanups.push(async () => {
        for (const s of stores) await s.close();
      });
      return stores;
    },
  },
];

describe.each(adapters)("$name", (adapter) => {
  test("the first claim keeps its Id; later claims and other instances get the same Id, name and build", async () => {
    const [a, b] = await adapter.open(2);
    expect(await a.addinIdentity({ fingerprint: "f1", firstId: ID_A })).toEqual({
      id: ID_A,
      name: null,
      build: 1,
    });
    // Another instance proposing another Id (its own data directory's) gets the stored one.
    expect(await b.addinIdentity({ fingerprint: "f1", firstId: ID_B })).toEqual({
      id: ID_A,
      name: null,
      build: 1,
    });
    // A new build: the next number, for everyone; the old build keeps its number.
    expect((await b.addinIdentity({ fingerprint: "f2", firstId: ID_B })).build).toBe(2);
    expect((await a.addinIdentity({ fingerprint: "f2", firstId: ID_A })).build).toBe(2);
    expect((await a.addinIdentity({ fingerprint: "f1", firstId: ID_A })).build).toBe(1);
  });

  test("--addin-id and --addin-name replace what is stored, for every instance", async () => {
    const [a, b] = await adapter.open(2);
    await a.addinIdentity({ fingerprint: "f1", firstId: ID_A });
    expect(
      await a.addinIdentity({ fingerprint: "f1", firstId: ID_A, id: ID_B, name: "Routes (prod)" })
    ).toEqual({ id: ID_B, name: "Routes (prod)", build: 1 });
    expect(await b.addinIdentity({ fingerprint: "f1", firstId: ID_A })).toEqual({
      id: ID_B,
      name: "Routes (prod)",
      build: 1,
    });
  });

  test("a data directory's earlier build number is a floor, so the version never goes down", async () => {
    const [a] = await adapter.open(1);
    expect((await a.addinIdentity({ fingerprint: "f1", firstId: ID_A, minBuild: 7 })).build).toBe(
      7
    );
    expect((await a.addinIdentity({ fingerprint: "f2", firstId: ID_A, minBuild: 7 })).build).toBe(
      8
    );
  });

  test("instances claiming new builds at once: one number per build, no two builds alike", async () => {
    const stores = await adapter.open(4);
    const claims = await Promise.all(
      stores.flatMap((s, i) =>
        ["f1", "f2", "f3"].map((f) =>
          s.addinIdentity({ fingerprint: f, firstId: [ID_A, ID_B][i % 2] })
        )
      )
    );
    expect(new Set(claims.map((c) => c.id)).size).toBe(1);
    const byFingerprint = new Map<number, Set<number>>();
    claims.forEach((c, i) => {
      const f = i % 3;
      byFingerprint.set(f, (byFingerprint.get(f) ?? new Set()).add(c.build));
    });
    const builds = [...byFingerprint.values()].map((s) => [...s]);
    for (const b of builds) expect(b).toHaveLength(1);
    expect(builds.map((b) => b[0]).sort()).toEqual([1, 2, 3]);
  });
});
