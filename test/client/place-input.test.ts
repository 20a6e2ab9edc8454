/** The one reading of a typed place, shared by the functions and the pane (src/client/place-input.ts). */
import fc from "fast-check";
import { detectPlace, mayBeName, readPlaceInput } from "../../src/client/place-input";
import { placeError } from "../../src/functions/lane-query";
import { PlaceProblem } from "../../src/client/place-lookup";
import { CELL_MESSAGE_LIMIT } from "../../src/functions/excel-errors";

test.each([
  ["NLRTM", { type: "LOCODE", value: "NLRTM" }],
  ["nl rtm", { type: "LOCODE", value: "NLRTM" }],
  ["nl-rtm", { type: "LOCODE", value: "NLRTM" }],
  ["krpus", { type: "LOCODE", value: "KRPUS" }],
  ["51.95,4.05", { type: "GEO", value: "51.95,4.05" }],
  ["51,95;4,05", { type: "GEO", value: "51.95,4.05" }],
  ["51,95 4,05", { type: "GEO", value: "51.95,4.05" }],
  ["51,9 4,1", { type: "GEO", value: "51.9,4.1" }],
  ["51.95 4.05", { type: "GEO", value: "51.95,4.05" }],
  [" -33,9 ; 18,4 ", { type: "GEO", value: "-33.9,18.4" }],
  ["51, 4", { type: "GEO", value: "51,4" }],
  [
    "0B7C3B9E-3F0A-4A52-9A0E-6D2C3F1E0001",
    { type: "TERMINAL", value: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0001" },
  ],
])("%p is read as %p without a look-up", (typed, place) => {
  expect(readPlaceInput(typed)).toEqual({ kind: "PLACE", place });
  expect(detectPlace(typed)).toEqual(place);
});

test.each([
  ["Rotterdam", "Rotterdam"],
  ["Shanghai", "Shanghai"],
  ["Busan", "Busan"],
  ["NLRTM Euromax", "NLRTM Euromax"],
  ["  ECT   Euromax Terminal ", "ECT Euromax Terminal"],
  ["São Paulo", "São Paulo"],
])("%p is a name to look up", (typed, text) => {
  expect(readPlaceInput(typed)).toEqual({ kind: "NAME", text });
  expect(detectPlace(typed)).toBeUndefined();
});

test("blank and malformed input say why, with the fix", () => {
  expect(readPlaceInput(null)).toEqual({ kind: "EMPTY" });
  expect(readPlaceInput("  ")).toEqual({ kind: "EMPTY" });
  expect(readPlaceInput("1,2,3")).toEqual({
    kind: "INVALID",
    problem: "with decimal commas put ; between lat and lng, e.g. 51,95;4,05",
  });
  expect(readPlaceInput("95;4")).toEqual({
    kind: "INVALID",
    problem: "latitude 95 is out of range (lat -90..90, lng -180..180)",
  });
  expect(readPlaceInput("12345")).toMatchObject({ kind: "INVALID" });
});

/** A coordinate with up to 4 decimals, as a number and as its digits. */
const coordinate = (max: number) =>
  fc.integer({ min: -max * 10_000, max: max * 10_000 }).map((n) => n / 10_000);

test("property: decimal commas with ; or a space read as the point form", () => {
  fc.assert(
    fc.property(coordinate(90), coordinate(180), (lat, lng) => {
      const point = readPlaceInput(`${lat},${lng}`);
      const comma = (x: number) => String(x).replace(".", ",");
      expect(point).toEqual({ kind: "PLACE", place: { type: "GEO", value: `${lat},${lng}` } });
      expect(readPlaceInput(`${comma(lat)};${comma(lng)}`)).toEqual(point);
      expect(readPlaceInput(`${comma(lat)} ; ${comma(lng)}`)).toEqual(point);
      expect(readPlaceInput(`${comma(lat)} ${comma(lng)}`)).toEqual(point);
      expect(readPlaceInput(`${lat} ${lng}`)).toEqual(point);
    })
  );
});

test("property: whatever is typed, the cell's message fits (about 100 characters) and names the argument", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 400 }), (typed) => {
      const input = readPlaceInput(typed);
      if (input.kind !== "INVALID" && input.kind !== "EMPTY") return;
      const problem = new PlaceProblem(
        input.kind === "EMPTY" ? "empty" : "invalid",
        typed.trim(),
        input.kind === "EMPTY" ? "is required" : input.problem
      );
      const message = placeError(problem, "destination").message;
      expect(message.length).toBeLessThanOrEqual(CELL_MESSAGE_LIMIT);
      expect(message.startsWith("destination ")).toBe(true);
    })
  );
});

test("five letters not in capitals may be a name: a resolver with a look-up asks it first", () => {
  for (const text of ["busan", "genoa", "dubai", "krpus", "Krpus"])
    expect(mayBeName(text)).toBe(true);
  for (const text of ["KRPUS", "NL RTM", "Rotterdam", "51.95,4.05", ""])
    expect(mayBeName(text)).toBe(false);
});
