/**
 * The columns of a lane sheet, read the same by `route-sheets lanes` and the task pane's footprint
 * export (the pane imports this browser-safe module, not the CLI's lanes/).
 */

export const REQUIRED_COLUMNS = ["origin", "destination", "modality"] as const;
/** Every other column the sheet reads (any case); the rest are kept as they are. */
export const OPTIONAL_COLUMNS = [
  "vesselInfo",
  "containerType",
  "fuelType",
  "avoid",
  "via",
  "containers",
  "weightTons",
  "factorSet",
] as const;
const KNOWN_COLUMNS: readonly string[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];

/**
 * The input's header checked and read: names compared case-insensitively (Origin, ORIGIN…), each
 * known one mapped to its canonical spelling. Throws naming duplicate or missing columns.
 * Returns, per column, the canonical name (or the header as written for other columns).
 */
export function readHeader(header: string[]): string[] {
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  header.forEach((name, i) => {
    const folded = name.trim().toLowerCase();
    const first = seen.get(folded);
    if (first !== undefined)
      duplicates.push(`"${name.trim()}" (columns ${first + 1} and ${i + 1})`);
    else seen.set(folded, i);
  });
  if (duplicates.length)
    throw new Error(
      `Input has duplicate column name(s): ${duplicates.join(", ")}; each column name may appear once (names are compared without regard to case).`
    );
  const columns = header.map(
    (name) =>
      KNOWN_COLUMNS.find((k) => k.toLowerCase() === name.trim().toLowerCase()) ?? name.trim()
  );
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw new Error(
      `Input is missing column(s) ${missing.join(", ")}: required columns are ${REQUIRED_COLUMNS.join(", ")}; ` +
        `optional: ${OPTIONAL_COLUMNS.join(", ")} (names in any case).`
    );
  }
  return columns;
}
