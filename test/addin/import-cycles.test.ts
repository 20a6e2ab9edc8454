/**
 * The add-in's modules import one way: no file reaches itself through its imports (issue 30 found
 * route-functions.ts ↔ lane-functions.ts / lookup-functions.ts). Follows the relative imports
 * (type-only ones included: they tie the files together for a reader just the same) from the two
 * bundles' entry points, within the add-in's own folders (the engine's files are another area's).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../..");
const ENTRIES = ["src/functions/functions.ts", "src/taskpane/taskpane.ts"];
const ADDIN_FOLDERS = ["src/functions", "src/taskpane", "src/client"].map((f) =>
  path.join(ROOT, f)
);

function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => {
      const base = path.resolve(path.dirname(file), name);
      return [`${base}.ts`, path.join(base, "index.ts")].find((f) => fs.existsSync(f));
    })
    .filter((f): f is string => f !== undefined);
}

/** Every cycle found by a depth-first walk, as the files' paths from the root. */
function cycles(entries: string[], within: string[]): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const walk = (file: string) => {
    const at = stack.indexOf(file);
    if (at >= 0) {
      found.push([...stack.slice(at), file].map((f) => path.relative(ROOT, f)));
      return;
    }
    if (done.has(file) || !within.some((folder) => file.startsWith(folder + path.sep))) return;
    stack.push(file);
    for (const next of importsOf(file)) walk(next);
    stack.pop();
    done.add(file);
  };
  for (const entry of entries) walk(path.join(ROOT, entry));
  return found;
}

test("the add-in's imports have no cycle", () => {
  expect(cycles(ENTRIES, ADDIN_FOLDERS)).toEqual([]);
});

test("the walk finds a cycle when there is one", () => {
  const dir = fs.mkdtempSync(path.join(require("os").tmpdir(), "cycles-"));
  fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = b;\n');
  fs.writeFileSync(path.join(dir, "b.ts"), 'import type { a } from "./a";\nexport const b = 1;\n');
  try {
    expect(cycles([path.relative(ROOT, path.join(dir, "a.ts"))], [dir])).toHaveLength(1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
