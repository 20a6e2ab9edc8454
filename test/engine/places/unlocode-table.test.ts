import fc from "fast-check";
import {
  codeNumber,
  toUnlocodeColumns,
  UnlocodeLocation,
  UnlocodeTable,
} from "../../../src/engine/places";

const LOCATIONS: UnlocodeLocation[] = [
  {
    locode: "NLRTM",
    name: "Rotterdam",
    subdivision: "ZH",
    status: "AI",
    functions: "12345---",
    lat: 51.9167,
    lng: 4.5,
  },
  {
    locode: "ADFMO",
    name: "La Farga de Moles",
    subdivision: "",
    status: "RQ",
    functions: "--3----B",
  },
  {
    locode: "DEHAM",
    name: "Hamburg",
    subdivision: "HH",
    status: "AI",
    functions: "12345---",
    lat: 53.55,
    lng: 9.9667,
  },
  {
    locode: "AUSYD",
    name: "Sydney",
    subdivision: "NSW",
    status: "AI",
    functions: "1234----",
    lat: -33.8667,
    lng: 151.2167,
  },
];

describe("UnlocodeTable", () => {
  const table = new UnlocodeTable(toUnlocodeColumns(LOCATIONS), "UN/LOCODE test");

  it("finds every code by binary search, and nothing else", () => {
    expect(table.size).toBe(4);
    for (const l of LOCATIONS) expect(table.get(l.locode)?.name).toBe(l.name);
    for (const code of ["AAAAA", "ZZZZZ", "DEHAN", "NLRTN", "NLRT", ""])
      expect(table.get(code)).toBeUndefined();
  });

  it("gives records with coordinates only when the list has them, with function and subdivision", () => {
    expect(table.get("AUSYD")).toEqual({
      locode: "AUSYD",
      name: "Sydney",
      lat: -33.8667,
      lng: 151.2167,
      functions: "1234----",
      subdivision: "NSW",
      source: "UN/LOCODE test",
    });
    expect(table.get("ADFMO")).toEqual({
      locode: "ADFMO",
      name: "La Farga de Moles",
      functions: "--3----B",
      source: "UN/LOCODE test",
    });
    expect(table.location("NLRTM")).toEqual(LOCATIONS[0]);
    expect(table.location("ADFMO")).toEqual(LOCATIONS[1]);
  });

  it("iterates in LOCODE order", () => {
    expect([...table.values()].map((r) => r.locode)).toEqual(["ADFMO", "AUSYD", "DEHAM", "NLRTM"]);
  });
});

describe("codeNumber (the table's search key)", () => {
  const CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split("");
  const code = fc
    .array(fc.constantFrom(...CHARS), { minLength: 5, maxLength: 5 })
    .map((cs) => cs.join(""));

  it("orders random codes as their strings order, and is one-to-one", () => {
    fc.assert(
      fc.property(code, code, (a, b) => {
        const [x, y] = [codeNumber(a, 0), codeNumber(b, 0)];
        expect(x).toBeGreaterThanOrEqual(0);
        expect(Math.sign(x - y)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
      { numRuns: 2000, seed: 28 }
    );
  });

  it("refuses what is not a digit or capital, so such input is never found", () => {
    expect(codeNumber("nlrtm", 0)).toBe(-1);
    expect(codeNumber("NL-TM", 0)).toBe(-1);
    expect(codeNumber("XXNLRTMXX", 2)).toBe(codeNumber("NLRTM", 0));
    const table = new UnlocodeTable(toUnlocodeColumns(LOCATIONS), "UN/LOCODE test");
    for (const c of ["nlrtm", "NLRTM ", "NL RTM"]) expect(table.get(c)).toBeUndefined();
    expect(table.get("NLRTM")?.name).toBe("Rotterdam");
  });
});
