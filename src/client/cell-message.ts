/**
 * Messages that fit a spreadsheet cell, the same words on every surface: the functions' error
 * cells, the task pane, and the `error` column of `route-sheets lanes`.
 */
import { PLACE_EXAMPLES } from "./place-input";

/** About the most a cell shows of an error message; the full text is in the pane and on the help page. */
export const CELL_MESSAGE_LIMIT = 100;

/**
 * A message that fits a cell. Short ones stay whole. The service's place details run on with every
 * allowed form (a sample UUID included): the first clause is kept with short examples, the help
 * page has the rest. Other long ones are cut at a list item with an ellipsis.
 */
export function cellSized(message: string, limit = CELL_MESSAGE_LIMIT): string {
  const text = message.trim();
  if (text.length <= limit) return text;
  const forms = text.indexOf("; allowed forms:");
  if (forms > 0) {
    const first = text.slice(0, forms).replace(/[.;:,\s]+$/, "");
    const withExamples = `${first}; use ${PLACE_EXAMPLES}`;
    if (withExamples.length <= limit) return withExamples;
    if (first.length <= limit) return first;
  }
  const head = text.slice(0, limit - 1);
  const cut = head.lastIndexOf(", ");
  return `${(cut > limit / 2 ? head.slice(0, cut) : head).trimEnd()}…`;
}

/** Typed text quoted in a message, cut so the message still fits a cell. */
export function quoted(text: unknown, max = 30): string {
  const s = String(text ?? "").trim();
  return `"${s.length > max ? `${s.slice(0, max - 1)}…` : s}"`;
}
