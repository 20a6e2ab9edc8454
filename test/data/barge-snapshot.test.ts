import { loadBargeNetwork, loadWaterwaysFile } from "../../src/data/inland";
import { waterwaySegmentsSnapshot } from "../../src/data/snapshot";
import { BargeNetwork, measureSegments } from "../../src/engine/routing/inland/barge-network";
import * as path from "path";

describe("barge network from its snapshot", () => {
  it("has the edges, lengths and reaches of a network measured from the file", () => {
    const file = loadWaterwaysFile();
    const measured = new BargeNetwork(file);
    loadBargeNetwork(); // writes the snapshot when there is none
    const stored = waterwaySegmentsSnapshot(
      path.join(__dirname, "..", "..", "data", "waterways.json"),
      () => {
        throw new Error("the snapshot was not written");
      }
    );
    expect(stored.fromSnapshot).toBe(true);
    expect(Array.from(stored.value.meters)).toEqual(Array.from(measureSegments(file)));
    const loaded = loadBargeNetwork();
    expect(loaded.edges).toEqual(measured.edges);
    expect(loaded.reaches).toEqual(measured.reaches);
    expect(loaded.edges.length).toBeGreaterThan(900);
  });
});
