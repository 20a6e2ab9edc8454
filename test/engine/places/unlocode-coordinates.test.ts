import { parseUnlocodeCoordinates, UnlocodeCollector } from "../../../src/engine/places";

describe("parseUnlocodeCoordinates", () => {
  it("converts degrees and minutes to decimal degrees", () => {
    expect(parseUnlocodeCoordinates("5155N 00430E")).toEqual({ lat: 51.9167, lng: 4.5 });
    expect(parseUnlocodeCoordinates("4230N 00131E")).toEqual({ lat: 42.5, lng: 1.5167 });
  });

  it("makes south and west negative", () => {
    expect(parseUnlocodeCoordinates("3352S 15113E")).toEqual({ lat: -33.8667, lng: 151.2167 });
    expect(parseUnlocodeCoordinates("4042N 07400W")).toEqual({ lat: 40.7, lng: -74 });
    expect(parseUnlocodeCoordinates("2357S 04620W")).toEqual({ lat: -23.95, lng: -46.3333 });
  });

  it("tolerates a missing space and lower case", () => {
    expect(parseUnlocodeCoordinates("5155n00430e")).toEqual({ lat: 51.9167, lng: 4.5 });
  });

  it.each(["", "   ", "5155N", "9961N 00430E", "5155N 18100E", "515N 00430E", "abc"])(
    "gives no coordinates for %p",
    (field) => {
      expect(parseUnlocodeCoordinates(field)).toBeUndefined();
    }
  );
});

describe("UnlocodeCollector", () => {
  it("skips headers and X rows, keeps the first copy that has coordinates", () => {
    const c = new UnlocodeCollector();
    c.add(["", "NL", "", ".NETHERLANDS", "", "", "", "", "", "", "", ""]);
    c.add(["X", "NL", "OLD", "Old", "Old", "", "RL", "--3-----", "0501", "", "5200N 00500E", ""]);
    c.add(["", "NL", "RTM", "Rotterdam", "Rotterdam", "ZH", "AI", "12345---", "0501", "", "", ""]);
    c.add([
      "",
      "NL",
      "RTM",
      "Rotterdam",
      "Rotterdam",
      "ZH",
      "AI",
      "12345---",
      "0501",
      "",
      "5155N 00430E",
      "",
    ]);
    c.add(["", "NL", "RT", "Bad", "Bad", "", "", "", "", "", "", ""]);
    // Function before Status, as some exports have it.
    c.add([
      "",
      "NL",
      "AMS",
      "Amsterdam",
      "Amsterdam",
      "NH",
      "--345---",
      "AI",
      "0501",
      "",
      "5223N 00454E",
      "",
    ]);
    expect(c.stats()).toEqual({
      rows: 6,
      headers: 1,
      deleted: 1,
      malformed: 1,
      duplicates: 1,
      imported: 2,
      withCoordinates: 2,
    });
    const byCode = Object.fromEntries(c.locations().map((l) => [l.locode, l]));
    expect(byCode.NLRTM).toMatchObject({
      lat: 51.9167,
      lng: 4.5,
      status: "AI",
      functions: "12345---",
    });
    expect(byCode.NLAMS).toMatchObject({
      status: "AI",
      functions: "--345---",
      lat: 52.3833,
      lng: 4.9,
    });
  });
});
