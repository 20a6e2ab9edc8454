/**
 * TypeBox schemas of every request and response: Fastify validates with them and the OpenAPI 3.1
 * document (/openapi.json) is generated from them, so the two cannot drift apart.
 */
import { Type, TSchema } from "@sinclair/typebox";
import { DEFAULT_SORT, LIST_LIMITS, SORT_KEYS } from "../engine/optimizer/query";
import { MODALITIES, PASSAGES, ROUTE_BASES } from "../engine/types";
import { PROBLEM_TITLES } from "./problem";
import { loadEmissions, loadFactorSets } from "../data/emissions";
import { loadWaypoints } from "../data/waypoints";

function stringEnum<T extends string>(values: readonly T[], options: Record<string, unknown> = {}) {
  return Type.Unsafe<T>({ type: "string", enum: [...values], ...options });
}

const PLACE =
  'A UN/LOCODE (e.g. NLRTM), a terminal UUID (from the terminal search) or "lat,lng" in decimal degrees (WGS 84, e.g. "51.95,4.05").';
const VESSEL_INFO =
  'Vessel: "length,width,draught" in centimetres (three comma-separated numbers, e.g. "36600,5100,1550"), or "IMO" followed by the 7-digit number, or "MMSI" followed by the 9-digit number. Restricts sea routes to passages the vessel fits.';
// Written from the emission factor file, so the document lists exactly what the calculator accepts.
const FUEL_TYPES = (() => {
  const emissions = loadEmissions();
  const perModality = MODALITIES.map((m) => `${m}: ${emissions.allowedFuels(m).join(", ")}`).join(
    "; "
  );
  return `Fuel; default the modality's usual fuel (listed first). Allowed values per modality: ${perModality}.`;
})();
const VIA = `Extension: waypoints the route must pass, in order: ${Object.keys(loadWaypoints()).join(", ")} (a point in the fairway of each passage, or round the cape), or any place (UN/LOCODE, terminal UUID, "lat,lng"); several separated by commas (by ";" when one is "lat,lng"). E.g. via=CAPE_OF_GOOD_HOPE next to the default route through Suez. The emissions' trade lane still comes from origin and destination.`;
const AVOID = `Extension (not in the original interface): comma-separated passages the sea route must avoid; allowed values: ${PASSAGES.join(", ")}. Ignored by non-sea modalities.`;

/** Query objects: a parameter the endpoint does not use is a 400 naming it, not silently ignored. */
export const QUERY_OPTIONS = { additionalProperties: false } as const;
/** Decimal digits only (no 0x10, 1e3): the numeric parameters carried as text. */
const DECIMAL_PATTERN = "^\\s*\\+?(\\d+([.,]\\d*)?|[.,]\\d+)\\s*$";
const WHOLE_PATTERN = "^\\s*\\+?\\d+\\s*$";

// ---- route-information -------------------------------------------------------------------------

export const TerminalsQuery = Type.Object(
  {
    terminalLocode: Type.String({
      description:
        "UN/LOCODE where the terminal is: 2-letter country code + 3 letters/digits 2-9, e.g. NLRTM.",
    }),
    terminalName: Type.Optional(
      Type.String({
        description:
          "Terminal name to match (case- and accent-insensitive); empty = all terminals of the LOCODE.",
      })
    ),
  },
  QUERY_OPTIONS
);

/** Extension: optional additions to an answer; a comma-separated list so more can come later. */
export const INCLUDE_VALUES = ["passages", "method", "time", "eca"] as const;
export type IncludeValue = (typeof INCLUDE_VALUES)[number];
const INCLUDE = `Extension (not in the original interface): comma-separated additions to the answer; allowed values: ${INCLUDE_VALUES.join(", ")}. passages: the canals and straits the sea route uses, in route order ([] for other modalities). time: transit time without a schedule (days at a default service speed per modality and vessel class, or speedKnots; plus portHours). eca (sea legs): the distance inside emission control areas (Baltic, North Sea, North American, US Caribbean; Mediterranean SOx ECA from 1 May 2025) and, on emissions, the EU ETS share (intra-EU/EEA 100 %, EU–non-EU 50 %, × the phase-in of the year: 40 % 2024, 70 % 2025, 100 % from 2026) applied to the tank-to-wake part. method (emissions only): the ISO 14083 detail — co2eTeuWtt/co2eTeuTtw/co2eTonWtt/co2eTonTtw (well-to-tank + tank-to-wheel = the WTW figures to the gram), intensity (g CO2e per TEU-km and per t-km) and the method block (framework, factorSource, factorSet, tradeLane or region, dataType, distanceBasis). Same cost as without.`;
const includeParam = () =>
  Type.Optional(Type.String({ description: INCLUDE, "x-extension": true }));

/** The parameters of /distance, also those of /path (which always carries its passages). */
export const RouteQuery = Type.Object(
  {
    origin: Type.String({ description: PLACE }),
    destination: Type.String({ description: PLACE }),
    modality: stringEnum(MODALITIES, {
      description:
        "Modality of the trip; case-insensitive. SHORTSEA is an extension (routed like DEEPSEA).",
    }),
    vesselInfo: Type.Optional(Type.String({ description: VESSEL_INFO })),
    avoid: Type.Optional(Type.String({ description: AVOID, "x-extension": true })),
    via: Type.Optional(Type.String({ description: VIA, "x-extension": true })),
  },
  QUERY_OPTIONS
);

export const DistanceQuery = Type.Object(
  {
    ...RouteQuery.properties,
    include: includeParam(),
    speedKnots: Type.Optional(
      Type.String({
        description:
          "Extension, include=time: service speed in knots, a decimal number from 1 to 60, instead of the default of the modality or vessel class.",
        pattern: DECIMAL_PATTERN,
        "x-extension": true,
      })
    ),
    portHours: Type.Optional(
      Type.String({
        description:
          "Extension, include=time: port time in hours added to the transit time, a decimal number from 0 to 8760 (default 0).",
        pattern: DECIMAL_PATTERN,
        "x-extension": true,
      })
    ),
    year: Type.Optional(
      Type.String({
        description:
          "Extension, include=eca: the year for the EU ETS phase-in and the areas in force, a whole year from 2000 to 2100 (default: the current year).",
        pattern: WHOLE_PATTERN,
        "x-extension": true,
      })
    ),
  },
  QUERY_OPTIONS
);

export const EmissionsQuery = Type.Object(
  {
    ...DistanceQuery.properties,
    origin: Type.String({ description: PLACE }),
    destination: Type.String({ description: PLACE }),
    containerType: Type.Optional(
      Type.String({
        description:
          "Container type; default 20DV. Allowed values (ISO 6346 size-type aliases accepted): 20DV (22G1, 20GP), 40DV (42G1, 40GP), 40HC (45G1, 40HQ), 45HC (L5G1), 20RF (22R1), 40RF (45R1, 42R1), 20OT (22U1), 40OT (42U1), 20FR (22P1), 40FR (42P1), 20TK (22T1). A wrong value answers 400 with the complete list.",
      })
    ),
    fuelType: Type.Optional(Type.String({ description: FUEL_TYPES })),
    factorSet: Type.Optional(
      Type.String({
        description: `Extension: the emission factor set to use, so an earlier report reproduces after a factor update; allowed values: ${loadFactorSets().ids().join(", ")} (the first is current, the default). Changelog in docs/emissions.md.`,
        "x-extension": true,
      })
    ),
    containers: Type.Optional(
      Type.String({
        description:
          "Extension: number of boxes of containerType in the shipment, a whole number from 1 to 100000 (decimal digits). Adds co2eKg = containers × TEU per box × co2eTeu and a shipment block.",
        pattern: WHOLE_PATTERN,
        "x-extension": true,
      })
    ),
    weightTons: Type.Optional(
      Type.String({
        description:
          "Extension: cargo mass of the shipment in tonnes, a decimal number from 0.001 to 10000000. Without containers: a part load, co2eKg = weightTons × co2eTon (tonne-km allocation); with containers it is reported in the shipment block.",
        pattern: DECIMAL_PATTERN,
        "x-extension": true,
      })
    ),
  },
  QUERY_OPTIONS
);

export const Terminal = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    name: Type.String(),
    locode: Type.String({ description: "UN/LOCODE of the terminal's location." }),
  },
  { $id: "Terminal" }
);

const PASSAGES_RESULT = Type.Optional(
  Type.Array(stringEnum(PASSAGES), {
    description:
      "Extension, only with include=passages: canals and straits the sea route uses, in route order ([] for other modalities).",
  })
);

const open = (description: string) =>
  Type.Optional(Type.Object({}, { additionalProperties: true, description, "x-extension": true }));

/** include=time / include=eca blocks (distance and emissions answers). */
export const VOYAGE_EXTRAS = {
  time: open(
    "Extension, include=time: {days, hours, sailingHours, restHours, portHours, speedKnots, speedKmh, speedBasis, source, rules: {id, description}}. TRUCK adds the breaks and rests of the driving-time rules of its region (EU/AETR: 9 h a day, 45 min after 4.5 h, 11 h rest; US hours of service) and names them in rules; RAIL and BARGE name their average-speed assumptions."
  ),
  eca: open(
    "Extension, include=eca: {distanceInside (m), share, areas: [{name, type, distance}], asOf}."
  ),
};

export const DistanceResult = Type.Object(
  {
    distance: Type.Number({ description: "Distance in metres (integer-valued)." }),
    passages: PASSAGES_RESULT,
    ...VOYAGE_EXTRAS,
  },
  { $id: "DistanceResult" }
);

const kgExtra = (description: string) =>
  Type.Optional(Type.Number({ description: `Extension: ${description}`, "x-extension": true }));

/** The extension fields of an emissions answer (shipment totals; include=method detail). */
export const EMISSION_EXTRAS = {
  co2eKg: kgExtra("kg CO2e (WTW) of the whole shipment, with containers and/or weightTons only."),
  shipment: Type.Optional(
    Type.Object(
      {
        containers: Type.Integer(),
        containerType: Type.String(),
        teu: Type.Number(),
        weightTons: Type.Optional(Type.Number()),
        basis: stringEnum(["containers", "weight"] as const),
      },
      { description: "Extension: the shipment co2eKg is for.", "x-extension": true }
    )
  ),
  co2eTeuWtt: kgExtra("include=method: well-to-tank part of co2eTeu (kg)."),
  co2eTeuTtw: kgExtra("include=method: tank-to-wheel part of co2eTeu (kg)."),
  co2eTonWtt: kgExtra("include=method: well-to-tank part of co2eTon (kg)."),
  co2eTonTtw: kgExtra("include=method: tank-to-wheel part of co2eTon (kg)."),
  co2eKgWtt: kgExtra("include=method with a shipment: well-to-tank part of co2eKg."),
  co2eKgTtw: kgExtra("include=method with a shipment: tank-to-wheel part of co2eKg."),
  intensity: Type.Optional(
    Type.Object(
      {
        gCo2ePerTeuKm: Type.Number({ description: "g CO2e (WTW) per TEU-km." }),
        gCo2ePerTkm: Type.Number({ description: "g CO2e (WTW) per tonne-km." }),
      },
      { description: "Extension, include=method: emission intensity.", "x-extension": true }
    )
  ),
  method: Type.Optional(
    Type.Object(
      {
        framework: Type.String({ description: 'e.g. "GLEC v3.0; ISO 14083:2023".' }),
        factorSource: Type.Array(Type.String(), {
          description: "The factor file's source of each factor used, intensity first.",
        }),
        factorSet: Type.String({ description: "Version of the factor set used." }),
        tradeLane: Type.Optional(Type.String({ description: "Sea legs: the GLEC trade lane." })),
        region: Type.Optional(Type.String({ description: "Other legs: the regional factors." })),
        dataType: Type.String({ description: "default (modelled GLEC default values)." }),
        distanceBasis: Type.String({
          description:
            "shortest feasible (sea), network (barge, rail corridors), great circle × circuity (truck, rail elsewhere).",
        }),
        modality: Type.String(),
        containerType: Type.String(),
        fuelType: Type.String(),
        sizeClass: Type.Optional(Type.String()),
        vesselType: Type.Optional(Type.String()),
      },
      { description: "Extension, include=method: how the figures were made.", "x-extension": true }
    )
  ),
};

const RESOLVED_PLACE = Type.Object({
  kind: Type.String({ description: "How the input was read: LOCODE, TERMINAL or GEO." }),
  locode: Type.Optional(Type.String()),
  terminalId: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  lat: Type.Number(),
  lng: Type.Number(),
});

export const EmissionsResult = Type.Object(
  {
    co2eTeu: Type.Number({
      description: "Kilograms CO2e per TEU for the whole trip (well-to-wheel).",
    }),
    co2eTon: Type.Number({
      description: "Kilograms CO2e per tonne of cargo for the whole trip (well-to-wheel).",
    }),
    distance: Type.Number({ description: "Distance in metres." }),
    passages: PASSAGES_RESULT,
    ...EMISSION_EXTRAS,
    places: Type.Optional(
      Type.Object(
        { origin: RESOLVED_PLACE, destination: RESOLVED_PLACE },
        {
          description:
            "Extension, include=method: the origin and destination as the service resolved them (a report states where the leg runs).",
          "x-extension": true,
        }
      )
    ),
    box: Type.Optional(
      Type.Object(
        {
          teu: Type.Number({ description: "TEU per container of containerType." }),
          payloadTonnes: Type.Number({
            description: "Default cargo payload per container (t): the co2eTon allocation.",
          }),
        },
        {
          description:
            "Extension, include=method: the box co2eTeu and co2eTon assume (co2eTon = co2eTeu × teu / payloadTonnes).",
          "x-extension": true,
        }
      )
    ),
    ...VOYAGE_EXTRAS,
    ets: open(
      "Extension, include=eca: EU ETS {scope, share, year, phaseIn, coveredShare, co2eTeuCovered (kg, tank-to-wake × coveredShare), basis}."
    ),
  },
  { $id: "EmissionsResult" }
);

// ---- path (extension) --------------------------------------------------------------------------

export const PathFeature = Type.Object(
  {
    type: Type.Literal("Feature"),
    geometry: Type.Object({
      type: Type.Literal("LineString"),
      coordinates: Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), {
        minItems: 2,
        description:
          "[longitude, latitude] pairs in degrees (WGS 84) from origin to destination; longitudes in [-180, 180], consecutive points joined the short way (a path across ±180° jumps from 180 to -180). At most 500 points: long paths are thinned, keeping both ends.",
      }),
    }),
    properties: Type.Object({
      distance: Type.Number({
        description: "Distance in metres (the distance call's answer for the same query).",
      }),
      modality: stringEnum(MODALITIES),
      passages: Type.Array(stringEnum(PASSAGES), {
        description: "Canals and straits the sea route uses (empty for other modalities).",
      }),
      basis: Type.Optional(
        stringEnum(ROUTE_BASES, {
          description:
            "How the distance was computed: along a network (sea lanes, waterways, rail corridors: network; a named road or rail network; a road engine the server runs with: road network (OSRM)), or, for RAIL/TRUCK where no network data covers the trip, the great-circle distance times a circuity factor by distance band and terrain (an estimate).",
        })
      ),
      snapDistance: Type.Optional(
        Type.Object(
          {
            origin: Type.Number({
              description:
                "Metres the origin was moved (onto the sea network, or to its landside).",
            }),
            destination: Type.Number({
              description:
                "Metres the destination was moved (onto the sea network, or to its landside).",
            }),
          },
          {
            description:
              "Sea routes (DEEPSEA, SHORTSEA): how far each end was moved onto the sea network (its connector to the nearest network point it joined; 0 when the route runs straight from the point). RAIL/TRUCK: present when an end the modality cannot reach (e.g. rail to Shanghai's Yangshan island) was moved to its landside, the far end of a fixed link of another land modality within 60 km; that move is not part of the distance.",
          }
        )
      ),
    }),
  },
  { $id: "PathFeature", description: "Extension: the routed path as a GeoJSON Feature (RFC 7946)." }
);

// ---- batch (extension) -------------------------------------------------------------------------

export const BATCH_TYPES = ["distance", "emissions", "terminals"] as const;
export type BatchType = (typeof BATCH_TYPES)[number];

const optionalString = (description: string) => Type.Optional(Type.String({ description }));

export const BatchBody = Type.Object({
  requests: Type.Array(
    Type.Object({
      type: stringEnum(BATCH_TYPES, {
        description:
          "Which call this item is; without a valid type the whole batch is 400 Type Required.",
      }),
      origin: optionalString("distance/emissions: as the origin query parameter."),
      destination: optionalString("distance/emissions: as the destination query parameter."),
      modality: optionalString(`distance/emissions: one of ${MODALITIES.join(", ")}.`),
      vesselInfo: optionalString("distance/emissions: as the vesselInfo query parameter."),
      avoid: optionalString("distance/emissions: as the avoid query parameter."),
      via: optionalString("distance/emissions (extension): as the via query parameter."),
      speedKnots: optionalString("distance/emissions (extension): as the speedKnots parameter."),
      portHours: optionalString("distance/emissions (extension): as the portHours parameter."),
      year: optionalString("distance/emissions (extension): as the year parameter."),
      containerType: optionalString("emissions: as the containerType query parameter."),
      fuelType: optionalString("emissions: as the fuelType query parameter."),
      factorSet: optionalString("emissions (extension): as the factorSet query parameter."),
      containers: Type.Optional(
        Type.Union([Type.String(), Type.Number()], {
          description: "emissions (extension): as the containers query parameter.",
        })
      ),
      weightTons: Type.Optional(
        Type.Union([Type.String(), Type.Number()], {
          description: "emissions (extension): as the weightTons query parameter.",
        })
      ),
      include: optionalString(
        "distance/emissions (extension): as the include query parameter (allowed: passages, time, eca; emissions also method)."
      ),
      terminalLocode: optionalString("terminals: as the terminalLocode query parameter."),
      terminalName: optionalString("terminals: as the terminalName query parameter."),
    }),
    { maxItems: 1000, description: "Up to 1,000 items, answered in order." }
  ),
});

// ---- route optimizer ---------------------------------------------------------------------------

export const PLACE_TYPES = ["LOCODE", "TERMINAL", "GEO"] as const;
const list = (
  name: keyof typeof LIST_LIMITS,
  description: string,
  items: TSchema = Type.String()
) =>
  Type.Optional(
    Type.Array(items, {
      maxItems: LIST_LIMITS[name],
      description: `${description} Repeat the parameter or separate values by commas; at most ${LIST_LIMITS[name]} values.`,
    })
  );
const date = (description: string) =>
  Type.Optional(Type.String({ format: "date", description: `${description} (YYYY-MM-DD, UTC).` }));

export const OptimizerQuery = Type.Object(
  {
    origin: Type.String({ description: 'Start location: UN/LOCODE, terminal UUID or "lat,lng".' }),
    originType: stringEnum(PLACE_TYPES, { description: "What origin is; case-insensitive." }),
    destination: Type.String({
      description: 'End location: UN/LOCODE, terminal UUID or "lat,lng".',
    }),
    destinationType: stringEnum(PLACE_TYPES, {
      description: "What destination is; case-insensitive.",
    }),
    modalities: list(
      "modalities",
      "Modalities to include (all when omitted).",
      stringEnum(MODALITIES)
    ),
    minDeparture: date("Earliest departure date of the first leg"),
    maxDeparture: date("Latest departure date of the first leg"),
    maxArrival: date("Latest arrival date at the destination"),
    maxTransfers: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2147483647,
        format: "int32",
        description: "Maximum number of transfers.",
      })
    ),
    allRequiredOperators: list(
      "allRequiredOperators",
      "Operators (SCAC, id or name) that must all appear."
    ),
    anyRequiredOperators: list(
      "anyRequiredOperators",
      "Operators of which at least one must appear."
    ),
    excludedOperators: list("excludedOperators", "Operators that must not appear."),
    anyRequiredLocodes: list(
      "anyRequiredLocodes",
      "UN/LOCODEs of which at least one must be on the route."
    ),
    allRequiredLocodes: list("allRequiredLocodes", "UN/LOCODEs that must all be on the route."),
    excludedLocodes: list("excludedLocodes", "UN/LOCODEs that must not be on the route."),
    maxFirstMileTruckingKm: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2147483647,
        format: "int32",
        description: "Maximum km of trucking from the origin to the first terminal.",
      })
    ),
    maxLastMileTruckingKm: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2147483647,
        format: "int32",
        description: "Maximum km of trucking from the last terminal to the destination.",
      })
    ),
    sort: Type.Optional(
      stringEnum(SORT_KEYS, {
        description: `Sorting criterion, case-insensitive; default ${DEFAULT_SORT}.`,
      })
    ),
    directSeaOnly: Type.Optional(
      Type.Boolean({
        description: "true: only direct sea connections, no transshipment between sea legs.",
      })
    ),
    maxEmission: Type.Optional(
      Type.Integer({
        minimum: 0,
        format: "int64",
        description: "Maximum total emissions of the route in kilograms CO2e.",
      })
    ),
    maxLeadTime: Type.Optional(
      Type.String({
        description: "Maximum total transit time, ISO 8601 duration (e.g. P20D, PT36H).",
      })
    ),
  },
  QUERY_OPTIONS
);

/** Query parameters the optimizer receives as lists (repeated keys or comma lists). */
export const OPTIMIZER_LIST_PARAMS = Object.entries(OptimizerQuery.properties)
  .filter(([, s]) => (s as { type?: string }).type === "array")
  .map(([k]) => k);

const Operator = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    name: Type.String(),
    scac: Type.String({ description: "Standard Carrier Alpha Code." }),
  },
  { $id: "Operator" }
);
const TerminalRef = Type.Object({ id: Type.String({ format: "uuid" }), name: Type.String() });
const LegOperator = Type.Object({
  id: Type.String({ format: "uuid" }),
  name: Type.String(),
  scac: Type.String(),
  serviceCodes: Type.Array(Type.String()),
  collaboratingOperators: Type.Array(
    Type.Object({ id: Type.String({ format: "uuid" }), name: Type.String(), scac: Type.String() })
  ),
});
const Leg = Type.Object({
  origin: Type.String({
    description: 'UN/LOCODE (or "lat,lng" for a first/last trucking leg from coordinates).',
  }),
  originTerminals: Type.Array(TerminalRef),
  destination: Type.String(),
  destinationTerminals: Type.Array(TerminalRef),
  modality: stringEnum(MODALITIES),
  operators: Type.Array(LegOperator),
  departureDate: Type.String({ format: "date-time", description: "ISO 8601, UTC." }),
  arrivalDate: Type.String({ format: "date-time", description: "ISO 8601, UTC." }),
  distanceInMeters: Type.Number({ description: "Metres." }),
  emissionsInKgCo2e: Type.Number({ description: "Kilograms CO2e." }),
  vessel: Type.Optional(
    Type.Object(
      { name: Type.String(), imo: Type.String(), mmsi: Type.String() },
      { description: "Present on sea legs whose vessel is known." }
    )
  ),
});
const RouteOption = Type.Object({
  id: Type.String({ format: "uuid" }),
  leadTimeInMinutes: Type.Integer({ description: "Minutes." }),
  latestDropOff: Type.String({
    format: "date-time",
    description:
      "Latest time to hand the container over at the origin: the departure of the first leg (the truck pickup when there is a first mile). ISO 8601, UTC.",
  }),
  earliestPickup: Type.String({
    format: "date-time",
    description:
      "Earliest time the container can be collected at the destination: the arrival of the last leg. ISO 8601, UTC.",
  }),
  emissionsInKgCo2e: Type.Number({ description: "Kilograms CO2e, all legs plus transfers." }),
  transfers: Type.Integer(),
  transferEmissionsInKgCo2e: Type.Number({ description: "Kilograms CO2e." }),
  truckToOriginInMeters: Type.Number({ description: "Metres." }),
  truckToDestinationInMeters: Type.Number({ description: "Metres." }),
  legs: Type.Array(Leg),
});
export const RouteSearchResult = Type.Object(
  { results: Type.Array(RouteOption) },
  { $id: "RouteSearchResult" }
);
export const SHARED_SCHEMAS = [
  Terminal,
  DistanceResult,
  EmissionsResult,
  PathFeature,
  Operator,
  RouteSearchResult,
];

// ---- problems ----------------------------------------------------------------------------------

export const ProblemSchema = {
  $id: "Problem",
  type: "object",
  description: "RFC 9457 problem details (application/problem+json).",
  required: ["type", "title", "status", "detail"],
  properties: {
    type: {
      type: "string",
      format: "uri-reference",
      description:
        'Relative URI "/problems/<slug>" (e.g. /problems/incorrect-values); GET it for the explanation.',
    },
    title: {
      type: "string",
      enum: [...PROBLEM_TITLES],
      description: 'The "Type" column of the error catalogue.',
    },
    status: { type: "integer", description: "The HTTP status." },
    detail: { type: "string", description: "Names the parameter at fault and its allowed values." },
    instance: { type: "string", description: "Only on 500: urn:request:<requestId>." },
    requestId: {
      type: "string",
      description: "Only on 500: the id under which the failure is logged.",
    },
  },
} as const;
