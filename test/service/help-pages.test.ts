/** The /help/ pages say every way a place may be written, names included (issue 30.5). */
import { functionHelp, helpIndex, PLACES_NOTE } from "../../src/service/help/help-pages";

const META = [
  {
    id: "DISTANCE",
    name: "DISTANCE",
    parameters: [{ name: "origin" }, { name: "destination" }, { name: "modality", optional: true }],
  },
  { id: "OPERATORS", name: "OPERATORS", parameters: [{ name: "search", optional: true }] },
];
const ORIGIN = "https://routes.example.com";

test("the index's getting started and each place-taking function's page say names are accepted, with examples", () => {
  const index = helpIndex(META, ORIGIN);
  expect(index).toContain("place names (<code>Rotterdam</code>");
  expect(index).toContain("<code>51,95;4,05</code>");
  const distance = functionHelp(META, "ROUTE.DISTANCE", ORIGIN)!;
  expect(distance).toContain("a place name (Rotterdam, Jebel Ali, São Paulo; any letter case)");
  expect(distance).toContain("did you mean");
  expect(distance).toContain(
    "=ROUTE.DISTANCE(&quot;Rotterdam&quot;, &quot;Hamburg&quot;, &quot;TRUCK&quot;)"
  );
  // A function without a place parameter does not carry the note.
  expect(functionHelp(META, "ROUTE.OPERATORS", ORIGIN)).not.toContain(PLACES_NOTE.slice(0, 40));
});
