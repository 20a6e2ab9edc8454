/**
 * Loads the route optimizer: schedule parameters and the sample network from data/schedules/,
 * schedules imported into a data directory (`<dataDir>/schedules/imported.json`, written by
 * `route-sheets schedules import`), and the route engine for distances, emissions and terminals.
 *
 * Departures of weekly services are generated from the week of `now` (default: the current date)
 * for the parameters' `scheduleWeeks` (26) weeks; the default departure window of a search starts
 * at the current time unless `now` is given, which then fixes the clock too (tests, benchmarks).
 */
import fs from "node:fs";
import path from "node:path";
import { RouteEngine } from "../engine/route-engine";
import {
  createOptimizer,
  engineGeography,
  OperatorDef,
  ScheduleData,
  ScheduleOptimizer,
  ScheduledModality,
  ScheduleParameters,
  ServiceDef,
  VoyageDef,
} from "../engine/optimizer";
import { parseConnectionsCsv } from "../engine/optimizer/import/csv";
import { parseDcsaVesselSchedules } from "../engine/optimizer/import/dcsa";

export const SCHEDULES_DIR = path.resolve(__dirname, "../../data/schedules");
export const PARAMETERS_FILE = path.join(SCHEDULES_DIR, "parameters.json");
export const SAMPLE_NETWORK_FILE = path.join(SCHEDULES_DIR, "sample-network.json");

export interface LoadOptimizerOptions {
  dataDir?: string;
  engine: RouteEngine;
  now?: Date;
}

/** What `schedules import` stores in a data directory. */
export interface ImportedSchedules {
  /** True when the imports replace the sample network instead of extending it. */
  replaceSample: boolean;
  operators: OperatorDef[];
  services: ServiceDef[];
  voyages: VoyageDef[];
  imports: Array<{ file: string; format: string; importedAt: string; voyages: number }>;
}

export function loadOptimizer(options: LoadOptimizerOptions): ScheduleOptimizer {
  const parameters = readJson<ScheduleParameters>(PARAMETERS_FILE);
  const data = scheduleData(options.dataDir);
  const now = options.now ?? new Date();
  const geography = engineGeography(options.engine);
  return createOptimizer({
    data,
    parameters,
    geography,
    resolvePlace: (value, parameter) => options.engine.parts.places.resolve(value, parameter),
    now,
    clock: options.now ? () => now : () => new Date(),
  });
}

/** The sample network, extended or replaced by what the data directory imported. */
export function scheduleData(dataDir?: string): ScheduleData {
  const sample = readJson<{ operators: OperatorDef[]; services: ServiceDef[] }>(
    SAMPLE_NETWORK_FILE
  );
  const imported = dataDir ? readImported(dataDir) : undefined;
  if (!imported) return { operators: sample.operators, services: sample.services, voyages: [] };
  const used = new Set(
    [...imported.voyages, ...imported.services].flatMap((v) => [v.operator, ...(v.partners ?? [])])
  );
  const importedCodes = new Set(imported.operators.map((o) => o.scac.toUpperCase()));
  // Sample operators keep their names for imported voyages that use their SCAC.
  const sampleOps = sample.operators.filter(
    (o) => !importedCodes.has(o.scac.toUpperCase()) && (!imported.replaceSample || used.has(o.scac))
  );
  return {
    operators: [...sampleOps, ...imported.operators],
    services: imported.replaceSample
      ? imported.services
      : [...sample.services, ...imported.services],
    voyages: imported.voyages,
  };
}

export function importedFile(dataDir: string): string {
  return path.join(dataDir, "schedules", "imported.json");
}

export function readImported(dataDir: string): ImportedSchedules | undefined {
  const file = importedFile(dataDir);
  return fs.existsSync(file) ? readJson<ImportedSchedules>(file) : undefined;
}

export function writeImported(dataDir: string, value: ImportedSchedules): string {
  const file = importedFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 1));
  fs.renameSync(tmp, file);
  return file;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

export interface ImportOptions {
  dataDir: string;
  /** Replace the sample network and earlier imports instead of extending them. */
  replace?: boolean;
  /** `dcsa` (DCSA Commercial Schedules v1 vessel schedules JSON) or `csv`; from the extension when absent. */
  format?: "dcsa" | "csv";
  /** Operator SCAC for DCSA vessel schedules that name none. */
  operator?: string;
  /** Modality of DCSA vessel schedules (default DEEPSEA). */
  modality?: ScheduledModality;
}

export interface ImportSummary {
  file: string;
  format: "dcsa" | "csv";
  voyages: number;
  newOperators: string[];
  warnings: string[];
  stored: string;
}

/** Reads a schedule file and stores its voyages in the data directory (JSON). */
export function importSchedules(file: string, options: ImportOptions): ImportSummary {
  const format = options.format ?? (/\.csv$/i.test(file) ? "csv" : "dcsa");
  const text = fs.readFileSync(file, "utf8");
  const source = `imported from ${path.basename(file)}`;
  const result =
    format === "csv"
      ? parseConnectionsCsv(text, { source })
      : parseDcsaVesselSchedules(JSON.parse(text), {
          source,
          operator: options.operator,
          modality: options.modality,
        });
  const previous = options.replace ? undefined : readImported(options.dataDir);
  const sample = readJson<{ operators: OperatorDef[] }>(SAMPLE_NETWORK_FILE);
  const known = new Set(
    [...sample.operators, ...(previous?.operators ?? [])].map((o) => o.scac.toUpperCase())
  );
  const newOperators = result.operatorCodes.filter((c) => !known.has(c.toUpperCase()));
  const stored: ImportedSchedules = {
    replaceSample: options.replace ? true : (previous?.replaceSample ?? false),
    operators: [
      ...(previous?.operators ?? []),
      ...newOperators.map((scac) => ({
        name: scac,
        scac,
        source: `${source}; name unknown, SCAC used as name`,
      })),
    ],
    services: previous?.services ?? [],
    voyages: [...(previous?.voyages ?? []), ...result.voyages],
    imports: [
      ...(previous?.imports ?? []),
      {
        file: path.resolve(file),
        format,
        importedAt: new Date().toISOString(),
        voyages: result.voyages.length,
      },
    ],
  };
  return {
    file,
    format,
    voyages: result.voyages.length,
    newOperators,
    warnings: result.warnings,
    stored: writeImported(options.dataDir, stored),
  };
}
