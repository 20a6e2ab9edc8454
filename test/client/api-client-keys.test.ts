/**
 * Two keys in one runtime (a user switching keys, or two accounts on one server): each call must
 * travel with the key it was made with. Batches are grouped per key and identical calls share a
 * flight only under the same key; dropping the key from either grouping fails these tests.
 */
import { RouteApiClient } from "../../src/client/api-client";
import { isApiError } from "../../src/client/errors";
import { ClientSettings } from "../../src/client/settings";
import { fakeMetres, fakeService } from "./fake-service";

/** Settings whose key can be switched between calls, as the pane's Save does. */
function switchableSettings(apiKey: string) {
  const current: ClientSettings = { baseUrl: "http://route.test", apiKey };
  return { current, source: { get: async () => ({ ...current }) } };
}

function clientWith(batch: boolean) {
  const fake = fakeService({ batch });
  const settings = switchableSettings("k1");
  const client = new RouteApiClient({
    settings: settings.source,
    fetch: fake.fetch,
    windowMs: 20,
    maxWaitMs: 200,
    backoff: { baseMs: 5, maxMs: 20 },
  });
  return { client, settings, requests: fake.requests };
}

const outcome = (p: Promise<{ distance: number }>) =>
  p.then(
    (a) => a.distance,
    (e: unknown) => (isApiError(e) ? `${e.status} ${e.title}` : String(e))
  );

test("calls made with different keys in one batch window go in one batch per key", async () => {
  const { client, settings, requests } = clientWith(true);
  const calls: Array<Promise<number | string>> = [];
  const lanes = [
    ["NLRTM", "CNSHA"],
    ["DEHAM", "SGSIN"],
    ["BEANR", "USNYC"],
    ["FRLEH", "JPTYO"],
  ];
  lanes.forEach(([origin, destination], i) => {
    settings.current.apiKey = i % 2 ? "bad" : "k1";
    calls.push(outcome(client.distance({ origin, destination, modality: "DEEPSEA" })));
  });
  const answers = await Promise.all(calls);
  expect(answers).toEqual([
    fakeMetres("NLRTM", "CNSHA", "DEEPSEA"),
    "403 Invalid Key",
    fakeMetres("BEANR", "USNYC", "DEEPSEA"),
    "403 Invalid Key",
  ]);
  const batches = requests.filter((r) => r.url.pathname.endsWith("/batch"));
  expect(batches.map((r) => r.headers["x-api-key"]).sort()).toEqual(["bad", "k1"]);
  for (const batch of batches) {
    const origins = (batch.body as { requests: Array<{ origin: string }> }).requests.map(
      (r) => r.origin
    );
    expect(origins).toEqual(
      batch.headers["x-api-key"] === "k1" ? ["NLRTM", "BEANR"] : ["DEHAM", "FRLEH"]
    );
  }
});

test.each([true, false])(
  "the same question asked with two keys at once is sent once per key (batch extension: %p)",
  async (batch) => {
    const { client, settings, requests } = clientWith(batch);
    const query = { origin: "NLRTM", destination: "CNSHA", modality: "DEEPSEA" };
    settings.current.apiKey = "bad";
    const refused = outcome(client.distance(query));
    settings.current.apiKey = "k1";
    const answered = outcome(client.distance(query));
    expect(await refused).toBe("403 Invalid Key");
    expect(await answered).toBe(fakeMetres("NLRTM", "CNSHA", "DEEPSEA"));
    expect(requests.map((r) => r.headers["x-api-key"]).sort()).toEqual(["bad", "k1"]);
  }
);
