/** The engine says what went wrong; the service alone maps it onto the HTTP catalogue. */
import { PROBLEM_TITLES as CLIENT_TITLES } from "../../src/client/errors";
import { ERROR_KINDS, incorrectValues, routeNotFound, unknownData } from "../../src/engine/errors";
import { fail, problemOfError, STATUS_OF, TITLE_OF_KIND } from "../../src/service/problem";

test("the client's list of titles is the service's catalogue", () => {
  expect([...CLIENT_TITLES].sort()).toEqual(Object.keys(STATUS_OF).sort());
});

test("every engine error kind has a catalogue title", () => {
  expect(Object.keys(TITLE_OF_KIND).sort()).toEqual([...ERROR_KINDS].sort());
});

test("engine errors become the catalogue's problems", () => {
  expect(problemOfError("/problems/", incorrectValues("modality", "modality: bad"))).toEqual({
    type: "/problems/incorrect-values",
    title: "Incorrect Values",
    status: 400,
    detail: "modality: bad",
  });
  expect(problemOfError("/p/", unknownData("origin", "origin XXXXX"))).toMatchObject({
    title: "Unknown Data",
    status: 404,
  });
  expect(problemOfError("/p/", routeNotFound("no route"))).toMatchObject({
    title: "Not Found",
    status: 404,
    type: "/p/not-found",
  });
});

test("engine errors carry no HTTP knowledge", () => {
  const e = unknownData("origin", "origin XXXXX is unknown");
  expect(e).toMatchObject({ kind: "unknown-data", parameter: "origin" });
  expect(e).not.toHaveProperty("status");
  expect(e).not.toHaveProperty("title");
});

test("the service's own problems keep their title and status", () => {
  expect(fail("Over Limit", "exhausted")).toMatchObject({ title: "Over Limit", status: 402 });
});
