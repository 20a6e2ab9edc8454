import { isRouteSheetsError } from "../../../src/engine/errors";
import { parsePlaceInput } from "../../../src/engine/places";

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isRouteSheetsError(e)) return e;
    throw e;
  }
  throw new Error("expected an error");
}

describe("parsePlaceInput", () => {
  it.each([
    ["NLRTM", "NLRTM"],
    ["nlrtm", "NLRTM"],
    ["NL RTM", "NLRTM"],
    ["nl-rtm", "NLRTM"],
    ["  DEHAM ", "DEHAM"],
    ["USNY2", "USNY2"],
  ])("reads %p as LOCODE %p", (input, locode) => {
    expect(parsePlaceInput(input, "origin")).toEqual({ kind: "LOCODE", locode });
  });

  it("reads terminal UUIDs of any version and case, lower-cased", () => {
    expect(parsePlaceInput("3F2B8C1E-9D4A-5B6C-8E7F-0A1B2C3D4E5F", "origin")).toEqual({
      kind: "TERMINAL",
      id: "3f2b8c1e-9d4a-5b6c-8e7f-0a1b2c3d4e5f",
    });
    expect(parsePlaceInput("f47ac10b-58cc-4372-a567-0e02b2c3d479", "destination")).toEqual({
      kind: "TERMINAL",
      id: "f47ac10b-58cc-4372-a567-0e02b2c3d479",
    });
  });

  it.each([
    ["51.9,4.1", 51.9, 4.1],
    ["51.9, 4.1", 51.9, 4.1],
    [" -33.8688 , 151.2093 ", -33.8688, 151.2093],
    ["-33.8688,151.2093", -33.8688, 151.2093],
    ["90,180", 90, 180],
    ["-90,-180", -90, -180],
    ["0,0", 0, 0],
    ["+1.5,.25", 1.5, 0.25],
  ])("reads %p as coordinates", (input, lat, lng) => {
    expect(parsePlaceInput(input, "origin")).toEqual({ kind: "GEO", lat, lng });
  });

  it.each(["91,0", "-90.0001,0", "0,180.5", "10,-181"])(
    "rejects out-of-range %p naming the parameter",
    (input) => {
      const e = errorOf(() => parsePlaceInput(input, "destination"));
      expect(e.title).toBe("Incorrect Values");
      expect(e.status).toBe(400);
      expect(e.parameter).toBe("destination");
      expect(e.detail).toMatch(/^destination /);
      expect(e.detail).toMatch(/out of range/);
      expect(e.detail).toMatch(/\[-90,90\]/);
    }
  );

  it.each([
    "abc",
    "NLRT",
    "NLRTMX",
    "NL  RTM",
    "NLRT1",
    "51.9;4.1",
    "51.9,",
    "lat,lng",
    "1,2,3",
    "3f2b8c1e-9d4a-5b6c-8e7f-0a1b2c3d4e5",
    "",
  ])("rejects malformed %p with the allowed forms", (input) => {
    const e = errorOf(() => parsePlaceInput(input, "origin"));
    expect(e.title).toBe("Incorrect Values");
    expect(e.parameter).toBe("origin");
    expect(e.detail).toMatch(/^origin /);
    expect(e.detail).toContain("UN/LOCODE");
    expect(e.detail).toContain("terminal UUID");
    expect(e.detail).toContain("lat,lng");
  });
});
