/**
 * The pane's From/To fields with names: resolveSearch looks them up (the places extension, here
 * the fake of test/client), puts the code or terminal in the query, says what each resolved to,
 * and names the fields as labelled. What the user typed stays in the field; the service's refusals
 * are worded as the fields are labelled, an unknown code with the look-up's suggestion.
 */
import { RouteApiClient } from "../../src/client/api-client";
import { ApiError } from "../../src/client/errors";
import {
  emptySearchForm,
  resolvedLabel,
  resolveSearch,
  SearchFormValues,
  serviceFieldError,
  wordedDetail,
} from "../../src/taskpane/search-form";
import { fakeService, settingsOf } from "../client/fake-service";

const form = (over: Partial<SearchFormValues>): SearchFormValues => ({
  ...emptySearchForm(),
  ...over,
});

function client() {
  const fake = fakeService({ batch: true });
  return { client: new RouteApiClient({ settings: settingsOf("k1"), fetch: fake.fetch }), fake };
}

test("names resolve into the query; the badges say what they resolved to", async () => {
  const { client: c, fake } = client();
  const built = await resolveSearch(form({ origin: "Rotterdam", destination: "NLRTM Euromax" }), c);
  expect(built.errors).toEqual([]);
  expect(built.params).toMatchObject({
    origin: "NLRTM",
    originType: "LOCODE",
    destination: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0003",
    destinationType: "TERMINAL",
  });
  expect(resolvedLabel(built.places!.origin!)).toBe("NLRTM · Rotterdam");
  expect(resolvedLabel(built.places!.destination!)).toBe("TERMINAL · ECT Euromax (NLRTM)");
  expect(built.queryString).toContain("origin=NLRTM");
  expect(fake.requests.map((r) => r.url.pathname)).toEqual([
    "/route-information/api/places",
    "/route-information/api/places",
  ]);
});

test("an unknown name is an error on its field, labelled as the pane labels it, with the suggestion", async () => {
  const { client: c } = client();
  const built = await resolveSearch(form({ origin: "KRPUX Port", destination: "Rotterdm" }), c);
  expect(built.params).toBeUndefined();
  expect(built.errors).toEqual([
    { field: "origin", message: 'From: unknown place "KRPUX Port"' },
    {
      field: "destination",
      message: 'To: unknown place "Rotterdm" — did you mean NLRTM (Rotterdam)?',
    },
  ]);
});

test("lower-case names (busan, genoa) are names, looked up, not codes", async () => {
  const { client: c } = client();
  const built = await resolveSearch(form({ origin: "busan", destination: "rotterdam" }), c);
  expect(built.errors).toEqual([]);
  expect(built.params).toMatchObject({ origin: "KRPUS", destination: "NLRTM" });
  expect(resolvedLabel(built.places!.origin!)).toBe("KRPUS · Busan");
});

test('the service\'s refusals in words: an unknown code with "did you mean", parameters as labelled', async () => {
  const { client: c } = client();
  const unknown = new ApiError(
    404,
    "Unknown Data",
    "origin KRPUX is not a known UN/LOCODE; allowed forms: a UN/LOCODE (NLRTM), a terminal id (0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0003) or lat,lng"
  );
  expect(await serviceFieldError(unknown, c)).toEqual({
    field: "origin",
    message: 'From: unknown place "KRPUX" — did you mean KRPUS (Busan)?',
  });
  const tooMany = new ApiError(400, "Incorrect Values", "allRequiredLocodes holds at most 6 items");
  expect(await serviceFieldError(tooMany, c)).toEqual({
    field: "allRequiredLocodes",
    message: "Must call at all of holds at most 6 items",
  });
  expect(wordedDetail("querystring/maxTransfers must be integer")).toBe(
    "Max transfers must be integer"
  );
  expect(wordedDetail("query parameter allRequiredLocodes holds at most 6 items.")).toBe(
    "Must call at all of holds at most 6 items."
  );
  // Every message fits beside its field, with no id or list of every form.
  const long = wordedDetail(
    `destination "x" is not allowed; allowed forms: ${"a long list, ".repeat(30)}`
  );
  expect(long.length).toBeLessThanOrEqual(160);
  expect(long).toMatch(/^To "x" is not allowed/);
  expect(await serviceFieldError(new ApiError(500, "Internal", "boom"), c)).toBeUndefined();
});
