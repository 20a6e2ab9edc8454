/**
 * The task pane: Connection (service, API key, test, cache), Route options (search, results,
 * legs, map, insert into the sheet) and Footprint (the selected lanes' emissions with their ISO
 * 14083 method block, exported for reporting). It shares the settings store and client with the custom
 * functions (shared runtime: this page also loads functions.js). Outside Excel it says so and keeps
 * working for what needs no workbook.
 */
import { initConnectionView } from "./connection-view";
import { byId } from "./dom";
import { initFootprintPanel } from "./footprint-view";
import { initFreezePanel } from "./freeze-view";
import { hasExcel, HostState, missingRuntime, waitForOffice } from "./office-host";
import { initResultsView } from "./results-view";
import { initSearchView } from "./search-view";
import { initTheme } from "./theme";

function initTabs(onShow: (tab: string) => void): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>("[role=tab]")];
  const activate = (tab: HTMLButtonElement, focus: boolean) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      byId(t.getAttribute("aria-controls")!).hidden = !on;
    }
    if (focus) tab.focus();
    onShow(tab.id);
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => activate(tab, false));
    tab.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      event.preventDefault();
      activate(tabs[(i + step + tabs.length) % tabs.length], true);
    });
  });
}

function showHost(state: HostState): void {
  const banner = byId("host-banner");
  document.body.dataset.host = state.kind;
  if (state.kind === "excel") {
    const missing = missingRuntime();
    banner.hidden = !missing;
    banner.textContent = missing ?? "";
    if (missing) document.body.dataset.runtime = "missing";
    return;
  }
  banner.hidden = false;
  if (state.kind === "no-office")
    byId("api-key-hint").textContent =
      "Outside Office: stored in this browser's local storage, never in a workbook.";
  banner.textContent =
    state.kind === "other-host"
      ? `Route Sheets is an Excel add-in; this is ${state.host}. Connection settings work here, inserting tables does not.`
      : `${state.reason} You can still set and test the connection and search route options; inserting tables needs Excel (settings are kept in this browser only).`;
}

async function init(): Promise<void> {
  byId("app").setAttribute("aria-busy", "true");
  initTheme();
  const host = await waitForOffice();
  // Office's theme is known once Office is ready.
  initTheme();
  showHost(host);
  initFreezePanel(host.kind === "excel" && hasExcel());
  initFootprintPanel(host.kind === "excel" && hasExcel());

  const results = initResultsView();
  results.setExcelAvailable(host.kind === "excel" && hasExcel());
  const search = initSearchView({
    onResults: (answer, routings) => results.show(answer, routings),
  });
  let operatorsLoaded = false;
  initTabs((tab) => {
    if (tab === "tab-search" && !operatorsLoaded) {
      operatorsLoaded = true;
      void search.loadOperators();
    }
  });
  await initConnectionView({
    onOperators: (ops) => {
      operatorsLoaded = true;
      search.setOperators(ops);
    },
    onSaved: () => {
      operatorsLoaded = false;
    },
  });
  byId("app").removeAttribute("aria-busy");
  document.body.dataset.ready = "true";
}

// taskpane.html's ES5 check found a runtime too old for this bundle and shows why: leave it be.
const unsupported = (globalThis as { __routeSheetsUnsupported?: boolean }).__routeSheetsUnsupported;
if (!unsupported) void start();

function start(): Promise<void> {
  return init().catch((error) => {
    const status = document.getElementById("status");
    if (status)
      status.textContent = `Could not start: ${error instanceof Error ? error.message : String(error)}`;
  });
}
