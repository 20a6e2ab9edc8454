/**
 * The Footprint tab: "Export footprint" reads the selected lanes, asks the service for each lane's
 * emissions with their ISO 14083 method block, and hands the document over as downloads (JSON and
 * CSV, as `route-sheets lanes --footprint` writes them: the sheet's own columns first, in the CSV
 * format this Excel opens) and, when ticked, as the same table on a new sheet.
 */
import { footprintCsv, FootprintDocument, SheetColumn } from "../client/footprint";
import { sharedClient } from "../client/shared";
import { byId, whileBusy } from "./dom";
import { laneFootprintsOf, lanesOfGrid, sheetColumnsOfGrid } from "./footprint-export";
import { readCsvFormat, readLaneRange, writeFootprintTable } from "./footprint-sheet";

/** `lane-footprint-2026-11-26`: the CLI's pair for a name ending in .csv (x.csv + x.json). */
export function footprintFileBase(now: Date): string {
  return `lane-footprint-${now.toISOString().slice(0, 10)}`;
}

export function initFootprintPanel(excel: boolean): void {
  const button = byId<HTMLButtonElement>("export-footprint");
  const toSheet = byId<HTMLInputElement>("footprint-to-sheet");
  const status = byId("footprint-status");
  const downloads = byId("footprint-downloads");
  const jsonLink = byId<HTMLAnchorElement>("footprint-json");
  const csvLink = byId<HTMLAnchorElement>("footprint-csv");
  const urls: string[] = [];

  const say = (state: string, text: string) => {
    status.dataset.state = state;
    status.textContent = text;
  };

  button.addEventListener("click", async () => {
    if (!excel) {
      say("error", "Exporting needs Excel: open this pane from the Route Sheets button in Excel.");
      return;
    }
    downloads.hidden = true;
    for (const url of urls.splice(0)) URL.revokeObjectURL(url);
    say("busy", "Reading the selected lanes…");
    try {
      const done = await whileBusy(byId("panel-footprint"), button, async () => {
        const { range, format } = await Excel.run(async (context) => ({
          range: await readLaneRange(context),
          format: await readCsvFormat(context),
        }));
        const lanes = lanesOfGrid(range.values, range.rowIndex);
        const columns: SheetColumn[] = sheetColumnsOfGrid(range.values).map(({ key, title }) => ({
          key,
          title,
        }));
        if (!lanes.length)
          throw new Error(
            `No lanes in ${range.sheet}!${range.address}: below the header, every row's origin and destination are blank.`
          );
        say("busy", `Asking the service for ${count(lanes.length, "lane")}…`);
        const now = new Date();
        const doc = await laneFootprintsOf(sharedClient(), lanes, now, (done) => {
          if (done < lanes.length)
            say(
              "busy",
              `Asked the service for ${done.toLocaleString("en-US")} of ${count(lanes.length, "lane")}…`
            );
        });
        const written = toSheet.checked
          ? await Excel.run((context) => writeFootprintTable(context, doc, columns))
          : undefined;
        return { range, doc, written, columns, format, base: footprintFileBase(now) };
      });
      offer(
        done.doc,
        done.base,
        footprintCsv(done.doc, { format: done.format, inputColumns: done.columns })
      );
      const failed = done.doc.lanes.filter((l) => l.error).length;
      say(
        failed === done.doc.lanes.length ? "error" : "ok",
        `Exported ${count(done.doc.lanes.length, "lane")} from ${done.range.sheet}!${done.range.address}` +
          (failed ? ` (${failed} with an error, in its row)` : "") +
          (done.written
            ? `; table ${done.written.table} on the sheet "${done.written.sheet}".`
            : ".") +
          " The JSON and CSV are downloading; the links below fetch them again."
      );
    } catch (error) {
      say("error", `Could not export: ${error instanceof Error ? error.message : String(error)}`);
    }
  });

  /** Both files as links (Blob + download attribute), and each fetched once at once. */
  function offer(doc: FootprintDocument, base: string, csv: string): void {
    const link = (a: HTMLAnchorElement, text: string, type: string, name: string) => {
      const url = URL.createObjectURL(new Blob([text], { type }));
      urls.push(url);
      a.href = url;
      a.download = name;
    };
    link(jsonLink, JSON.stringify(doc, null, 2) + "\n", "application/json", `${base}.json`);
    link(csvLink, csv, "text/csv", `${base}.csv`);
    downloads.hidden = false;
    jsonLink.click();
    csvLink.click();
  }
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
