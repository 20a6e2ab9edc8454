/**
 * RAIL and TRUCK distances. TRUCK (and RAIL where no corridor applies): ellipsoidal great-circle
 * distance times a circuity factor for the modality and region. RAIL near the freight corridors of
 * data/rail-corridors.json: a short access leg (great circle × circuity) to a corridor node, along
 * the corridor graph, and a short access leg to the destination. Both ends must be on the same
 * landmass, or on landmasses joined by a fixed link (tunnel/bridge) open to the modality; otherwise
 * there is no route.
 */
import { OverlandRouter, RoutedPath } from "../../route-engine";
import { LatLng } from "../../types";
import { CircuityRegion, CircuityTable, OverlandModality, tripRegion } from "./circuity";
import {
  geodesicMetersBetween as geodesicMeters,
  geodesicPath,
  lowerBoundMeters,
} from "../../geo/geodesy";
import { LandmassIndex } from "./landmass-index";
import { RailAccess, RailNetwork } from "./rail-network";
import { MinHeap } from "../../heap";
import { UnionFind } from "../../graph/union-find";
import { RoadLegSource } from "./road-legs";
import { LandNetwork, NetworkAccess } from "./land-network";
import { reliefMultiplier, Terrain } from "./terrain";
import { CountryDetour } from "./country-detour";

/** A fixed link between two landmasses, given by one point on each side. */
export interface LandLink {
  name: string;
  modalities: ReadonlyArray<OverlandModality>;
  a: LatLng;
  b: LatLng;
}

export interface OverlandRouterParts {
  landmasses: LandmassIndex;
  links: ReadonlyArray<LandLink>;
  circuity: CircuityTable;
  /** Region of a point for choosing the circuity factor. */
  regionOf: (p: LatLng) => CircuityRegion;
  /** Rail freight corridors; without them RAIL is great circle × circuity everywhere. */
  rail?: RailNetwork;
  railAccess?: Partial<RailAccessLimits>;
  /**
   * How far from an end its landside (the far end of a fixed link of another land modality) may
   * be, when the modality cannot reach the end itself; default DEFAULT_MAX_LANDSIDE_METERS.
   */
  maxLandsideMeters?: number;
  /** TRUCK legs from a road engine (OSRM); the router's own answer where it has none. */
  roadLegs?: RoadLegSource;
  /**
   * Road and rail networks from public data (data/land/); each covers the countries it names. A
   * function is called on the first trip that could use one (loading them takes ~100 ms).
   */
  networks?: ReadonlyArray<LandNetwork> | (() => ReadonlyArray<LandNetwork>);
  /** Country (ISO 3166-1 numeric) of a point, for the networks' coverage; none: no networks. */
  countryOf?: (p: LatLng) => string | null;
  networkAccess?: Partial<NetworkAccessLimits>;
  /** High mountains and open water between the ends of an estimate; none: plain circuity. */
  terrain?: Terrain;
  /** The way round when an estimate's great circle leaves the ends' country; none: straight. */
  countryDetour?: CountryDetour;
}

/** When a trip may run on a road or rail network of data/land/. */
export interface NetworkAccessLimits {
  /** An end may join a network node at most this far away (geodesic). */
  maxAccessMeters: number;
  /** How many of the nearest nodes an end tries. */
  candidates: number;
  /** Only nodes at most this much farther than the nearest one are tried. */
  candidateSlackMeters: number;
  /**
   * The network route is dropped when longer than this × the circuity estimate: the networks hold
   * main lines only (freeways, Class I), so a long detour means a road or line they lack.
   */
  maxDetour: number;
}

/** An end this close to a network node is on the network, whatever country 1:50m puts it in. */
const BORDER_NODE_METERS = 10_000;

export const DEFAULT_NETWORK_ACCESS: NetworkAccessLimits = {
  maxAccessMeters: 100_000,
  candidates: 4,
  candidateSlackMeters: 25_000,
  maxDetour: 1.35,
};

/**
 * Bound on the landside move: the port sites reached only by a road bridge lie 20-35 km from its
 * mainland end (Yangshan, Zhoushan, Geoje); a longer move is a different trip, not a snap.
 */
export const DEFAULT_MAX_LANDSIDE_METERS = 60_000;

/** When a trip may use the corridors instead of great circle × circuity. */
export interface RailAccessLimits {
  /** An end may join a corridor node at most this far away (geodesic). */
  maxAccessMeters: number;
  /** How many of the nearest nodes an end tries. */
  candidates: number;
  /**
   * Only nodes at most this much farther than the nearest one are tried, so an access leg joins
   * the corridor where it is nearest instead of cutting across country along it.
   */
  candidateSlackMeters: number;
  /**
   * The corridor route is dropped when it is longer than this × the circuity estimate: the
   * network is sparse (main lines only), so a long detour means the real line is missing here.
   */
  maxDetour: number;
}

export const DEFAULT_RAIL_ACCESS: RailAccessLimits = {
  maxAccessMeters: 300_000,
  candidates: 4,
  candidateSlackMeters: 25_000,
  maxDetour: 1.25,
};

/** How a RAIL trip was computed, for explanations and tests. */
export interface RailExplanation {
  method: "corridor" | "circuity";
  meters: number;
  /** Access legs (great circle × circuity) at the origin and destination end, corridor only. */
  accessMeters?: [number, number];
  /** Named junctions passed, in order (border crossings, hubs), corridor only. */
  junctions?: string[];
  /** The same junctions as ids of the corridor file (e.g. "ALASHANKOU"). */
  junctionIds?: string[];
}

/** A point a trip may start or end at for a place, and the straight metres from the place. */
interface Landside {
  point: LatLng;
  meters: number;
}

/** An estimate's metres, and its path drawn on demand. */
interface Estimate {
  meters: number;
  path: () => LatLng[];
}

/** One priced stretch over land; `path` when it goes round a country. */
interface OverlandLeg {
  meters: number;
  greatCircle: number;
  path?: LatLng[];
}

/** The fixed links of a modality, their ends' landmasses (a then b), legs priced between ends. */
interface LinkEnds {
  links: ReadonlyArray<LandLink>;
  land: Array<number | null>;
  /** Metres of the leg from end i to end j at i * ends + j; NaN until priced. */
  legs: Float64Array;
}

/**
 * A route whose path is drawn the first time it is read: a lane sheet reads only the metres, and
 * points along the geodesic cost more than the estimate itself.
 */
function drawnOnDemand(estimate: Estimate, basis: RoutedPath["basis"]): RoutedPath {
  let path: LatLng[] | undefined;
  return {
    meters: estimate.meters,
    basis,
    get path() {
      return (path ??= estimate.path());
    },
  };
}

/** Great-circle path points: one every ~250 km, between 1 and 32 segments. */
const PATH_SEGMENT_METERS = 250_000;

export class CircuityOverlandRouter implements OverlandRouter {
  private readonly components: Record<OverlandModality, UnionFind>;
  private readonly railAccess: RailAccessLimits;
  private readonly maxLandsideMeters: number;
  private railNodeLand?: Array<number | null | undefined>;
  private readonly networkAccess: NetworkAccessLimits;
  /** Landmass of each network node, looked up the first time the node is a candidate. */
  private readonly networkNodeLand = new Map<LandNetwork, Array<number | null | undefined>>();
  private readonly linkEndsOf = new Map<OverlandModality, LinkEnds>();

  constructor(readonly parts: OverlandRouterParts) {
    this.railAccess = { ...DEFAULT_RAIL_ACCESS, ...parts.railAccess };
    this.maxLandsideMeters = parts.maxLandsideMeters ?? DEFAULT_MAX_LANDSIDE_METERS;
    this.networkAccess = { ...DEFAULT_NETWORK_ACCESS, ...parts.networkAccess };
    // Landmass ids are polygon indices, 0..size-1: the engine's one union-find over them.
    const landmassCount = parts.landmasses.size;
    this.components = { RAIL: new UnionFind(landmassCount), TRUCK: new UnionFind(landmassCount) };
    for (const link of parts.links) {
      const a = parts.landmasses.landmassOf(link.a);
      const b = parts.landmasses.landmassOf(link.b);
      if (a === null || b === null)
        throw new Error(`land link ${link.name}: an end point is not on land`);
      for (const m of link.modalities) this.components[m].union(a, b);
    }
  }

  route(from: LatLng, to: LatLng, modality: OverlandModality): RoutedPath | null {
    if (modality === "TRUCK" && this.parts.roadLegs) {
      const leg = this.parts.roadLegs.leg(from, to);
      if (leg)
        return {
          meters: leg.meters,
          path: leg.path ?? [from, to],
          basis: this.parts.roadLegs.basis,
        };
    }
    return this.routeBetween(from, to, modality) ?? this.viaLandside(from, to, modality);
  }

  /** The route between the two points themselves, or null when the modality cannot join them. */
  private routeBetween(from: LatLng, to: LatLng, modality: OverlandModality): RoutedPath | null {
    const circuity = this.circuityRoute(from, to, modality);
    if (!circuity) return null;
    // RAIL: the corridors first (one railway's published line), then the shipped rail networks,
    // whose shortest path may mix railways and so run a few per cent short of a service's line.
    const corridor = modality === "RAIL" ? this.corridorRoute(from, to, circuity.meters) : null;
    if (corridor) return { meters: corridor.meters, path: corridor.path, basis: "network" };
    return (
      this.networkRoute(from, to, modality, circuity.meters) ??
      drawnOnDemand(circuity, "great circle × circuity")
    );
  }

  /**
   * The trip on a road or rail network of data/land/ that covers both ends' countries, joined by
   * access legs (great circle × circuity) at the nearest nodes; null when none applies or the
   * network route is a detour against the estimate.
   */
  private networkRoute(
    from: LatLng,
    to: LatLng,
    modality: OverlandModality,
    estimateMeters: number
  ): RoutedPath | null {
    const { countryOf } = this.parts;
    if (!this.parts.networks || !countryOf) return null;
    if (typeof this.parts.networks === "function") this.parts.networks = this.parts.networks();
    const networks = this.parts.networks as ReadonlyArray<LandNetwork>;
    for (const net of networks) {
      if (net.modality !== modality) continue;
      const entries = this.networkAccessTo(net, from, modality);
      const exits = this.networkAccessTo(net, to, modality);
      if (!this.covers(net, from, entries) || !this.covers(net, to, exits)) continue;
      const r = net.route(entries, exits);
      if (!r || r.meters > estimateMeters * this.networkAccess.maxDetour) continue;
      return {
        meters: r.meters,
        path: [from, ...r.nodes.map((i) => net.node(i)), to],
        basis: net.basis,
      };
    }
    return null;
  }

  /**
   * Whether the network speaks for an end: the end lies in a country it covers, or right at one of
   * its nodes (a border town such as Blaine, which 1:50m borders may put on the other side).
   * Without this, Toronto -> Montreal would run on the US freeways through New York.
   */
  private covers(net: LandNetwork, p: LatLng, access: NetworkAccess[]): boolean {
    if (!access.length) return false;
    const country = this.parts.countryOf!(p);
    if (country !== null && net.countries.has(country)) return true;
    return net.nearNodes(p, BORDER_NODE_METERS, 1).length > 0;
  }

  /** Network nodes an end can join: nearest first, same landmass, priced great circle × circuity. */
  private networkAccessTo(
    net: LandNetwork,
    p: LatLng,
    modality: OverlandModality
  ): NetworkAccess[] {
    const { maxAccessMeters, candidates, candidateSlackMeters } = this.networkAccess;
    // Nodes first: most trips are nowhere near a network, and the look-ups below cost more.
    const nearest = net.nearNodes(p, maxAccessMeters, candidates * 4);
    if (!nearest.length) return [];
    const land = this.parts.landmasses.landmassOf(p);
    if (land === null) return [];
    let lands = this.networkNodeLand.get(net);
    if (!lands) this.networkNodeLand.set(net, (lands = new Array(net.size)));
    const landOf = (i: number) => {
      let v = lands![i];
      if (v === undefined) v = lands![i] = this.parts.landmasses.landmassOf(net.node(i));
      return v;
    };
    const near = nearest.filter((c) => landOf(c.node) === land);
    if (!near.length) return [];
    const { factor } = this.parts.circuity.lookup(modality, this.parts.regionOf(p));
    const limit = near[0].meters + candidateSlackMeters;
    return near
      .filter((c) => c.meters <= limit)
      .slice(0, candidates)
      .map((c) => ({ node: c.node, meters: c.meters * factor }));
  }

  /**
   * A trip the modality cannot make between the points themselves, started (or ended) at the
   * landside of an end instead: the far end of a fixed link of another land modality leaving the
   * end's landmass, within `maxLandsideMeters` of it. Rail does not reach Yangshan island, where
   * Shanghai's CNSHA point lies; its freight trains end at Luchao on the mainland end of the
   * Donghai road bridge, and the boxes cross by truck. The move is reported in `snapDistance`
   * (straight metres from the place to the landside point) and is not part of `meters`: the
   * modality does not run it. Null when no landside joins the two ends either.
   */
  private viaLandside(from: LatLng, to: LatLng, modality: OverlandModality): RoutedPath | null {
    const moved = this.landsideTrip(from, to, modality);
    if (!moved) return null;
    const { a, b, route } = moved;
    const path = [...(a.meters > 0 ? [from] : []), ...route.path, ...(b.meters > 0 ? [to] : [])];
    return { ...route, path, snapDistance: { origin: a.meters, destination: b.meters } };
  }

  /** The landside ends (moved or not) the modality joins, fewest metres moved first, and the route. */
  private landsideTrip(
    from: LatLng,
    to: LatLng,
    modality: OverlandModality
  ): { a: Landside; b: Landside; route: RoutedPath } | null {
    const starts = [{ point: from, meters: 0 }, ...this.landsidesOf(from)];
    const ends = [{ point: to, meters: 0 }, ...this.landsidesOf(to)];
    const pairs = starts
      .flatMap((a) => ends.map((b) => ({ a, b, moved: a.meters + b.meters })))
      .filter((x) => x.moved > 0)
      .sort((x, y) => x.moved - y.moved);
    for (const { a, b } of pairs) {
      if (!this.connected(a.point, b.point, modality)) continue;
      const route = this.routeBetween(a.point, b.point, modality);
      if (route) return { a, b, route };
    }
    return null;
  }

  /** Far ends of the fixed links leaving the point's landmass, nearest first, within the bound. */
  private landsidesOf(p: LatLng): Landside[] {
    const land = this.parts.landmasses.landmassOf(p);
    if (land === null) return [];
    const out: Landside[] = [];
    for (const link of this.parts.links) {
      for (const [near, far] of [
        [link.a, link.b],
        [link.b, link.a],
      ]) {
        if (this.parts.landmasses.landmassOf(near) !== land) continue;
        const farLand = this.parts.landmasses.landmassOf(far);
        if (farLand === null || farLand === land) continue;
        const meters = geodesicMeters(p, far);
        if (meters <= this.maxLandsideMeters) out.push({ point: far, meters });
      }
    }
    return out.sort((x, y) => x.meters - y.meters);
  }

  /**
   * How RAIL between the two points is computed (corridor or circuity), with its parts; `via`
   * (junction ids of the corridor file, e.g. ["XIAN", "ALASHANKOU"]) forces the route through
   * those junctions in order.
   */
  explainRail(from: LatLng, to: LatLng, via: string[] = []): RailExplanation | null {
    // Explained between the points the route runs between (landside ends, see viaLandside).
    if (!this.connected(from, to, "RAIL")) {
      const moved = this.landsideTrip(from, to, "RAIL");
      if (!moved) return null;
      [from, to] = [moved.a.point, moved.b.point];
    }
    const circuity = this.circuityRoute(from, to, "RAIL");
    if (!circuity) return null;
    const corridor = this.corridorRoute(from, to, circuity.meters, via);
    if (!corridor) return { method: "circuity", meters: circuity.meters };
    return {
      method: "corridor",
      meters: corridor.meters,
      accessMeters: corridor.accessMeters,
      junctions: corridor.junctions.map((j) => j.name),
      junctionIds: corridor.junctions.map((j) => j.id),
    };
  }

  /**
   * The estimate's metres, and its path only when asked: most estimates are compared against a
   * network route or only summed, and drawing the geodesic costs more than pricing it.
   */
  private circuityRoute(from: LatLng, to: LatLng, modality: OverlandModality): Estimate | null {
    if (!this.connected(from, to, modality)) return null;
    const a = this.parts.landmasses.landmassOf(from);
    const b = this.parts.landmasses.landmassOf(to);
    if (a === b) {
      const leg = this.overlandLeg(from, to, modality);
      return { meters: leg.meters, path: () => this.legPath(from, to, leg) };
    }
    return this.viaLinks(from, to, modality);
  }

  /**
   * RAIL along the corridors when both ends are near one (same landmass) and the result is not a
   * detour against the circuity estimate; otherwise null.
   */
  private corridorRoute(
    from: LatLng,
    to: LatLng,
    circuityMeters: number,
    via: string[] = []
  ):
    | (RoutedPath & {
        accessMeters: [number, number];
        junctions: Array<{ id: string; name: string }>;
      })
    | null {
    const rail = this.parts.rail;
    if (!rail) return null;
    const viaNodes = via.map((id) => {
      const node = rail.junction(id);
      if (node === undefined) throw new Error(`unknown rail junction ${id}`);
      return node;
    });
    const entries = this.accessTo(from);
    const exits = this.accessTo(to);
    const r = rail.route(entries, exits, viaNodes);
    if (!r || r.meters > circuityMeters * this.railAccess.maxDetour) return null;
    const first = r.nodes[0];
    const last = r.nodes[r.nodes.length - 1];
    const accessIn = entries.find((e) => e.node === first)?.meters ?? 0;
    const accessOut = exits.find((e) => e.node === last)?.meters ?? 0;
    // Access legs are at most a few hundred km: drawn as straight segments to the corridor.
    const points = r.nodes.map((i) => ({ lat: rail.nodes[i].lat, lng: rail.nodes[i].lng }));
    const path: LatLng[] = [from, ...points, to];
    const junctions = r.nodes
      .map((i) => rail.nodes[i])
      .filter((n) => n.junction !== undefined)
      .map((n) => ({ id: n.junction as string, name: n.name ?? (n.junction as string) }));
    return { meters: r.meters, path, accessMeters: [accessIn, accessOut], junctions };
  }

  /** Corridor nodes an end can join: nearest first, same landmass, priced great circle × circuity. */
  private accessTo(p: LatLng): RailAccess[] {
    const rail = this.parts.rail as RailNetwork;
    const land = this.parts.landmasses.landmassOf(p);
    if (land === null) return [];
    // Landmass of a corridor node, looked up the first time the node is a candidate.
    this.railNodeLand ??= new Array<number | null | undefined>(rail.nodes.length);
    const landOf = (i: number) => {
      let v = this.railNodeLand![i];
      if (v === undefined)
        v = this.railNodeLand![i] = this.parts.landmasses.landmassOf(rail.nodes[i]);
      return v;
    };
    const { factor } = this.parts.circuity.lookup("RAIL", this.parts.regionOf(p));
    const { maxAccessMeters, candidates, candidateSlackMeters } = this.railAccess;
    const near = rail
      .nearNodes(p, maxAccessMeters, candidates * 4)
      .filter((c) => landOf(c.node) === land);
    if (!near.length) return [];
    const limit = near[0].meters + candidateSlackMeters;
    return near
      .filter((c) => c.meters <= limit)
      .slice(0, candidates)
      .map((c) => ({ node: c.node, meters: c.meters * factor }));
  }

  /**
   * One stretch over land: great circle times the circuity factor of the region and distance
   * band, the stretches through high mountains and over open water (terrain.ts) at their own
   * factors when terrain data is given. Metres only (and the way round a country when it takes
   * one); `legPath` draws it.
   */
  private overlandLeg(from: LatLng, to: LatLng, modality: OverlandModality): OverlandLeg {
    const region = tripRegion(modality, this.parts.regionOf(from), this.parts.regionOf(to));
    const greatCircle = geodesicMeters(from, to);
    const { factor } = this.parts.circuity.lookup(modality, region, greatCircle / 1000);
    const terrain = this.parts.terrain;
    if (!terrain) return { meters: greatCircle * factor, greatCircle };
    const { mountainMeters, highlandMeters, waterMeters, climbMeters } = terrain.stretches(
      from,
      to,
      greatCircle
    );
    const { mountainFactor, highlandFactor, waterFactor } = terrain.settings;
    const mountainExtra =
      mountainMeters * (Math.max(factor, mountainFactor) - factor) +
      highlandMeters * (Math.max(factor, highlandFactor) - factor);
    // Relief scales the circuity of the plain stretches (not mountains or water, priced above).
    const plainShare =
      greatCircle > 0
        ? Math.max(0, greatCircle - mountainMeters - highlandMeters - waterMeters) / greatCircle
        : 0;
    const relief = reliefMultiplier(
      terrain.settings,
      modality,
      climbMeters / Math.max(1, greatCircle / 1000)
    );
    const reliefExtra = (length: number) => length * plainShare * factor * (relief - 1);
    // A line that leaves the country goes round inside it instead; the way round replaces the
    // great circle and its open-water allowance (the bay it passes is what it goes round).
    const detour = this.parts.countryDetour?.detour(from, to, greatCircle);
    if (detour)
      return {
        meters: detour.meters * factor + mountainExtra + reliefExtra(detour.meters),
        greatCircle,
        path: detour.path,
      };
    const meters =
      greatCircle * factor +
      mountainExtra +
      reliefExtra(greatCircle) +
      waterMeters * (Math.max(factor, waterFactor) - factor);
    return { meters, greatCircle };
  }

  /** The drawn path of a leg: the way round a country, or points along the geodesic. */
  private legPath(from: LatLng, to: LatLng, leg: OverlandLeg): LatLng[] {
    if (leg.path) return leg.path;
    const segments = Math.min(32, Math.max(1, Math.ceil(leg.greatCircle / PATH_SEGMENT_METERS)));
    return geodesicPath(from, to, segments);
  }

  /**
   * Ends on different landmasses joined by fixed links: the trip has to cross the links, so it runs
   * over land to a link's near end, through the link, and on from its far end (Felixstowe→Rotterdam
   * by truck goes through the Channel Tunnel, not across the North Sea). A shortest-path search over
   * the two ends and the links' end points (heap.ts); there are only a few dozen links.
   *
   * Pricing a leg over land (terrain, country detour) is what costs here, so the search is A*
   * with legs priced lazily: a leg first enters the heap at a lower bound of its metres (the
   * sphere of the smallest radius of curvature, never above the geodesic, which every leg is at
   * least), and is priced only if that bound comes up before the trip's end is settled. Both the
   * bound and the remaining-distance estimate are consistent, so every end is settled at its
   * shortest distance, as plain Dijkstra would settle it. Legs between links' ends are the same for
   * every trip: remembered.
   */
  private viaLinks(from: LatLng, to: LatLng, modality: OverlandModality): Estimate | null {
    const { links, land: linkLand, legs } = this.linkEnds(modality);
    const points: LatLng[] = [from, to, ...links.flatMap((l) => [l.a, l.b])];
    const land = [
      this.parts.landmasses.landmassOf(from),
      this.parts.landmasses.landmassOf(to),
      ...linkLand,
    ];
    const n = points.length;
    const ends = n - 2;
    const toTarget = points.map((p) => lowerBoundMeters(p, to));
    const dist = new Array<number>(n).fill(Infinity);
    const prev = new Array<number>(n).fill(-1);
    const viaLink = new Array<boolean>(n).fill(false);
    const done = new Array<boolean>(n).fill(false);
    const heap = new MinHeap(4 * n);
    const price = (u: number, v: number): number => {
      if (u < 2 || v < 2) return this.overlandLeg(points[u], points[v], modality).meters;
      const key = (u - 2) * ends + (v - 2);
      let m = legs[key];
      if (Number.isNaN(m)) m = legs[key] = this.overlandLeg(points[u], points[v], modality).meters;
      return m;
    };
    const reach = (u: number, v: number, meters: number, sameLink: boolean) => {
      if (dist[u] + meters < dist[v]) {
        dist[v] = dist[u] + meters;
        prev[v] = u;
        viaLink[v] = sameLink;
        heap.push(dist[v] + toTarget[v], v);
      }
    };
    // Heap values: a point i < n, or the unpriced leg u -> v as n + u * n + v.
    dist[0] = 0;
    heap.push(toTarget[0], 0);
    while (heap.size > 0) {
      const key = heap.peekKey();
      const item = heap.pop();
      if (item >= n) {
        const u = Math.floor((item - n) / n);
        const v = (item - n) % n;
        if (!done[v]) reach(u, v, price(u, v), false);
        continue;
      }
      const u = item;
      // Stale entry: the point was settled, or reached at a shorter distance since.
      if (done[u] || key > dist[u] + toTarget[u]) continue;
      if (u === 1) break;
      done[u] = true;
      for (let v = 0; v < n; v++) {
        if (done[v] || v === u) continue;
        // Link ends 2+2k and 3+2k are the two sides of link k.
        if (u >= 2 && v >= 2 && (u - 2) >> 1 === (v - 2) >> 1)
          reach(u, v, geodesicMeters(points[u], points[v]), true);
        else if (land[u] !== null && land[u] === land[v]) {
          const bound = dist[u] + lowerBoundMeters(points[u], points[v]);
          if (bound < dist[v]) heap.push(bound + toTarget[v], n + u * n + v);
        }
      }
    }
    if (dist[1] === Infinity) return null;
    const chain: number[] = [];
    for (let v = 1; v >= 0; v = prev[v]) chain.unshift(v);
    const path = (): LatLng[] => {
      const out: LatLng[] = [from];
      for (let i = 1; i < chain.length; i++) {
        const [p, q] = [points[chain[i - 1]], points[chain[i]]];
        if (viaLink[chain[i]]) out.push(q);
        else out.push(...this.legPath(p, q, this.overlandLeg(p, q, modality)).slice(1));
      }
      return out;
    };
    return { meters: dist[1], path };
  }

  /** The fixed links open to a modality, their ends' landmasses and the legs priced between them. */
  private linkEnds(modality: OverlandModality): LinkEnds {
    let ends = this.linkEndsOf.get(modality);
    if (!ends) {
      const links = this.parts.links.filter((l) => l.modalities.includes(modality));
      const land = links.flatMap((l) => [
        this.parts.landmasses.landmassOf(l.a),
        this.parts.landmasses.landmassOf(l.b),
      ]);
      const legs = new Float64Array(4 * links.length * links.length).fill(NaN);
      this.linkEndsOf.set(modality, (ends = { links, land, legs }));
    }
    return ends;
  }

  /** Whether both points are on land joined for the modality (same landmass or a fixed link). */
  connected(from: LatLng, to: LatLng, modality: OverlandModality): boolean {
    const a = this.parts.landmasses.landmassOf(from);
    const b = this.parts.landmasses.landmassOf(to);
    if (a === null || b === null) return false;
    return a === b || this.components[modality].find(a) === this.components[modality].find(b);
  }

  /** The circuity region the router would use for a trip (for explanations and tests). */
  regionFor(from: LatLng, to: LatLng, modality: OverlandModality): CircuityRegion {
    return tripRegion(modality, this.parts.regionOf(from), this.parts.regionOf(to));
  }
}
