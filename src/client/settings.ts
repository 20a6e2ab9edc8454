/**
 * Where the add-in sends its calls and with which key. Values live in `OfficeRuntime.storage`
 * (shared by the custom functions and the task pane); the storage is injected so the client stays
 * testable outside Office. This is the only client module that looks at Office globals.
 */

export const SETTINGS_KEYS = {
  baseUrl: "routeSheets.baseUrl",
  apiKey: "routeSheets.apiKey",
} as const;

/** The async key/value store `OfficeRuntime.storage` offers (a subset). */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export interface ClientSettings {
  /** Service root without a trailing slash, e.g. `https://connect.routescanner.com`. */
  baseUrl: string;
  /** Empty when none is stored. */
  apiKey: string;
}

export interface BaseUrlPreset {
  id: "this-server" | "routescanner" | "custom";
  label: string;
  /** Null for "this server" (the add-in's own origin) and for "custom" (the user types it). */
  url: string | null;
}

export const BASE_URL_PRESETS: readonly BaseUrlPreset[] = [
  { id: "this-server", label: "This server (the one serving the add-in)", url: null },
  { id: "routescanner", label: "Routescanner Connect", url: "https://connect.routescanner.com" },
  { id: "custom", label: "Custom URL", url: null },
];

/** Trims and drops trailing slashes; rejects anything that is not an http(s) URL. */
export function normalizeBaseUrl(value: string): string {
  const text = value.trim().replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(
      `Base URL "${value}" is not a URL; expected e.g. https://connect.routescanner.com`
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`Base URL "${value}" must start with http:// or https://`);
  }
  return text;
}

/** A Map-backed store for tests and for pages without Office. */
export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const map = new Map(Object.entries(initial));
  return {
    getItem: async (key) => map.get(key) ?? null,
    setItem: async (key, value) => {
      map.set(key, value);
    },
    removeItem: async (key) => {
      map.delete(key);
    },
  };
}

interface OfficeGlobals {
  OfficeRuntime?: { storage?: KeyValueStorage };
  localStorage?: {
    getItem(k: string): string | null;
    setItem(k: string, v: string): void;
    removeItem(k: string): void;
  };
  location?: { origin?: string };
}

/** `OfficeRuntime.storage` when running inside Office, else the page's localStorage, else memory. */
export function defaultStorage(): KeyValueStorage {
  const g = globalThis as OfficeGlobals;
  if (g.OfficeRuntime?.storage) return g.OfficeRuntime.storage;
  const local = g.localStorage;
  if (local) {
    return {
      getItem: async (key) => local.getItem(key),
      setItem: async (key, value) => local.setItem(key, value),
      removeItem: async (key) => local.removeItem(key),
    };
  }
  return memoryStorage();
}

/** The add-in's own origin, which serves the API as well; empty outside a page. */
export function pageOrigin(): string {
  const origin = (globalThis as OfficeGlobals).location?.origin;
  return origin && origin !== "null" ? origin : "";
}

export type SettingsListener = (settings: ClientSettings) => void;

/**
 * Reads settings once and keeps them in memory; `save` writes through. The custom functions and
 * the task pane share one instance in the shared runtime, so a key saved in the pane is used by
 * the next recalculation without another storage read.
 */
export class SettingsStore {
  private loaded: Promise<ClientSettings> | undefined;
  private readonly listeners = new Set<SettingsListener>();

  constructor(
    private readonly storage: KeyValueStorage = defaultStorage(),
    /** Used when no base URL is stored. */
    private readonly fallbackBaseUrl: string = pageOrigin()
  ) {}

  get(): Promise<ClientSettings> {
    if (!this.loaded) {
      // A storage failure should not stick: answer with the defaults and read again next time.
      this.loaded = this.read().catch(() => {
        this.loaded = undefined;
        return { baseUrl: this.fallback(), apiKey: "" };
      });
    }
    return this.loaded;
  }

  /** Forgets the in-memory copy (e.g. when another window may have written the storage). */
  reload(): Promise<ClientSettings> {
    this.loaded = undefined;
    return this.get();
  }

  /** Stores the given values; an empty base URL reverts to the add-in's own origin. */
  async save(update: Partial<ClientSettings>): Promise<ClientSettings> {
    const current = await this.get();
    const next: ClientSettings = { ...current };
    if (update.baseUrl !== undefined) {
      if (update.baseUrl.trim() === "") {
        await this.storage.removeItem(SETTINGS_KEYS.baseUrl);
        next.baseUrl = this.fallback();
      } else {
        next.baseUrl = normalizeBaseUrl(update.baseUrl);
        await this.storage.setItem(SETTINGS_KEYS.baseUrl, next.baseUrl);
      }
    }
    if (update.apiKey !== undefined) {
      next.apiKey = update.apiKey.trim();
      if (next.apiKey) await this.storage.setItem(SETTINGS_KEYS.apiKey, next.apiKey);
      else await this.storage.removeItem(SETTINGS_KEYS.apiKey);
    }
    this.loaded = Promise.resolve(next);
    for (const listener of this.listeners) listener(next);
    return next;
  }

  onChange(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private fallback(): string {
    return this.fallbackBaseUrl.replace(/\/+$/, "");
  }

  private async read(): Promise<ClientSettings> {
    const [baseUrl, apiKey] = await Promise.all([
      this.storage.getItem(SETTINGS_KEYS.baseUrl),
      this.storage.getItem(SETTINGS_KEYS.apiKey),
    ]);
    return {
      baseUrl: baseUrl ? baseUrl.replace(/\/+$/, "") : this.fallback(),
      apiKey: apiKey ?? "",
    };
  }
}
