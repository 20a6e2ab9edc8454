/**
 * The shipped UN/LOCODE list as its snapshot holds it (src/data/unlocode-snapshot.ts): after a
 * write and a read, every code of data/places-unlocode.csv gives the record the engine's
 * UnlocodeTable gives from the parsed columns, and so does every record in list order; codes not
 * in the list, lower case and malformed ones give nothing, as in the engine's table.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DATA_ROOT, readShippedUnlocode } from "../../src/data/places";
import { packUnlocode, PackedUnlocode, PackedUnlocodeTable } from "../../src/data/unlocode-snapshot";
import { readSnapshot, writeSnapshot } from "../../src/data/snapshot/bundle";
import { UnlocodeTable } from "../../src/engine/places/unlocode-table";

const SOURCE = "UN/LOCODE 2024-2 (test)";

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-unlocode-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("UN/LOCODE snapshot", () => {
  const columns = readShippedUnlocode(path.join(DATA_ROOT, "places-unlocode.csv"));
  const engine = new UnlocodeTable(columns, SOURCE);

  function packedFromFile(): PackedUnlocodeTable {
    const file = path.join(tmp, "unlocode.snap");
    writeSnapshot(file, "k", packUnlocode(columns));
    return new PackedUnlocodeTable(readSnapshot<PackedUnlocode>(file, "k")!, SOURCE);
  }

  it("gives every code of the shipped list the engine table's record, in the list's order", () => {
    const packed = packedFromFile();
    expect(packed.size).toBe(engine.size);
    expect(packed.size).toBeGreaterThan(26_000);
    const all = [...packed.values()];
    expect(all).toEqual([...engine.values()]);
    for (const r of all) expect(packed.get(r.locode)).toEqual(engine.get(r.locode));
    // Regions with diacritics (Ouémé) and positions both present and absent are among them.
    expect(all.some((r) => /[^\x20-\x7e]/.test(r.region ?? ""))).toBe(true);
    expect(all.some((r) => r.lat === undefined)).toBe(true);
  });

  it("gives nothing for codes the list lacks, as the engine table does", () => {
    const packed = packedFromFile();
    let seed = 28;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const probes = ["", "NLRT", "NLRTMX", "nlrtm", "NL RT", "ÅLAND", "ZZZZZ", "00000", "AAAAA"];
    for (let i = 0; i < 3000; i++)
      probes.push(Array.from({ length: 5 }, () => letters[Math.floor(random() * 36)]).join(""));
    let known = 0;
    for (const code of probes) {
      const r = packed.get(code);
      if (r) known++;
      expect({ code, r }).toEqual({ code, r: engine.get(code) });
    }
    expect(packed.get("nlrtm")).toBeUndefined();
    expect(known).toBeGreaterThan(0);
  });
});
