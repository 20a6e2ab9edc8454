/** ROUTE.LANE's answer: a card (entity value) where Excel has data types, else a row under a header. */
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

/** One lane as a row of LANE_COLUMNS (figures to 0.1 km, nm, kg). */
export function laneRow(query: EmissionsParams, answer: LaneAnswer): Array<string | number> {
  return [
    query.origin,
    query.destination,
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
export function laneEntity(query: EmissionsParams, answer: LaneAnswer): Record<string, unknown> {
  const number = (value: number, numberFormat: string) => ({
    type: "FormattedNumber",
    basicValue: oneDecimal(value),
    numberFormat,
  });
  const text = (value: string) => ({ type: "String", basicValue: value });
  return {
    type: "Entity",
    text: `${query.origin} → ${query.destination} (${query.modality})`,
    properties: {
      Origin: text(query.origin),
      Destination: text(query.destination),
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
