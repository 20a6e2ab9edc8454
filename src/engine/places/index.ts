/** Places: parsing of place input, ports, terminals and their resolution to coordinates. */
export * from "./text-fold";
export * from "./parse-place";
export * from "./unlocode-coordinates";
export * from "./unlocode-records";
export * from "./unlocode-table";
export * from "./port-registry";
export * from "./name-match";
export * from "./terminal-id";
export * from "./terminal-registry";
export * from "./place-resolver";
export * from "./place-search";
export * from "./place-entries";
export * from "./name-choice";
export * from "./place-names";
