/**
 * csv-parse and csv-stringify, loaded at their first use: a warm start takes its data from
 * snapshots and parses no CSV, so it should not pay for loading (and warming up) the parser.
 */
import type { parse as Parse } from "csv-parse/sync";
import type { stringify as Stringify } from "csv-stringify/sync";

export const parse: typeof Parse = (...args: Parameters<typeof Parse>) =>
  (require("csv-parse/sync") as { parse: typeof Parse }).parse(...args);

export const stringify: typeof Stringify = (...args: Parameters<typeof Stringify>) =>
  (require("csv-stringify/sync") as { stringify: typeof Stringify }).stringify(...args);
