/** `route-sheets schedules …`: import carrier schedules for the route optimizer and try searches. */
import { Command } from "commander";
import * as fs from "node:fs";
import { loadEngine } from "../../data/load-engine";
import { importSchedules, loadOptimizer } from "../../data/optimizer";
import {
  isScheduledModality,
  SCHEDULED_MODALITIES,
  ScheduledModality,
} from "../../engine/optimizer";
import { CSV_COLUMNS } from "../../engine/optimizer/import/csv";

/** Same default as `route-sheets serve`. */
const DEFAULT_DATA_DIR = "./.route-sheets";

export function register(program: Command): void {
  const schedules = program
    .command("schedules")
    .description(
      "Schedules of the route optimizer: import carrier schedules, list operators, search routes."
    );

  schedules
    .command("import")
    .description(
      "Import schedules into a data directory: DCSA Commercial Schedules v1 vessel schedules (JSON array of " +
        "ServiceSchedule, as GET /v1/vessel-schedules returns) or a CSV of connections with the columns " +
        `${CSV_COLUMNS.join(",")}. Imports extend the sample network unless --replace is given.`
    )
    .argument("<file>", "a .json (DCSA) or .csv file")
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .option("--replace", "replace the sample network and earlier imports", false)
    .option("--format <format>", "dcsa or csv (default: from the file extension)")
    .option(
      "--operator <scac>",
      "operator SCAC for DCSA vessel schedules without vessel.operatorCarrierCode"
    )
    .option(
      "--modality <modality>",
      `modality of DCSA vessel schedules: ${SCHEDULED_MODALITIES.join(", ")}`,
      "DEEPSEA"
    )
    .action(
      (
        file: string,
        opts: {
          dataDir: string;
          replace: boolean;
          format?: string;
          operator?: string;
          modality: string;
        }
      ) => {
        if (!fs.existsSync(file)) throw new Error(`File not found: ${file}`);
        if (opts.format && opts.format !== "dcsa" && opts.format !== "csv")
          throw new Error(`--format must be dcsa or csv, not "${opts.format}".`);
        const modality = opts.modality.toUpperCase();
        if (!isScheduledModality(modality))
          throw new Error(`--modality must be one of ${SCHEDULED_MODALITIES.join(", ")}.`);
        const r = importSchedules(file, {
          dataDir: opts.dataDir,
          replace: opts.replace,
          format: opts.format as "dcsa" | "csv" | undefined,
          operator: opts.operator,
          modality: modality as ScheduledModality,
        });
        console.log(
          `Imported ${r.voyages} voyage(s) from ${file} (${r.format}) into ${r.stored}${opts.replace ? ", replacing the sample network" : ""}.`
        );
        if (r.newOperators.length)
          console.log(`New operator code(s), named by their code: ${r.newOperators.join(", ")}.`);
        for (const w of r.warnings) console.warn(`warning: ${w}`);
        // Build the network once so problems (unknown LOCODEs, no route for a hop) show now, not at serve time.
        const optimizer = loadOptimizer({
          dataDir: opts.dataDir,
          engine: loadEngine({ dataDir: opts.dataDir }),
        });
        const net = optimizer.network;
        console.log(
          `Network: ${net.patterns.length} services/voyages, ${net.trips.length} trips, ${net.connections.count} connections, ${net.stops.length} stops.`
        );
        for (const w of net.warnings) console.warn(`warning: ${w}`);
      }
    );

  schedules
    .command("operators")
    .description("List the operators of the route optimizer (id, SCAC, name) as JSON.")
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .action((opts: { dataDir: string }) => {
      const optimizer = loadOptimizer({
        dataDir: opts.dataDir,
        engine: loadEngine({ dataDir: opts.dataDir }),
      });
      console.log(JSON.stringify(optimizer.operators(), null, 2));
    });

  schedules
    .command("search")
    .description(
      "Route options as JSON, with the query parameters of GET /route-optimizer/api/external (e.g. origin=CNSHA destination=DEDUI sort=EMISSIONS)."
    )
    .argument(
      "<params...>",
      "name=value pairs; originType/destinationType default to the form of the value"
    )
    .option("--data-dir <dir>", "data directory", DEFAULT_DATA_DIR)
    .action((params: string[], opts: { dataDir: string }) => {
      const query: Record<string, string | string[]> = {};
      for (const p of params) {
        const i = p.indexOf("=");
        if (i <= 0) throw new Error(`Expected name=value, got "${p}".`);
        const [k, v] = [p.slice(0, i), p.slice(i + 1)];
        const prev = query[k];
        query[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
      }
      for (const side of ["origin", "destination"]) {
        const v = query[side];
        if (typeof v === "string" && query[`${side}Type`] === undefined)
          query[`${side}Type`] = placeType(v);
      }
      const optimizer = loadOptimizer({
        dataDir: opts.dataDir,
        engine: loadEngine({ dataDir: opts.dataDir }),
      });
      console.log(JSON.stringify(optimizer.search(query), null, 2));
    });
}

function placeType(value: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim()))
    return "TERMINAL";
  if (value.includes(",")) return "GEO";
  return "LOCODE";
}
