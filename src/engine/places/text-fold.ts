/**
 * Folding of names for matching as a user types: case-, diacritics- and punctuation-insensitive.
 * NFD + removal of combining marks handles most accents; a few letters are not decomposable
 * (ß, ø, ł, æ, …) and get explicit ASCII spellings.
 */
const NON_DECOMPOSABLE: Record<string, string> = {
  ß: "ss",
  ẞ: "ss",
  ø: "o",
  Ø: "o",
  ł: "l",
  Ł: "l",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  þ: "th",
  Þ: "th",
  ı: "i",
  ħ: "h",
  Ħ: "h",
};
const NON_DECOMPOSABLE_RE = new RegExp(`[${Object.keys(NON_DECOMPOSABLE).join("")}]`, "g");

/** Lower-case ASCII-ish form of `text`: accents stripped, special letters spelled out. */
export function foldText(text: string): string {
  return text
    .replace(NON_DECOMPOSABLE_RE, (ch) => NON_DECOMPOSABLE[ch])
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** Folded words of `text`: letters and digits, everything else separates. */
export function foldedTokens(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/**
 * The Persian ezafe ("Bandar-e Abbas", "Bandar-e Torkaman"), which lane sheets write or leave out
 * ("Bandar Abbas"): not a word of its own for matching. Only after a name's first word.
 */
const EZAFE = new Set(["e", "ye"]);

/** Folded words of a place name or query as the place search compares them (no ezafe). */
export function nameTokens(text: string): string[] {
  const tokens = foldedTokens(text);
  return tokens.length > 1 ? tokens.filter((t, i) => i === 0 || !EZAFE.has(t)) : tokens;
}
