import * as path from "path";
import { v5 as uuidv5, version as uuidVersion } from "uuid";
import {
  foldText,
  makeTerminal,
  TERMINAL_ID_NAMESPACE,
  terminalId,
  TerminalRegistry,
} from "../../../src/engine/places";
import { readTerminalsCsv } from "../../../src/data/places";

const FIXTURE = path.join(__dirname, "../../fixtures/terminals-sample.csv");

function registry(): TerminalRegistry {
  return new TerminalRegistry(readTerminalsCsv(FIXTURE).map(makeTerminal));
}

const names = (ts: { name: string }[]) => ts.map((t) => t.name);

describe("foldText", () => {
  it("drops case and accents and spells out special letters", () => {
    expect(foldText("Süd-West Große Straße")).toBe("sud-west grosse strasse");
    expect(foldText("Łódź Ørsted Århus")).toBe("lodz orsted arhus");
  });
});

describe("terminal ids", () => {
  it("are UUID v5 of LOCODE:name in the fixed namespace", () => {
    const id = terminalId("nlrtm", " ECT  Delta Terminal ");
    expect(id).toBe(uuidv5("NLRTM:ECT Delta Terminal", TERMINAL_ID_NAMESPACE));
    expect(uuidVersion(id)).toBe(5);
    // Pinned so a changed namespace or key format is noticed: ids must stay stable across installs.
    expect(id).toBe("f98c2ec7-76a4-5bef-b60a-3ac356af5dd2");
  });
});

describe("TerminalRegistry.search", () => {
  const reg = registry();

  it("lists all terminals of a LOCODE by name when no name is given", () => {
    expect(names(reg.search("NLRTM"))).toEqual([
      "APM Terminals Maasvlakte II",
      "Delta Barge Feeder Terminal",
      "ECT Delta Terminal",
      "ECT Euromax Terminal",
      "Rotterdam World Gateway",
    ]);
    expect(reg.search("nlrtm", "   ")).toHaveLength(5);
    expect(reg.search("NLRTM", " - ")).toHaveLength(5);
  });

  it("finds by a partial word", () => {
    expect(names(reg.search("NLRTM", "euromax"))).toEqual(["ECT Euromax Terminal"]);
    expect(names(reg.search("NLRTM", "Euro"))).toEqual(["ECT Euromax Terminal"]);
  });

  it("ignores word order and ranks the better match first", () => {
    expect(names(reg.search("NLRTM", "delta ect"))).toEqual(["ECT Delta Terminal"]);
    // Both have "delta"; the shorter name with an exact word first.
    expect(names(reg.search("NLRTM", "delta"))).toEqual([
      "ECT Delta Terminal",
      "Delta Barge Feeder Terminal",
    ]);
  });

  it("ranks exact words above prefixes above substrings", () => {
    // "term" is a prefix of "Terminal(s)" in four names; Rotterdam World Gateway has no such word.
    expect(names(reg.search("NLRTM", "term"))).not.toContain("Rotterdam World Gateway");
    // "max" only occurs inside "Euromax": a substring match still finds it.
    expect(names(reg.search("NLRTM", "max"))).toEqual(["ECT Euromax Terminal"]);
    expect(names(reg.search("NLRTM", "ect terminal"))[0]).toBe("ECT Delta Terminal");
  });

  it("matches roman numerals and digits both ways", () => {
    expect(names(reg.search("NLRTM", "maasvlakte 2"))).toEqual(["APM Terminals Maasvlakte II"]);
    expect(names(reg.search("NLRTM", "maasvlakte ii"))).toEqual(["APM Terminals Maasvlakte II"]);
    expect(names(reg.search("DEDUI", "logport 1"))).toEqual(["Logport I Rheinhausen"]);
  });

  it("is case- and diacritics-insensitive", () => {
    expect(names(reg.search("DEHAM", "grosse elbstrasse"))).toEqual([
      "Süd-West Terminal Große Elbstraße",
    ]);
    expect(names(reg.search("DEHAM", "SUD WEST"))).toEqual(["Süd-West Terminal Große Elbstraße"]);
    expect(names(reg.search("PLGDN", "gdansk"))).toEqual(["Baltic Hub Gdańsk"]);
  });

  it("finds words typed together", () => {
    expect(names(reg.search("NLRTM", "euromaxterminal"))).toEqual(["ECT Euromax Terminal"]);
  });

  it("returns an empty array when nothing matches or the LOCODE has no terminals", () => {
    expect(reg.search("NLRTM", "tollerort")).toEqual([]);
    expect(reg.search("NLRTM", "ect zzz")).toEqual([]);
    expect(reg.search("BEANR")).toEqual([]);
  });

  it("returns terminals with id, name, locode, coordinates and modalities", () => {
    const [t] = reg.search("NLRTM", "euromax");
    expect(t).toMatchObject({
      id: terminalId("NLRTM", "ECT Euromax Terminal"),
      name: "ECT Euromax Terminal",
      locode: "NLRTM",
      lat: 51.98,
      lng: 4.045,
      modalities: ["DEEPSEA", "BARGE", "RAIL", "TRUCK"],
      operator: "Hutchison Ports ECT Rotterdam",
    });
    expect(reg.byId(t.id.toUpperCase())).toBe(t);
    expect(reg.byId("00000000-0000-4000-8000-000000000000")).toBeUndefined();
  });
});
