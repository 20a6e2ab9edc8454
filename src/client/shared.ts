/**
 * The one settings store and client of the add-in page. In the shared runtime the custom functions
 * and the task pane run in the same page and (with webpack's single runtime chunk) share these
 * instances, so a key saved in the pane applies to the next recalculation and both see one cache.
 */
import { RouteApiClient, RouteApiClientOptions } from "./api-client";
import { SettingsStore } from "./settings";

let settings: SettingsStore | undefined;
let client: RouteApiClient | undefined;

/** Optional tuning, e.g. shorter deadlines in tests: set `globalThis.routeSheetsClientOptions` before the bundle loads. */
type Tuning = Partial<Omit<RouteApiClientOptions, "settings">>;

export function sharedSettings(): SettingsStore {
  if (!settings) settings = new SettingsStore();
  return settings;
}

export function sharedClient(): RouteApiClient {
  if (!client) {
    const tuning =
      (globalThis as { routeSheetsClientOptions?: Tuning }).routeSheetsClientOptions ?? {};
    client = new RouteApiClient({ ...tuning, settings: sharedSettings() });
  }
  return client;
}
