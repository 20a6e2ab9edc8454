/** API key material: random keys shown once, stored only as SHA-256 hashes. */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { NewKey } from "./store";

export const KEY_PREFIX = "rs_";
/** Characters of the key kept in clear for display (`rs_` + 5 of the random part). */
const SHOWN_CHARS = KEY_PREFIX.length + 5;

/** SHA-256 suits high-entropy keys: no salt or slow hash needed against guessing. */
export function hashKey(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function newKey(rate?: { perSecond: number; burst: number }): {
  key: string;
  record: NewKey;
} {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  return {
    key,
    record: {
      id: `key_${randomUUID().replace(/-/g, "").slice(0, 16)}`,
      hash: hashKey(key),
      prefix: key.slice(0, SHOWN_CHARS),
      ratePerSecond: rate?.perSecond ?? null,
      burst: rate?.burst ?? null,
    },
  };
}

export function looksLikeKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX);
}

/** Key-shaped text (`rs_` + 16 or more base64url characters), e.g. inside a logged URL. */
const KEY_SHAPED = /rs_[A-Za-z0-9_-]{16,}/g;

/**
 * The same in any letter case and with any character percent-encoded (`RS_…`, `rs%5F…`,
 * `%72%73%5f…`): what a log line may hold of a key a client pasted into a URL.
 */
const KEY_SHAPED_ANY = /(?:r|%72)(?:s|%73)(?:_|%5f)(?:[a-z0-9_-]|%[0-9a-f]{2}){16,}/gi;

/** A base64url character, as written or percent-encoded (`%41` is `A`; `%20` is not one). */
const B64_CHAR = "(?:[A-Za-z0-9_-]|%(?:2d|3[0-9]|4[1-9a-f]|5[0-9af]|6[1-9a-f]|7[0-9a]))";
/**
 * A key pasted without its `rs_` prefix: 32 or more base64url characters in a row (a key's random
 * part is 43; words, codes and coordinates are shorter or broken by other characters). A UUID
 * (a terminal's or a request's id) is left alone.
 */
const UNPREFIXED_KEY = new RegExp(
  `(?<![A-Za-z0-9_-])(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9_-]))${B64_CHAR}{32,}`,
  "gi"
);

export function redactKeys(text: string): string {
  return text.replace(KEY_SHAPED_ANY, "rs_[REDACTED]").replace(UNPREFIXED_KEY, "[REDACTED]");
}

export function containsKey(text: string): boolean {
  KEY_SHAPED.lastIndex = 0;
  const found = KEY_SHAPED.test(text);
  KEY_SHAPED.lastIndex = 0;
  return found;
}
