/** The `route-sheets` command. Each sub-command lives in its own module under ./commands. */
import { Command } from "commander";
import * as data from "./commands/data";
import * as lanes from "./commands/lanes";
import * as service from "./commands/service";
import * as start from "./commands/start";
import * as schedules from "./commands/schedules";

const program = new Command("route-sheets")
  .description(
    "Freight distances, CO2e emissions and multimodal route options: service, add-in host and tools."
  )
  .showHelpAfterError();

for (const mod of [data, lanes, start, service, schedules]) mod.register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
