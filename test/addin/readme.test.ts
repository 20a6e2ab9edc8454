/**
 * README.md says what is true in a clone: every relative link resolves to a file of the
 * repository, the `route-sheets --help` block is what the command prints, every option the command
 * synopsis names exists in that command's own --help, and every `npm run` script it names exists.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ensureAddinAndCliBuilt } from "./build-once";

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, "../..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const helpScript = require("../../scripts/readme-help.js") as {
  realHelp(): string;
  readmeHelp(text?: string): string | undefined;
};

const cliHelp = (args: string[]) =>
  execFileSync(process.execPath, [path.join(ROOT, "bin", "route-sheets.js"), ...args, "--help"], {
    cwd: ROOT,
    encoding: "utf8",
  });

beforeAll(() => ensureAddinAndCliBuilt());

test("every relative link of README.md and docs/*.md names a file of the repository", () => {
  const documents = [
    "README.md",
    ...fs
      .readdirSync(path.join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const checked: string[] = [];
  for (const doc of documents) {
    const text = fs.readFileSync(path.join(ROOT, doc), "utf8");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split("#")[0];
      if (!target || /^[a-z]+:/i.test(target)) continue;
      const file = path.resolve(path.dirname(path.join(ROOT, doc)), target);
      expect({ doc, target, exists: fs.existsSync(file) }).toEqual({ doc, target, exists: true });
      checked.push(`${doc} → ${target}`);
    }
  }
  expect(checked).toContain("README.md → docs/service.md");
  // The interface document lives outside the repository: never named as if it were here.
  expect(README).not.toMatch(/service-interface\.md/);
});

test("the route-sheets --help block is what npx route-sheets --help prints", () => {
  const shown = helpScript.readmeHelp(README);
  expect(shown).toBeDefined();
  // On a difference: node scripts/readme-help.js --write
  expect(shown).toBe(helpScript.realHelp());
  expect(shown).toMatch(/^Usage: route-sheets \[options\] \[command\]/);
});

test("every option of the command synopsis exists in that command's --help", () => {
  const block = /The ones used\s+most:\n\n```text\n([\s\S]*?)\n```/.exec(README)![1];
  const entries: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("route-sheets ")) entries.push(line);
    else entries[entries.length - 1] += ` ${line.trim()}`;
  }
  expect(entries.length).toBeGreaterThanOrEqual(10);
  for (const entry of entries) {
    const words = entry.split(/\s+/).slice(1);
    const command = words.slice(
      0,
      words.findIndex((w) => !/^[a-z][a-z-]*$/.test(w))
    );
    const help = cliHelp(command);
    const options = [...entry.matchAll(/(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b/g)].map((m) => m[1]);
    for (const option of options)
      expect({
        command: command.join(" "),
        option,
        listed: new RegExp(`(^|[\\s,])${option}\\b`, "m").test(help),
      }).toEqual({
        command: command.join(" "),
        option,
        listed: true,
      });
  }
});

test("every npm script README.md names exists", () => {
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const named = [...README.matchAll(/npm run ([a-z][a-z:-]*)/g)].map((m) => m[1]);
  expect(named).toEqual(expect.arrayContaining(["sideload", "sideload:web", "unload", "validate"]));
  for (const name of named)
    expect({ name, exists: name in scripts }).toEqual({ name, exists: true });
});
