/** The canonical query text keys the cache and is sent: it must be what URLSearchParams writes. */
import fc from "fast-check";
import { canonicalQuery } from "../../src/client/query";

const reference = (query: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (Array.isArray(value)) for (const item of value) item !== "" && params.append(key, item);
    else if (value !== "") params.append(key, value);
  }
  return params.toString();
};

test("property: the same text as URLSearchParams for any keys and values", () => {
  fc.assert(
    fc.property(
      fc.dictionary(
        fc.string({ unit: "binary", maxLength: 8 }),
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 20 }),
          fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 })
        )
      ),
      (query) => {
        expect(canonicalQuery(query)).toBe(reference(query));
      }
    ),
    { numRuns: 500 }
  );
  expect(canonicalQuery({ origin: "51.95,4.05", b: "a b!'()~*" })).toBe(
    "b=a+b%21%27%28%29%7E*&origin=51.95%2C4.05"
  );
});
