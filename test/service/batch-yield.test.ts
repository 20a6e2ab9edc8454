/**
 * A large batch gives the event loop back while it computes (issue 21: large paid batches pushed
 * other callers' /distance p99 to 257 ms). Checked by order, not by time: a /distance sent once
 * the batch has started computing is computed, and answered, before the batch's last item.
 */
import * as fs from "node:fs";
import { DistanceQuery, RouteEngine } from "../../src/engine/route-engine";
import { DistanceResult } from "../../src/engine/types";
import { createAccountWithKey } from "../../src/service/accounts";
import { startQuietService, testEngine } from "./support";

/** The real engine, recording the order of its distance calls and telling when the first comes. */
class RecordingEngine extends RouteEngine {
  readonly calls: string[] = [];
  onFirstBatchItem: (() => void) | undefined;

  distance(query: DistanceQuery): DistanceResult {
    this.calls.push(`${query.origin}-${query.destination}`);
    if (query.origin === "NLRTM" && this.onFirstBatchItem) {
      const start = this.onFirstBatchItem;
      this.onFirstBatchItem = undefined;
      start();
    }
    return super.distance(query);
  }
}

test("a /distance sent while a 1,000-item batch computes is answered before the batch's last item is computed", async () => {
  const engine = new RecordingEngine(testEngine().parts);
  const { running: service, store, dataDir } = await startQuietService({ engine, optimizer: null });
  try {
    const batchCaller = await createAccountWithKey(store, { credits: 5000 });
    const other = await createAccountWithKey(store, { credits: 10 });
    const single = `${service.url}/route-information/api/distance?origin=BEANR&destination=DEHAM&modality=TRUCK`;
    // Both lanes computed once, so every call below is equally cheap (cached). The warm-up spells
    // the origin in lower case: /distance remembers answers per lane as spelled, so the measured
    // call still reaches the engine (and is recorded), which answers it from its own cache.
    const warmUp = await fetch(single.replace("origin=BEANR", "origin=beanr"), {
      headers: { "x-api-key": other.key },
    });
    expect(warmUp.status).toBe(200);
    await warmUp.arrayBuffer();
    const items = Array.from({ length: 1000 }, () => ({
      type: "distance",
      origin: "NLRTM",
      destination: "DEHAM",
      modality: "TRUCK",
    }));
    const answered: string[] = [];
    let singleAnswer: Promise<Response> | undefined;
    engine.onFirstBatchItem = () => {
      singleAnswer = fetch(single, { headers: { "x-api-key": other.key } }).then((r) => {
        answered.push("single");
        return r;
      });
    };
    engine.calls.length = 0;
    const batch = await fetch(`${service.url}/route-information/api/batch`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": batchCaller.key },
      body: JSON.stringify({ requests: items }),
    });
    answered.push("batch");
    expect(batch.status).toBe(200);
    const { results } = (await batch.json()) as { results: Array<{ status: number }> };
    expect(results.filter((r) => r.status === 200)).toHaveLength(1000);
    const res = await singleAnswer!;
    expect(res.status).toBe(200);

    // The single call was computed between batch items, not after the last one…
    const at = engine.calls.indexOf("BEANR-DEHAM");
    expect(engine.calls.filter((c) => c === "NLRTM-DEHAM")).toHaveLength(1000);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(engine.calls.length - 1);
    // …and its answer reached the client before the batch's.
    expect(answered).toEqual(["single", "batch"]);
    // Both paid exactly: 1,000 items and one call.
    expect((await store.accountState(batchCaller.account.id))!.credits).toBe(4000);
    expect((await store.accountState(other.account.id))!.credits).toBe(8);
  } finally {
    await service.close();
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
