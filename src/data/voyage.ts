/** Reads the voyage data files: service speeds, ECA polygons, EU ETS rules (each read once). */
import fs from "node:fs";
import path from "node:path";
import { EcaArea, EcaAreas, EtsRules, ServiceSpeeds } from "../engine/voyage";

const DATA = path.resolve(__dirname, "../../data");
export const SERVICE_SPEEDS_FILE = path.join(DATA, "service-speeds.json");
export const ECA_AREAS_FILE = path.join(DATA, "eca-areas.json");
export const EU_ETS_FILE = path.join(DATA, "eu-ets-maritime.json");

const read = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;

let speeds: ServiceSpeeds | undefined;
let eca: EcaAreas | undefined;
let ets: EtsRules | undefined;

export function loadServiceSpeeds(): ServiceSpeeds {
  return (speeds ??= read<ServiceSpeeds>(SERVICE_SPEEDS_FILE));
}

export function loadEcaAreas(): EcaAreas {
  return (eca ??= new EcaAreas(read<{ areas: EcaArea[] }>(ECA_AREAS_FILE).areas));
}

export function loadEtsRules(): EtsRules {
  return (ets ??= read<EtsRules>(EU_ETS_FILE));
}
