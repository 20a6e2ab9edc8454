/** Facts about a built graph, for tests, the benchmark and start-up diagnostics. */
import { Passage, PASSAGES } from "../../types";
import { SeaGraph } from "./graph";

/** Number of network edges labelled with each passage (0 = the network does not reach it). */
export function passageEdgeCounts(graph: SeaGraph): Record<Passage, number> {
  const counts = Object.fromEntries(PASSAGES.map((p) => [p, 0])) as Record<Passage, number>;
  for (let e = 0; e < graph.edgeCount; e++) {
    const id = graph.edgePassage[e];
    if (id > 0) counts[PASSAGES[id - 1]]++;
  }
  return counts;
}
