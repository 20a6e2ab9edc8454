/**
 * The one place grammar, read the same by the service (parsePlaceInput) and the add-in
 * (detectPlace): every case is checked through both, so they cannot drift apart again.
 */
import { parsePlaceInput } from "../../../src/engine/places/parse-place";
import { placeText, readPlace } from "../../../src/engine/places/place-grammar";
import { detectPlace } from "../../../src/client/place-input";

const PLACES: Array<[string, ReturnType<typeof readPlace>, string]> = [
  ["NLRTM", { kind: "LOCODE", locode: "NLRTM" }, "NLRTM"],
  ["nl-rtm", { kind: "LOCODE", locode: "NLRTM" }, "NLRTM"],
  [" de dui ", { kind: "LOCODE", locode: "DEDUI" }, "DEDUI"],
  ["USNY2", { kind: "LOCODE", locode: "USNY2" }, "USNY2"],
  [
    "0B7C3B9E-3F0A-4A52-9A0E-6D2C3F1E0001",
    { kind: "TERMINAL", id: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0001" },
    "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0001",
  ],
  ["51.95,4.14", { kind: "GEO", lat: 51.95, lng: 4.14 }, "51.95,4.14"],
  ["+51.9,4.1", { kind: "GEO", lat: 51.9, lng: 4.1 }, "51.9,4.1"],
  [".5,4", { kind: "GEO", lat: 0.5, lng: 4 }, "0.5,4"],
  ["-33.9 , 151.2", { kind: "GEO", lat: -33.9, lng: 151.2 }, "-33.9,151.2"],
  ["-0,0", { kind: "GEO", lat: 0, lng: 0 }, "0,0"],
];

test.each(PLACES)("%p is a place for the service and the add-in alike", (input, form, text) => {
  expect(readPlace(input)).toEqual(form);
  expect(parsePlaceInput(input, "origin")).toEqual(form);
  expect(detectPlace(input)).toEqual({ type: form.kind, value: text });
  expect(placeText(form as never)).toBe(text);
});

// The add-in reads more than the grammar (names, "51,9;4,1"): test/client/place-input.test.ts.
test.each(["Rotterdam", "NLRT1", "1,2,3", "lat,lng", "95,4", "1,200", ""])(
  "%p is not a place for either",
  (input) => {
    expect(detectPlace(input)).toBeUndefined();
    let service = "";
    try {
      parsePlaceInput(input, "destination");
    } catch (e) {
      const problem = e as { detail: string; kind: string; parameter: string };
      expect([problem.kind, problem.parameter]).toEqual(["bad-value", "destination"]);
      service = problem.detail;
    }
    expect(service).toMatch(/^destination /);
  }
);

test("out of range names the axis", () => {
  expect(readPlace("91,0")).toEqual({ kind: "OUT_OF_RANGE", axis: "latitude", value: "91" });
  expect(readPlace("0,-180.5")).toEqual({
    kind: "OUT_OF_RANGE",
    axis: "longitude",
    value: "-180.5",
  });
  expect(readPlace(null)).toEqual({ kind: "EMPTY" });
});
