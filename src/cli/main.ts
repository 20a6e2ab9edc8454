/** The `route-sheets` command. Each sub-command lives in its own module under ./commands. */
import { Command } from "commander";

type CommandModule = { register(program: Command): void };

/**
 * Command modules, loaded only when needed: `route-sheets lanes` is run in bulk from scripts, and
 * the service's modules (Fastify, SQLite, TLS) take longer to load than a small lane sheet takes.
 */
const MODULES: Array<{ commands: string[]; load: () => CommandModule }> = [
  { commands: ["data"], load: () => require("./commands/data") as CommandModule },
  { commands: ["lanes"], load: () => require("./commands/lanes") as CommandModule },
  {
    commands: ["serve", "keys", "credits", "usage"],
    load: () => require("./commands/service") as CommandModule,
  },
  { commands: ["start"], load: () => require("./commands/start") as CommandModule },
  { commands: ["schedules"], load: () => require("./commands/schedules") as CommandModule },
  { commands: ["db"], load: () => require("./commands/db") as CommandModule },
];

const program = new Command("route-sheets")
  .description(
    "Freight distances, CO2e emissions and multimodal route options: service, add-in host and tools."
  )
  .showHelpAfterError();

// A known command: only its module. Anything else (help, a typo): all of them, for the full listing.
const wanted = MODULES.filter((m) => m.commands.includes(process.argv[2]));
for (const mod of wanted.length ? wanted : MODULES) mod.load().register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
