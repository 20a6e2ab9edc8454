/**
 * data/sea-shortcuts.json is generated (src/builders/make-sea-shortcuts.ts): it must match its inputs,
 * join vertices of the network, and every edge must pass the generator's clearance test again.
 */
import * as fs from "fs";
import { loadSeaNetwork, readSeaShortcuts } from "../../../src/data/sea";
import {
  clearanceChecker,
  shortcutInputsHash,
  SHORTCUTS_FILE,
  ShortcutFile,
} from "../../../src/builders/make-sea-shortcuts";

const file = JSON.parse(fs.readFileSync(SHORTCUTS_FILE, "utf8")) as ShortcutFile;

describe("generated open-sea shortcuts", () => {
  it("states its provenance and is up to date with its inputs (else: node dist/builders/make-sea-shortcuts.js)", () => {
    expect(file.provenance).toContain("make-sea-shortcuts.ts");
    expect(file.inputsSha256).toBe(shortcutInputsHash());
    expect(file.shortcuts.length).toBeGreaterThan(100);
  });

  it("joins vertices of the network lines (each end also has a non-shortcut edge)", () => {
    const { graph } = loadSeaNetwork();
    const onLines = new Set<string>();
    for (let e = 0; e < graph.snapEdgeCount; e++) {
      for (const v of [graph.edgeA[e], graph.edgeB[e]])
        onLines.add(`${graph.lat[v]}:${graph.lng[v]}`);
    }
    const missing = file.shortcuts
      .flatMap(([lngA, latA, lngB, latB]) => [`${latA}:${lngA}`, `${latB}:${lngB}`])
      .filter((k) => !onLines.has(k));
    expect(missing).toEqual([]);
    expect(graph.edgeCount).toBeGreaterThan(graph.snapEdgeCount);
    expect(readSeaShortcuts()).toHaveLength(file.shortcuts.length);
  });

  it("every edge keeps clear of land, the coastal margin, passage areas and ice latitudes", () => {
    const checker = clearanceChecker();
    const blocked = file.shortcuts.filter(
      ([lngA, latA, lngB, latB]) =>
        !checker.isClear({ lat: latA, lng: lngA }, { lat: latB, lng: lngB })
    );
    expect(blocked).toEqual([]);
    // And the check can fail: straight across Africa, or through the Suez area, is refused.
    expect(checker.isClear({ lat: 5, lng: 5 }, { lat: 0, lng: 45 })).toBe(false);
    expect(checker.isClear({ lat: 33.5, lng: 31 }, { lat: 28, lng: 33.5 })).toBe(false);
    expect(checker.isClear({ lat: 40, lng: -40 }, { lat: 45, lng: -30 })).toBe(true);
  }, 60_000);
});
