/** The route service client: one import for the custom functions, the task pane and the bench. */
export { RouteApiClient, NotCachedError } from "./api-client";
export type { RouteApiClientOptions, CallOptions, CacheStats, SettingsSource } from "./api-client";
export { ApiError, isApiError, isDefinitiveError } from "./errors";
export {
  SettingsStore,
  SETTINGS_KEYS,
  BASE_URL_PRESETS,
  normalizeBaseUrl,
  memoryStorage,
  defaultStorage,
  pageOrigin,
} from "./settings";
export type { ClientSettings, KeyValueStorage, BaseUrlPreset } from "./settings";
export { LruTtlCache } from "./cache";
export { backoffDelayMs, parseRetryAfter } from "./backoff";
export type { FetchLike, ResponseLike } from "./transport";
export * from "./types";
export { distinctRoutings, departureOf, routingKeyOf, frequencyText } from "./distinct-routings";
export type { DistinctRouting } from "./distinct-routings";
