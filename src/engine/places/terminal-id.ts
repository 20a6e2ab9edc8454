/**
 * Stable terminal ids: UUID v5 of `${LOCODE}:${name}` in a fixed namespace, so every install
 * computes the same id for the same terminal without a shared database.
 */
import type { v5 } from "uuid";

/** uuid is loaded at the first id computed: shipped terminals come with theirs from the snapshot. */
let uuidv5: typeof v5 | undefined;

/** Namespace of terminal ids (a random v4 UUID chosen once for Route Sheets; never change it). */
export const TERMINAL_ID_NAMESPACE = "261d16d7-af02-4ba8-be0d-0361335937e5";

/** The id of terminal `name` at `locode`; the name is trimmed and its inner whitespace collapsed. */
export function terminalId(locode: string, name: string): string {
  uuidv5 ??= (require("uuid") as { v5: typeof v5 }).v5;
  return uuidv5(
    `${locode.trim().toUpperCase()}:${name.trim().replace(/\s+/g, " ")}`,
    TERMINAL_ID_NAMESPACE
  );
}
