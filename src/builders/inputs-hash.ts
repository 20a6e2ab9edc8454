import { createHash } from "crypto";
import * as fs from "fs";
import { readSeaLanes } from "../data/sea-lanes";

/**
 * Hash of everything a generated sea-network file is derived from: its generator version, its
 * parameters and its input files, in order. Of the sea lanes only their geometry counts, so a
 * reworded source does not make the file stale.
 */
export function generatedInputsHash(
  generator: string,
  params: unknown,
  files: ReadonlyArray<string>
): string {
  const h = createHash("sha256");
  h.update(generator);
  h.update(JSON.stringify(params));
  for (const f of files) {
    if (f.endsWith("sea-lanes.json"))
      h.update(JSON.stringify(readSeaLanes(f).map((l) => l.points)));
    else h.update(fs.readFileSync(f));
  }
  return h.digest("hex");
}
