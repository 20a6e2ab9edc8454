/**
 * Column headings of a lane sheet's place columns: "Origin", "Destination", "From", "To", "POL"…
 * A whole-column range (A:A) starts with its heading; the functions answer that row blank instead
 * of looking "Origin" up as a place. In the languages European lane sheets are written in; no
 * port or city is called any of these.
 */

const HEADINGS = new Set(
  [
    // English
    "origin",
    "destination",
    "from",
    "to",
    "pol",
    "pod",
    "port of loading",
    "port of discharge",
    "loading port",
    "discharge port",
    "origin port",
    "destination port",
    "origin locode",
    "destination locode",
    "origin code",
    "destination code",
    "start",
    "end",
    "source",
    "dest",
    // German, Dutch, French, Spanish, Italian, Polish
    "von",
    "nach",
    "herkunft",
    "ziel",
    "abgangsort",
    "bestimmungsort",
    "startort",
    "zielort",
    "van",
    "naar",
    "herkomst",
    "bestemming",
    "origine",
    "départ",
    "arrivée",
    "origen",
    "destino",
    "destinazione",
    "partenza",
    "pochodzenie",
    "cel",
    "skąd",
    "dokąd",
  ].map(fold)
);

/** Lower case, spaces collapsed, a trailing ":" or "(…)" note dropped: "Origin (LOCODE):" → "origin". */
function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s:.]+$/, "")
    .replace(/\s*\([^()]*\)$/, "")
    .replace(/[\s_:.-]+/g, " ")
    .trim();
}

/** Whether a cell holds a place column's heading ("Origin", "DESTINATION", "Port of loading:"). */
export function isColumnHeading(value: unknown): boolean {
  if (typeof value !== "string" || value.length > 40) return false;
  const folded = fold(value);
  return folded !== "" && HEADINGS.has(folded);
}
