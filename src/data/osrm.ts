/**
 * TRUCK legs from an OSRM server (`--road-engine osrm=URL`), through its documented HTTP route
 * service: GET {URL}/route/v1/driving/{lng},{lat};{lng},{lat}?overview=false, whose answer is
 * {code: "Ok", routes: [{distance (m), duration (s)}]} or a code such as "NoRoute".
 *
 * The engine is synchronous and pure, so the service fetches the legs a request needs first
 * (prefetch) and the engine reads them from here (leg). A leg OSRM could not answer (timeout,
 * server down, bad answer) is not remembered, so the next request asks again; "NoRoute" is
 * remembered as no leg, and the engine's own estimate answers.
 */
import { LatLng } from "../engine/types";
import { RoadLeg, RoadLegSource } from "../engine/routing/overland/road-legs";

export interface RoadEngineSetting {
  kind: "osrm";
  /** Base URL of the OSRM server, without a trailing slash. */
  url: string;
}

/** Parses `--road-engine`: `osrm=URL` with an http(s) URL; throws naming the flag and the form. */
export function parseRoadEngine(value: string): RoadEngineSetting {
  const m = /^\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(value);
  const allowed = 'allowed: osrm=URL, e.g. "osrm=http://127.0.0.1:5000" (OSRM\'s HTTP route service)';
  if (!m || m[1].toLowerCase() !== "osrm")
    throw new Error(`--road-engine "${value}" is not allowed; ${allowed}.`);
  let url: URL;
  try {
    url = new URL(m[2]);
  } catch {
    throw new Error(`--road-engine: "${m[2]}" is not a URL; ${allowed}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`--road-engine: the URL must be http:// or https://; ${allowed}.`);
  if (url.username || url.password || url.search)
    throw new Error(`--road-engine: the URL takes no credentials or query; ${allowed}.`);
  return { kind: "osrm", url: url.href.replace(/\/+$/, "") };
}

export interface OsrmOptions {
  /** One route request may take this long (ms) before the engine's own estimate answers. */
  timeoutMs?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Legs remembered; the memory is emptied when full. */
  cacheSize?: number;
}

export class OsrmRoadLegs implements RoadLegSource {
  readonly basis = "road network (OSRM)" as const;
  private readonly legs = new Map<string, RoadLeg | null>();
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly cacheSize: number;
  /** Requests that failed (no answer, bad answer), for logs and tests. */
  failures = 0;

  constructor(
    readonly url: string,
    options: OsrmOptions = {}
  ) {
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.concurrency = options.concurrency ?? 8;
    this.cacheSize = options.cacheSize ?? 100_000;
  }

  leg(from: LatLng, to: LatLng): RoadLeg | undefined {
    return this.legs.get(keyOf(from, to)) ?? undefined;
  }

  /** Whether OSRM has been asked about the pair and answered (a leg or NoRoute). */
  known(from: LatLng, to: LatLng): boolean {
    return this.legs.has(keyOf(from, to));
  }

  /** Asks OSRM for the legs not known yet; resolves when all have answered or failed. */
  async prefetch(pairs: ReadonlyArray<[LatLng, LatLng]>): Promise<void> {
    const wanted = new Map<string, [LatLng, LatLng]>();
    for (const [a, b] of pairs) {
      const key = keyOf(a, b);
      if (!this.legs.has(key)) wanted.set(key, [a, b]);
    }
    const queue = [...wanted.entries()];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, [a, b]] = next;
        const leg = await this.ask(a, b);
        if (leg === undefined) continue;
        if (this.legs.size >= this.cacheSize) this.legs.clear();
        this.legs.set(key, leg);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker));
  }

  /** The leg, null for OSRM's NoRoute, undefined when OSRM did not answer usably. */
  private async ask(a: LatLng, b: LatLng): Promise<RoadLeg | null | undefined> {
    const coords = `${a.lng.toFixed(6)},${a.lat.toFixed(6)};${b.lng.toFixed(6)},${b.lat.toFixed(6)}`;
    try {
      const res = await fetch(`${this.url}/route/v1/driving/${coords}?overview=false`, {
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body = (await res.json()) as { code?: string; routes?: Array<{ distance?: number }> };
      if (body.code === "NoRoute") return null;
      const meters = body.routes?.[0]?.distance;
      if (body.code === "Ok" && typeof meters === "number" && Number.isFinite(meters) && meters >= 0)
        return { meters };
    } catch {
      // Counted below: the engine's estimate answers and the next request asks again.
    }
    this.failures++;
    return undefined;
  }
}

function keyOf(a: LatLng, b: LatLng): string {
  return `${a.lat.toFixed(6)},${a.lng.toFixed(6)};${b.lat.toFixed(6)},${b.lng.toFixed(6)}`;
}
