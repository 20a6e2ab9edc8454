/**
 * The pane's From/To fields with names: resolveSearch looks them up (the places extension, here
 * the fake of test/client), puts the code or terminal in the query, says what each resolved to,
 * and names the fields as labelled. Codes are shown back in upper case.
 */
import { RouteApiClient } from "../../src/client/api-client";
import {
  emptySearchForm,
  placeDisplayText,
  resolvedLabel,
  resolveSearch,
  SearchFormValues,
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

test("codes are shown back in upper case; coordinates and names as typed", () => {
  expect(placeDisplayText(" cnsha ")).toBe("CNSHA");
  expect(placeDisplayText("nl-rtm")).toBe("NLRTM");
  expect(placeDisplayText("51,95;4,05")).toBe("51,95;4,05");
  expect(placeDisplayText("Rotterdam")).toBe("Rotterdam");
});
