/** ROUTE.LANE's answer: a card (entity value) where Excel has data types, else a row under a header. */
import type { ResolvedPlace } from "../client/place-lookup";
import type { EmissionsParams, LaneAnswer } from "../client/types";
import { oneDecimal } from "./units";

/** Text of PASSAGES for a route through no canal or strait. */
export const NO_PASSAGES = "none";

export function passagesText(passages: string[]): string {
  return passages.length ? passages.join(", ") : NO_PASSAGES;
}

/** Header of ROUTE.LANE's spilled form (runtimes without data types). */
export const LANE_COLUMNS = [
  "Origin",
  "Destination",
  "Modality",
  "Distance (km)",
  "Distance (nm)",
  "kg CO2e per TEU",
  "kg CO2e per tonne",
  "Passages",
] as const;

/** How the Origin and Destination columns name a lane's ends. */
export interface LaneEnds {
  origin: string;
  destination: string;
}

/**
 * A place as LANE names it: a code as the code (a name looked up shows the code it was read as:
 * NLRTM for "Rotterdam"), coordinates as "lat,lng", a terminal by its name and port when a name
 * found it ("Metrans Praha Uhříněves (CZPRG)", not its id); an id typed as such stays.
 */
export function placeLabel(place: ResolvedPlace): string {
  if (place.type !== "TERMINAL" || !place.name) return place.value;
  return place.locode ? `${place.name} (${place.locode})` : place.name;
}

/** The ends as the query names them (codes, coordinates, ids). */
const queryEnds = (query: EmissionsParams): LaneEnds => ({
  origin: query.origin,
  destination: query.destination,
});

/** One lane as a row of LANE_COLUMNS (figures to 0.1 km, nm, kg). */
export function laneRow(
  query: EmissionsParams,
  answer: LaneAnswer,
  ends: LaneEnds = queryEnds(query)
): Array<string | number> {
  return [
    ends.origin,
    ends.destination,
    query.modality,
    oneDecimal(answer.distance / 1000),
    oneDecimal(answer.distance / 1852),
    oneDecimal(answer.co2eTeu),
    oneDecimal(answer.co2eTon),
    passagesText(answer.passages),
  ];
}

/**
 * The lane as an entity value (CustomFunctionsRuntime 1.4): a card whose fields formulas read,
 * e.g. =A2.Distance, =A2.Passages.
 */
export function laneEntity(
  query: EmissionsParams,
  answer: LaneAnswer,
  ends: LaneEnds = queryEnds(query)
): Record<string, unknown> {
  const number = (value: number, numberFormat: string) => ({
    type: "FormattedNumber",
    basicValue: oneDecimal(value),
    numberFormat,
  });
  const text = (value: string) => ({ type: "String", basicValue: value });
  return {
    type: "Entity",
    text: `${ends.origin} → ${ends.destination} (${query.modality})`,
    properties: {
      Origin: text(ends.origin),
      Destination: text(ends.destination),
      Modality: text(query.modality),
      Distance: number(answer.distance / 1000, '#,##0.0 "km"'),
      DistanceNm: number(answer.distance / 1852, '#,##0.0 "nm"'),
      CO2ePerTEU: number(answer.co2eTeu, '#,##0.0 "kg CO2e/TEU"'),
      CO2ePerTonne: number(answer.co2eTon, '#,##0.0 "kg CO2e/t"'),
      Passages: text(passagesText(answer.passages)),
      ...(query.avoid ? { Avoided: text(query.avoid) } : {}),
    },
    layouts: {
      card: {
        title: { property: "Origin" },
        sections: [
          {
            layout: "List",
            properties: [
              "Destination",
              "Modality",
              "Distance",
              "DistanceNm",
              "CO2ePerTEU",
              "CO2ePerTonne",
              "Passages",
            ],
          },
        ],
      },
    },
  };
}
