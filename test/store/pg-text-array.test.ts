/**
 * The array literals the PostgreSQL store sends its group debits as (`textArray`): a real server
 * reads back exactly the strings and integers given, whatever characters they hold.
 */
import fc from "fast-check";
import { Client } from "pg";
import { textArray } from "../../src/service/store/postgres";
import { PostgresServer, startPostgres } from "../support/servers";

let postgres: PostgresServer;
let client: Client;

beforeAll(async () => {
  postgres = await startPostgres();
  client = new Client({ connectionString: postgres.url });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await postgres?.stop();
});

/** Strings made of the characters the array syntax treats specially, and any others. */
const tricky = fc.oneof(
  fc.string({
    unit: fc.constantFrom("{", "}", '"', ",", "\\", " ", "\t", "\n", "a", "é", "NULL", "null", "'"),
  }),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("", "NULL", "null", "Null", " NULL", "req-1", "acc_0f1e2d3c")
);

test("property: text[] literals read back as the strings given", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(tricky, { maxLength: 8 }), async (values) => {
      const r = await client.query<{ a: string[] }>("SELECT $1::text[] AS a", [textArray(values)]);
      expect(r.rows[0].a).toEqual(values);
    }),
    { numRuns: 300 }
  );
});

test("property: bigint[] and int[] literals read back as the integers given", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.maxSafeInteger(), { maxLength: 8 }),
      fc.array(fc.integer(), { maxLength: 8 }),
      async (big, small) => {
        const r = await client.query<{ b: string[]; s: number[] }>(
          "SELECT $1::bigint[]::text[] AS b, $2::int[] AS s",
          [textArray(big), textArray(small)]
        );
        expect(r.rows[0].b.map(Number)).toEqual(big);
        expect(r.rows[0].s).toEqual(small);
      }
    ),
    { numRuns: 100 }
  );
});
