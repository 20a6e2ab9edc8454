/**
 * Issue 31 Must fix 4: the place index (the shipped UN/LOCODE list and a data directory's own
 * import) is built before the service listens, so neither /health nor the first /places waits for
 * it, on every restart; so is the towns' index, which a first unknown name would build otherwise.
 */
import * as fs from "fs";
import * as path from "path";
import { loadEngine } from "../../src/data/load-engine";
import { importUnlocode } from "../../src/data/places";
import { RunningService } from "../../src/service/server";
import { createAccountWithKey } from "../../src/service";
import { startQuietService, tempDir } from "./support";

let dir: string;
beforeAll(() => {
  dir = tempDir("places-index-");
  // A synthetic code list of 20,000 places (UNECE's columns, no header), like a full import.
  const rows: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const code = ((i * 7919) % 17576).toString(26).padStart(3, "0");
    const loc = [...code].map((c) => String.fromCharCode(65 + parseInt(c, 26))).join("");
    const cc = ["ZA", "ZM", "ZW", "YE"][Math.floor(i / 17576) + (i % 2)];
    rows.push(
      `,"${cc}","${loc}","Testplace ${i} Nord","Testplace ${i} Nord","","RL","--3-----","0601","","${String(10 + (i % 50)).padStart(2, "0")}00S 0${String(20 + (i % 30))}00E",""`
    );
  }
  fs.writeFileSync(path.join(dir, "list.csv"), rows.join("\n"));
  importUnlocode([path.join(dir, "list.csv")], dir);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("the index is built before listening: /health and the first /places do not build it", async () => {
  const engine = loadEngine({ dataDir: dir });
  expect(engine.placesReady).toBe(false);
  let running: RunningService | undefined;
  try {
    const started = await startQuietService({ engine, dataDir: dir, optimizer: undefined });
    running = started.running;
    // Ready as soon as the server listens, before any request.
    expect(engine.placesReady).toBe(true);
    const health = await fetch(`${running.url}/health`);
    expect(health.status).toBe(200);
    const { key } = await createAccountWithKey(started.store, { tier: "free", credits: 1 });
    const res = await fetch(
      `${running.url}/route-information/api/places?q=Testplace%2012345%20Nord`,
      {
        headers: { "x-api-key": key },
      }
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { name: string }[] };
    expect(body.results[0].name).toBe("Testplace 12345 Nord");
    // A name only the towns know (their index was built before listening too).
    const town = await fetch(`${running.url}/route-information/api/places?q=Kandy`, {
      headers: { "x-api-key": key },
    });
    expect(((await town.json()) as { results: { name: string }[] }).results[0].name).toBe("Kandy");
  } finally {
    await running?.close();
  }
}, 120_000);
