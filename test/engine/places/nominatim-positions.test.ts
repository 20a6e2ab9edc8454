/**
 * The rule that takes an OpenStreetMap (Nominatim) position for a UN/LOCODE no other source
 * places: country, subdivision and name must agree, and agreeing answers must be one place.
 */
import {
  chooseOsmPosition,
  NominatimAnswer,
} from "../../../src/builders/places/nominatim-positions";

const aguni: NominatimAnswer = {
  lat: "26.5817724",
  lon: "127.2288857",
  name: "Aguni",
  importance: 0.3,
  osm_type: "node",
  osm_id: 1,
  address: { village: "Aguni", "ISO3166-2-lvl4": "JP-47", country_code: "jp" },
};
const code = { locode: "JPAGJ", name: "Aguni", subdivision: "47" };

test("an answer agreeing in country, subdivision and name gives the position", () => {
  expect(chooseOsmPosition(code, [aguni])).toEqual({
    lat: 26.5817724,
    lng: 127.2288857,
    osm: "node/1",
    name: "Aguni",
  });
});

test("a settlement of the answer's address counts as its name (a station in the village)", () => {
  const station = { ...aguni, name: "Aguni Port", lat: "26.59", lon: "127.23" };
  expect(chooseOsmPosition(code, [station])?.lat).toBe(26.59);
});

test("another country, another subdivision or another name gives nothing", () => {
  expect(
    chooseOsmPosition(code, [{ ...aguni, address: { ...aguni.address, country_code: "kr" } }])
  ).toBeUndefined();
  expect(
    chooseOsmPosition(code, [
      { ...aguni, address: { ...aguni.address, "ISO3166-2-lvl4": "JP-01" } },
    ])
  ).toBeUndefined();
  expect(
    chooseOsmPosition(code, [
      { ...aguni, name: "Ado", address: { country_code: "jp", city: "Osaka" } },
    ])
  ).toBeUndefined();
});

test("agreeing answers more than 25 km apart are ambiguous: nothing is taken", () => {
  const far = { ...aguni, lat: "26.2", importance: 0.1 };
  expect(chooseOsmPosition(code, [aguni, far])).toBeUndefined();
  const near = { ...aguni, lat: "26.6", importance: 0.1 };
  expect(chooseOsmPosition(code, [aguni, near])?.lat).toBe(26.5817724);
});
