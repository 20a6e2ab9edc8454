/**
 * The Connection tab: service (this server / Routescanner Connect / custom URL), API key (masked,
 * show/hide), Save, Test connection, and the cache panel. Settings go to the shared SettingsStore
 * (OfficeRuntime.storage inside Office; the page's localStorage only outside Office), never to the workbook.
 */
import { RouteApiClient } from "../client/api-client";
import { BASE_URL_PRESETS, normalizeBaseUrl, pageOrigin } from "../client/settings";
import { sharedClient, sharedSettings } from "../client/shared";
import type { OperatorRecord } from "../client/types";
import { diagnoseUnreachable } from "./connection-diagnosis";
import { checkConnection, ConnectionReport } from "./connection-status";
import { byId, h, whileBusy } from "./dom";
import { initFirstRunCard } from "./first-run";
import { hasExcel } from "./office-host";
import { recalculateAfterChange, recalculateWorkbook } from "./recalculate";

export interface ConnectionViewEvents {
  /** Operators seen by a successful connection test (so the search form need not ask again). */
  onOperators(operators: OperatorRecord[]): void;
  /** Settings saved (key or service changed). */
  onSaved(): void;
}

function presetOf(baseUrl: string): string {
  if (!baseUrl || baseUrl === pageOrigin()) return "this-server";
  const preset = BASE_URL_PRESETS.find((p) => p.url === baseUrl);
  return preset ? preset.id : "custom";
}

export async function initConnectionView(events: ConnectionViewEvents): Promise<void> {
  const form = byId<HTMLFormElement>("settings-form");
  const keyInput = byId<HTMLInputElement>("api-key");
  const toggle = byId<HTMLButtonElement>("toggle-key");
  const preset = byId<HTMLSelectElement>("base-url-preset");
  const urlInput = byId<HTMLInputElement>("base-url");
  const urlError = byId("base-url-error");
  const status = byId("status");
  const checksList = byId("connection-checks");
  const testButton = byId<HTMLButtonElement>("test-connection");
  const section = byId("panel-connection");

  const firstRun = initFirstRunCard();
  for (const p of BASE_URL_PRESETS) preset.add(new Option(p.label, p.id));
  const current = await sharedSettings().get();
  void firstRun.showAccount(() => sharedClient().account(), !!current.apiKey.trim());
  keyInput.value = current.apiKey;
  preset.value = presetOf(current.baseUrl);
  urlInput.value = current.baseUrl;

  const syncUrl = () => {
    const chosen = BASE_URL_PRESETS.find((p) => p.id === preset.value);
    urlInput.readOnly = preset.value !== "custom";
    if (preset.value === "this-server") urlInput.value = pageOrigin();
    else if (chosen?.url) urlInput.value = chosen.url;
    else if (preset.value === "custom") urlInput.focus();
  };
  preset.addEventListener("change", syncUrl);
  syncUrl();

  toggle.addEventListener("click", () => {
    const show = keyInput.type === "password";
    keyInput.type = show ? "text" : "password";
    toggle.textContent = show ? "Hide" : "Show";
    toggle.setAttribute("aria-pressed", String(show));
    toggle.setAttribute("aria-label", show ? "Hide the API key" : "Show the API key");
  });

  /** The base URL the form stands for, or an error shown next to the URL field. */
  const formBaseUrl = (): string | undefined => {
    urlError.textContent = "";
    urlInput.removeAttribute("aria-invalid");
    if (preset.value === "this-server") return pageOrigin();
    try {
      return normalizeBaseUrl(urlInput.value);
    } catch (error) {
      urlError.textContent = error instanceof Error ? error.message : String(error);
      urlInput.setAttribute("aria-invalid", "true");
      urlInput.focus();
      return undefined;
    }
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const baseUrl = formBaseUrl();
    if (baseUrl === undefined) return;
    try {
      await sharedSettings().save({
        apiKey: keyInput.value,
        baseUrl: preset.value === "this-server" ? "" : baseUrl,
      });
      // Checks of an earlier test describe settings that may no longer be these.
      checksList.replaceChildren();
      status.dataset.state = "busy";
      status.textContent = "Saved; recalculating the workbook…";
      events.onSaved();
      status.textContent = hasExcel()
        ? await recalculateAfterChange("Saved.")
        : "Saved (in this browser only: the page is not running inside Excel).";
      status.dataset.state = "ok";
      void firstRun.showAccount(() => sharedClient().account(), !!keyInput.value.trim());
    } catch (error) {
      status.dataset.state = "error";
      status.textContent = `Not saved: ${error instanceof Error ? error.message : String(error)}`;
    }
  });

  testButton.addEventListener("click", async () => {
    const baseUrl = formBaseUrl();
    if (baseUrl === undefined) return;
    status.dataset.state = "busy";
    status.textContent = "Testing the connection…";
    checksList.replaceChildren();
    // A client of its own: tests what is typed (saved or not) and never answers from the shared cache.
    const apiKey = keyInput.value.trim();
    const probe = new RouteApiClient({
      settings: { get: async () => ({ baseUrl, apiKey }) },
      maxRetries: 1,
      deadlineMs: 10_000,
    });
    const report = await whileBusy(section, testButton, () =>
      checkConnection(probe, baseUrl, apiKey, async (url) => (await diagnose(url)).message)
    );
    showReport(report);
    if (report.operators.length) events.onOperators(report.operators);
    // The balances of the key tested (saved or not).
    void firstRun.showAccount(() => probe.account(), !!apiKey);
  });

  const showReport = (report: ConnectionReport) => {
    status.dataset.state = report.ok ? "ok" : "error";
    status.textContent = report.summary;
    checksList.replaceChildren(
      ...report.checks.map((c) =>
        h(
          "li",
          {
            className: `check check-${c.ok === true ? "ok" : c.ok === false ? "fail" : "skip"}`,
            "data-check": c.id,
          },
          h(
            "span",
            { className: "check-icon", "aria-hidden": "true" },
            c.ok === true ? "✓" : c.ok === false ? "✗" : "–"
          ),
          h(
            "span",
            { className: "visually-hidden" },
            c.ok === true ? "Works: " : c.ok === false ? "Problem: " : "Not checked: "
          ),
          c.message
        )
      )
    );
  };

  initCachePanel();
}

/** Cache statistics and "Clear cache and recalculate". */
function initCachePanel(): void {
  const stats = byId("stats");
  const button = byId<HTMLButtonElement>("clear-cache");
  const note = byId("cache-status");
  const show = () => {
    const s = sharedClient().cacheStats();
    byId("stat-entries").textContent = s.entries.toLocaleString("en-US");
    byId("stat-hits").textContent = s.hits.toLocaleString("en-US");
    byId("stat-saved").textContent = s.requestsSaved.toLocaleString("en-US");
    byId("stat-sent").textContent = s.requestsSent.toLocaleString("en-US");
    stats.dataset.entries = String(s.entries);
  };
  button.addEventListener("click", async () => {
    sharedClient().clearCache();
    show();
    if (!hasExcel()) {
      note.textContent = "Cache cleared. Recalculation needs Excel.";
      return;
    }
    note.textContent = "Cache cleared; recalculating the workbook…";
    try {
      await whileBusy(byId("cache-panel"), button, () => recalculateWorkbook());
      note.textContent = "Cache cleared and the workbook recalculated.";
    } catch (error) {
      note.textContent = `Cache cleared, but recalculation failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  });
  show();
  setInterval(show, 2000);
}

/** Why `baseUrl` could not be reached, asking this pane's own server about ports on this computer. */
function diagnose(baseUrl: string) {
  return diagnoseUnreachable(baseUrl, {
    pageUrl: location.href,
    fetch: (url, init) => fetch(url, init),
    listening: async (port) => {
      try {
        const answer = await fetch(`${pageOrigin()}/addin/listening?port=${port}`, {
          cache: "no-store",
        });
        if (!answer.ok) return undefined;
        return ((await answer.json()) as { listening?: boolean }).listening;
      } catch {
        return undefined;
      }
    },
  });
}
