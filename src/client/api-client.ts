/**
 * Typed client of the route service, shared by the custom functions and the task pane.
 * Browser-safe (fetch only). Each call: cache → identical call in flight → batch window → HTTP;
 * a request settles within `deadlineMs` of being made.
 *
 * Caching policy: 2xx answers are cached for `cacheTtlMs`; definitive 4xx answers about the
 * question (400 Incorrect Values, 404 Unknown Data / Not Found) for `errorCacheTtlMs`. Answers
 * about the key, the credits or the rate (401, 402, 403, 429) and transient failures (5xx, no
 * answer) are never cached, so fixing the key or waiting and recalculating works at once.
 */
import { DEFAULT_BACKOFF, BackoffOptions, sleep } from "./backoff";
import { Batcher, Outcome } from "./batcher";
import { LruTtlCache } from "./cache";
import {
  ApiError,
  errorFromProblem,
  isApiError,
  isDefinitiveError,
  isTransient,
  timedOut,
  unavailable,
} from "./errors";
import { canonicalQuery, compactQuery, joinUrl } from "./query";
import type { ClientSettings } from "./settings";
import { DEFAULT_TRANSPORT, FetchLike, HttpAnswer, Transport } from "./transport";
import {
  AccountInfo,
  ApiCall,
  DistanceAnswer,
  DistanceParams,
  EmissionsAnswer,
  EmissionsParams,
  LaneAnswer,
  OperatorRecord,
  PATHS,
  PlaceChoice,
  PlaceMatch,
  PlacesAnswer,
  PlacesParams,
  Query,
  RouteOptionsAnswer,
  RouteOptionsParams,
  RoutePathAnswer,
  RoutePathParams,
  TerminalRecord,
  TerminalsParams,
} from "./types";

export interface SettingsSource {
  get(): Promise<ClientSettings>;
}

export interface RouteApiClientOptions {
  settings: SettingsSource;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** Quiet time (ms) after the last call that closes a batch window. */
  windowMs?: number;
  /** Longest (ms) a call waits in an open window. */
  maxWaitMs?: number;
  /** Calls per batch request (the service accepts up to 1,000). */
  maxBatchSize?: number;
  concurrency?: number;
  minIntervalMs?: number;
  requestTimeoutMs?: number;
  /** Every call settles within this many ms, whatever the network does. */
  deadlineMs?: number;
  maxRetries?: number;
  maxRateLimitRetries?: number;
  backoff?: BackoffOptions;
  cacheTtlMs?: number;
  errorCacheTtlMs?: number;
  cacheMaxEntries?: number;
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface CallOptions {
  /** Answer from the cache only (formula value preview): no request, no credit. */
  cacheOnly?: boolean;
}

export interface CacheStats {
  /** Answers held in the cache. */
  entries: number;
  /** Calls answered from the cache. */
  hits: number;
  /** Calls the cache could not answer. */
  misses: number;
  /** Calls that joined an identical call already in flight. */
  deduped: number;
  /** Calls that needed no request of their own: hits + deduped. */
  requestsSaved: number;
  /** HTTP requests sent, retries included. */
  requestsSent: number;
  /** Groups of calls sent together (one batch request, or parallel GETs when batching is unavailable). */
  batches: number;
}

/** Thrown for `cacheOnly` calls the cache cannot answer. */
export class NotCachedError extends Error {
  constructor() {
    super("Not in the cache");
    this.name = "NotCachedError";
  }
}

const BATCH_UNSUPPORTED = new Set([404, 405, 501]);

export class RouteApiClient {
  private readonly transport: Transport;
  private readonly batcher: Batcher;
  private readonly cache: LruTtlCache<Outcome>;
  private readonly inflight = new Map<string, Promise<Outcome>>();
  /** Per base URL: whether POST /batch works (absent = not tried yet). */
  private readonly batchSupport = new Map<string, boolean>();
  private readonly deadlineMs: number;
  /** How long the transport may work on a send: the deadline less the batching wait and a margin. */
  private readonly workMs: number;
  private readonly cacheTtlMs: number;
  private readonly errorCacheTtlMs: number;
  private readonly now: () => number;
  private stats = { hits: 0, misses: 0, deduped: 0 };
  private readonly deadlines: SharedDeadline;

  constructor(private readonly options: RouteApiClientOptions) {
    this.now = options.now ?? (() => Date.now());
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    // A call may wait up to maxWaitMs in the batching window before it is sent; the transport stops
    // early enough to hand back its best answer (e.g. the last 429) before the call's hard deadline.
    this.workMs = Math.max(0, this.deadlineMs - (options.maxWaitMs ?? 100) - SETTLE_MARGIN_MS);
    this.deadlines = new SharedDeadline(this.deadlineMs, () =>
      failed(timedOut(`No answer within ${Math.round(this.deadlineMs / 1000)} s`))
    );
    this.cacheTtlMs = options.cacheTtlMs ?? 6 * 3600_000;
    this.errorCacheTtlMs = options.errorCacheTtlMs ?? 10 * 60_000;
    const fetchImpl = options.fetch ?? defaultFetch();
    this.transport = new Transport({
      ...DEFAULT_TRANSPORT,
      fetch: fetchImpl,
      concurrency: options.concurrency ?? DEFAULT_TRANSPORT.concurrency,
      minIntervalMs: options.minIntervalMs ?? DEFAULT_TRANSPORT.minIntervalMs,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_TRANSPORT.requestTimeoutMs,
      maxRetries: options.maxRetries ?? DEFAULT_TRANSPORT.maxRetries,
      maxRateLimitRetries: options.maxRateLimitRetries ?? DEFAULT_TRANSPORT.maxRateLimitRetries,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      random: options.random ?? Math.random,
      now: this.now,
      sleep: options.sleep ?? sleep,
    });
    this.batcher = new Batcher(
      {
        windowMs: options.windowMs ?? 15,
        maxWaitMs: options.maxWaitMs ?? 100,
        maxBatchSize: Math.min(1000, options.maxBatchSize ?? 1000),
      },
      (settings, calls) => this.sendGroup(settings, calls)
    );
    this.cache = new LruTtlCache<Outcome>({
      maxEntries: options.cacheMaxEntries ?? 50_000,
      ttlMs: this.cacheTtlMs,
      now: this.now,
    });
  }

  /** Distance in metres (`GET /route-information/api/distance`). */
  async distance(params: DistanceParams, options: CallOptions = {}): Promise<DistanceAnswer> {
    const body = await this.call(
      { type: "distance", path: PATHS.distance, query: { ...params } },
      options
    );
    const distance = numberField(body, "distance");
    return { distance };
  }

  /** kg CO2e per TEU and per tonne, and the distance (`GET /route-information/api/emissions`). */
  async emissions(params: EmissionsParams, options: CallOptions = {}): Promise<EmissionsAnswer> {
    const body = await this.call(
      { type: "emissions", path: PATHS.emissions, query: { ...params } },
      options
    );
    return {
      co2eTeu: numberField(body, "co2eTeu"),
      co2eTon: numberField(body, "co2eTon"),
      distance: numberField(body, "distance"),
      ...(params.containers !== undefined || params.weightTons !== undefined
        ? { co2eKg: numberField(body, "co2eKg") }
        : {}),
    };
  }

  /**
   * The body of any call, for extensions the typed methods do not cover (include=time/eca,
   * /chain; see emission-extensions.ts): with a `type` it is batched like the typed calls.
   */
  async raw(call: ApiCall, options: CallOptions = {}): Promise<unknown> {
    return this.call(call, options);
  }

  /**
   * Emissions with the passages of the route (extension `include=passages` on /emissions): one
   * call gives distance, kg CO2e per TEU and per tonne and the canals and straits in route order.
   * Batched like emissions; the cache key carries `include`, so it never answers a plain call.
   */
  async lane(params: EmissionsParams, options: CallOptions = {}): Promise<LaneAnswer> {
    const body = await this.call(
      { type: "emissions", path: PATHS.emissions, query: { ...params, include: "passages" } },
      options
    );
    return {
      co2eTeu: numberField(body, "co2eTeu"),
      co2eTon: numberField(body, "co2eTon"),
      distance: numberField(body, "distance"),
      passages: stringListField(body, "passages"),
    };
  }

  /** The calling key's account and balances (extension `GET /account`, free, never cached). */
  async account(): Promise<AccountInfo> {
    const body = (await this.call({ path: PATHS.account, query: {}, fresh: true }, {})) as {
      credits?: { routeInformation?: unknown; routeOptimizer?: unknown };
      rateLimit?: { perSecond?: unknown; burst?: unknown };
    } & Record<string, unknown>;
    const credits = body?.credits;
    const rate = body?.rateLimit;
    if (
      typeof body?.name !== "string" ||
      typeof credits?.routeInformation !== "number" ||
      typeof credits?.routeOptimizer !== "number"
    )
      throw unexpected("an account with name and credits");
    return {
      name: body.name,
      tier: body.tier === "free" ? "free" : "paid",
      active: body.active !== false,
      optimizerAccess: body.optimizerAccess === true,
      credits: {
        routeInformation: credits.routeInformation,
        routeOptimizer: credits.routeOptimizer,
      },
      rateLimit: {
        perSecond: typeof rate?.perSecond === "number" ? rate.perSecond : NaN,
        burst: typeof rate?.burst === "number" ? rate.burst : NaN,
      },
    };
  }

  /** Terminals of a LOCODE, best name match first; [] when none match (204). */
  async terminals(params: TerminalsParams, options: CallOptions = {}): Promise<TerminalRecord[]> {
    const body = await this.call(
      { type: "terminals", path: PATHS.terminals, query: { ...params } },
      options
    );
    if (body === null || body === undefined) return [];
    if (!Array.isArray(body)) throw unexpected("a list of terminals");
    return body as TerminalRecord[];
  }

  /**
   * The routed path of a distance query as a GeoJSON Feature (extension
   * `GET /route-information/api/path`; cached like distance, not batched). A service without the
   * extension (e.g. Routescanner Connect) answers 404 Not Found or 405: an ApiError like any
   * other, on which the caller falls back (the task pane map draws a great-circle arc). Such 404s
   * are cached like definitive errors, so the fallback costs one request per path.
   */
  async routePath(params: RoutePathParams, options: CallOptions = {}): Promise<RoutePathAnswer> {
    const body = await this.call({ path: PATHS.path, query: { ...params } }, options);
    return pathFeatureOf(body);
  }

  /**
   * Places by name or code, best first (extension `GET /route-information/api/places`, free).
   * Cached like the other answers, so a sheet repeating a name asks once.
   */
  async places(params: PlacesParams, options: CallOptions = {}): Promise<PlacesAnswer> {
    const body = await this.call({ path: PATHS.places, query: { ...params } }, options);
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw unexpected("an object with a results list of places");
    const choice = (body as { choice?: unknown }).choice;
    return {
      query: String((body as { query?: unknown }).query ?? params.query),
      results: results.filter(isPlaceMatch),
      ...(isPlaceChoice(choice) ? { choice } : {}),
    };
  }

  /** Multimodal route options (`GET /route-optimizer/api/external`); needs optimizer access. */
  async routeOptions(
    params: RouteOptionsParams,
    options: CallOptions = {}
  ): Promise<RouteOptionsAnswer> {
    const body = await this.call({ path: PATHS.routeOptions, query: params as Query }, options);
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw unexpected("an object with a results list");
    return body as RouteOptionsAnswer;
  }

  /** All operators (`GET /route-optimizer/api/external/operators`); needs optimizer access. */
  async operators(options: CallOptions = {}): Promise<OperatorRecord[]> {
    const body = await this.call({ path: PATHS.operators, query: {} }, options);
    if (Array.isArray(body)) return body as OperatorRecord[];
    const wrapped = body as { operators?: unknown; results?: unknown } | null;
    if (Array.isArray(wrapped?.operators)) return wrapped!.operators as OperatorRecord[];
    if (Array.isArray(wrapped?.results)) return wrapped!.results as OperatorRecord[];
    if (wrapped && typeof (wrapped as OperatorRecord).id === "string")
      return [wrapped as OperatorRecord];
    throw unexpected("a list of operators");
  }

  cacheStats(): CacheStats {
    const { hits, misses, deduped } = this.stats;
    return {
      entries: this.cache.size,
      hits,
      misses,
      deduped,
      requestsSaved: hits + deduped,
      requestsSent: this.transport.requestsSent,
      batches: this.batcher.flushes,
    };
  }

  /** Empties the cache and resets the hit counters (requests sent keep counting). */
  clearCache(): void {
    this.cache.clear();
    this.stats = { hits: 0, misses: 0, deduped: 0 };
  }

  /**
   * Resolves with the answer body or rejects with an ApiError. Answers from the cache come at once;
   * a request in flight settles within the deadline, and calls that join it share its timer (a
   * timer per call cost more than the calls on a 5,000-row column).
   */
  private async call(call: ApiCall, options: CallOptions): Promise<unknown> {
    const settings = await this.options.settings.get();
    const cacheKey = `${settings.baseUrl} ${call.path}?${canonicalQuery(call.query)}`;
    const cached = call.fresh ? undefined : this.cache.get(cacheKey);
    if (cached) {
      this.stats.hits++;
      return unwrap(cached);
    }
    this.stats.misses++;
    if (options.cacheOnly) throw new NotCachedError();
    // Identical calls share a flight only under the same key: another key may get another answer.
    const flightKey = `${cacheKey}\n${settings.apiKey}`;
    let flight = this.inflight.get(flightKey);
    if (flight) {
      this.stats.deduped++;
    } else {
      flight = this.withinDeadline(this.dispatch(settings, call)).then((outcome) => {
        this.inflight.delete(flightKey);
        if (call.fresh) return outcome;
        if (outcome.ok) this.cache.set(cacheKey, outcome, this.cacheTtlMs);
        else if (isDefinitiveError(outcome.error))
          this.cache.set(cacheKey, outcome, this.errorCacheTtlMs);
        return outcome;
      });
      this.inflight.set(flightKey, flight);
    }
    return unwrap(await flight);
  }

  /** The outcome of `work`, or "no answer" when it takes longer than the deadline. */
  private withinDeadline(work: Promise<Outcome>): Promise<Outcome> {
    const limit = this.deadlines.join();
    return Promise.race([work, limit.expired]).finally(limit.leave);
  }

  private dispatch(settings: ClientSettings, call: ApiCall): Promise<Outcome> {
    if (!settings.baseUrl) {
      return Promise.resolve(
        failed(unavailable("No service URL is set: open the Route Sheets pane"))
      );
    }
    if (call.type) return this.batcher.enqueue(settings, call);
    return this.sendOne(settings, call, this.now() + this.workMs);
  }

  /** Sends a window's calls: one POST per ≤1,000 when the service has the batch extension, else GETs. */
  private async sendGroup(settings: ClientSettings, calls: ApiCall[]): Promise<Outcome[]> {
    const deadline = this.now() + this.workMs;
    const base = settings.baseUrl;
    if (calls.length > 1 && this.batchSupport.get(base) !== false) {
      const batched = await this.sendBatch(settings, calls, deadline);
      if (batched) return batched;
    }
    return Promise.all(calls.map((call) => this.sendOne(settings, call, deadline)));
  }

  /** Outcomes of a batch request, or undefined when the calls should go as GETs instead. */
  private async sendBatch(
    settings: ClientSettings,
    calls: ApiCall[],
    deadline: number
  ): Promise<Outcome[] | undefined> {
    let answer: HttpAnswer;
    try {
      answer = await this.transport.send(
        {
          method: "POST",
          url: joinUrl(settings.baseUrl, PATHS.batch),
          headers: { ...headersOf(settings), "content-type": "application/json" },
          body: JSON.stringify({
            requests: calls.map((call) => ({ type: call.type, ...compactQuery(call.query) })),
          }),
        },
        deadline
      );
    } catch (error) {
      return calls.map(() => failed(asApiError(error)));
    }
    if (BATCH_UNSUPPORTED.has(answer.status)) {
      this.batchSupport.set(settings.baseUrl, false);
      return undefined;
    }
    if (answer.status < 200 || answer.status >= 300) {
      // The whole batch was refused (no key, out of credits, still rate limited…): same answer for each call.
      const error = errorFromProblem(answer.status, answer.body, answer.statusText);
      return calls.map(() => failed(error));
    }
    const results = (answer.body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results) || results.length !== calls.length) return undefined;
    this.batchSupport.set(settings.baseUrl, true);
    const outcomes = results.map((item) => {
      const { status, body } = (item ?? {}) as { status?: unknown; body?: unknown };
      return outcomeOf(typeof status === "number" ? status : 500, body ?? null, "");
    });
    // Items refused for rate or server trouble get a second chance on their own, with backoff.
    await Promise.all(
      outcomes.map(async (outcome, i) => {
        if (!outcome.ok && isTransient(outcome.error.status))
          outcomes[i] = await this.sendOne(settings, calls[i], deadline);
      })
    );
    return outcomes;
  }

  private async sendOne(
    settings: ClientSettings,
    call: ApiCall,
    deadline: number
  ): Promise<Outcome> {
    try {
      const answer = await this.transport.send(
        {
          method: "GET",
          url: joinUrl(settings.baseUrl, call.path, canonicalQuery(call.query)),
          headers: headersOf(settings),
        },
        deadline
      );
      return outcomeOf(answer.status, answer.body, answer.statusText);
    } catch (error) {
      return failed(asApiError(error));
    }
  }
}

/** Requests made within this many ms of each other share one deadline timer (it fires up to this much early). */
const DEADLINE_SHARING_MS = 50;

/**
 * One deadline timer for the requests made close together (a column's 5,000 lanes are made within
 * a few ms; a timer each cost more than the requests). Each request joins the current timer, or
 * starts a new one; the timer is cleared when every request that joined it has settled.
 */
class SharedDeadline {
  private current:
    | {
        startedAt: number;
        members: number;
        timer: ReturnType<typeof setTimeout>;
        expired: Promise<Outcome>;
      }
    | undefined;

  constructor(
    private readonly ms: number,
    private readonly expiry: () => Outcome
  ) {}

  join(): { expired: Promise<Outcome>; leave: () => void } {
    const now = Date.now();
    let shared = this.current;
    if (!shared || now - shared.startedAt > DEADLINE_SHARING_MS) {
      let fire!: (outcome: Outcome) => void;
      const expired = new Promise<Outcome>((resolve) => (fire = resolve));
      const timer = setTimeout(() => fire(this.expiry()), this.ms);
      shared = { startedAt: now, members: 0, timer, expired };
      this.current = shared;
    }
    const group = shared;
    group.members++;
    let left = false;
    return {
      expired: group.expired,
      leave: () => {
        if (left) return;
        left = true;
        if (--group.members === 0) {
          clearTimeout(group.timer);
          if (this.current === group) this.current = undefined;
        }
      },
    };
  }
}

/**
 * Longest a call waits by default: a cell waiting on a dead service shows #N/A with the reason
 * within 10 s (Excel shows #BUSY! until then), while a slow but working service still answers.
 */
export const DEFAULT_DEADLINE_MS = 9_000;

/** Time kept between the transport's last answer and the call's hard deadline. */
const SETTLE_MARGIN_MS = 100;

function headersOf(settings: ClientSettings): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (settings.apiKey) headers["x-api-key"] = settings.apiKey;
  return headers;
}

function outcomeOf(status: number, body: unknown, statusText: string): Outcome {
  if (status >= 200 && status < 300)
    return { ok: true, status, body: status === 204 ? null : body };
  return failed(errorFromProblem(status, body, statusText));
}

function failed(error: ApiError): Outcome {
  return { ok: false, error };
}

function unwrap(outcome: Outcome): unknown {
  if (outcome.ok) return outcome.body;
  throw outcome.error;
}

function asApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  return unavailable(error instanceof Error ? error.message : String(error));
}

function unexpected(expected: string): ApiError {
  return unavailable(`Unexpected answer from the service: expected ${expected}`);
}

/** Checks the Feature's shape, so a map never draws half a path from an odd answer. */
function pathFeatureOf(body: unknown): RoutePathAnswer {
  const f = body as {
    type?: unknown;
    geometry?: { type?: unknown; coordinates?: unknown };
    properties?: Record<string, unknown>;
  } | null;
  const coordinates = f?.geometry?.coordinates;
  const ok =
    f?.type === "Feature" &&
    f.geometry?.type === "LineString" &&
    Array.isArray(coordinates) &&
    coordinates.length >= 2 &&
    coordinates.every(
      (c) =>
        Array.isArray(c) &&
        c.length >= 2 &&
        Number.isFinite(c[0]) &&
        Number.isFinite(c[1]) &&
        Math.abs(c[1]) <= 90
    );
  if (!ok) throw unexpected("a GeoJSON Feature with a LineString of [lng, lat] points");
  const props = f!.properties ?? {};
  return {
    type: "Feature",
    geometry: {
      type: "LineString",
      coordinates: (coordinates as number[][]).map((c) => [c[0], c[1]] as [number, number]),
    },
    properties: {
      distance: typeof props.distance === "number" ? props.distance : NaN,
      modality: typeof props.modality === "string" ? props.modality : "",
      passages: Array.isArray(props.passages)
        ? props.passages.filter((p): p is string => typeof p === "string")
        : [],
    },
  };
}

function isPlaceMatch(item: unknown): item is PlaceMatch {
  const m = item as Partial<PlaceMatch> | null;
  return (
    typeof m?.name === "string" &&
    (m.kind === "port" || m.kind === "terminal" || m.kind === "place") &&
    (m.match === "exact" || m.match === "fuzzy")
  );
}

function isPlaceChoice(item: unknown): item is PlaceChoice {
  const c = item as { kind?: unknown; message?: unknown } | null;
  if (c?.kind === "one") return true;
  return (c?.kind === "ambiguous" || c?.kind === "unknown") && typeof c.message === "string";
}

function stringListField(body: unknown, field: string): string[] {
  const value = (body as Record<string, unknown> | null)?.[field];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string"))
    throw unexpected(
      `a list of names in "${field}" (a service with the include=passages extension)`
    );
  return value;
}

function numberField(body: unknown, field: string): number {
  const value = (body as Record<string, unknown> | null)?.[field];
  if (typeof value !== "number" || !Number.isFinite(value))
    throw unexpected(`a number in "${field}"`);
  return value;
}

function defaultFetch(): FetchLike {
  const f = (globalThis as { fetch?: unknown }).fetch;
  if (typeof f !== "function") throw new Error("No fetch available: pass options.fetch");
  return (url, init) => (f as FetchLike)(url, init);
}
