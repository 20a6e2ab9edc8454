import { toUnlocodeColumns, UnlocodeLocation, UnlocodeTable } from "../../../src/engine/places";

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
