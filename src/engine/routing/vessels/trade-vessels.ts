/**
 * The DEEPSEA vessel assumed per trade (data/sea-trade-vessels.json): a lane between the two
 * regions of a trade is sailed by that trade's vessel class, so the passages that class does not
 * fit (Panama's Neopanamax locks for an Asia-Europe ULCV) are closed to it like to any vessel.
 */
import type { LatLng, VesselDimensions } from "../../types";

export interface TradeRegion {
  /** [minLng, minLat, maxLng, maxLat] boxes. */
  boxes: ReadonlyArray<readonly [number, number, number, number]>;
}

export interface TradeVessel {
  trade: string;
  between: readonly [string, string];
  vesselClass: string;
  vessel: VesselDimensions;
  source: string;
}

export class TradeVessels {
  constructor(
    private readonly regions: ReadonlyMap<string, TradeRegion>,
    readonly trades: ReadonlyArray<TradeVessel>
  ) {
    for (const t of trades)
      for (const r of t.between)
        if (!regions.has(r)) throw new Error(`trade ${t.trade}: no region ${r}`);
  }

  /** The trade of a lane (its ends in the trade's two regions, either way round), if any. */
  tradeOf(from: LatLng, to: LatLng): TradeVessel | undefined {
    for (const t of this.trades) {
      const [a, b] = t.between;
      if (
        (this.inRegion(from, a) && this.inRegion(to, b)) ||
        (this.inRegion(from, b) && this.inRegion(to, a))
      )
        return t;
    }
    return undefined;
  }

  private inRegion(p: LatLng, name: string): boolean {
    for (const [x0, y0, x1, y1] of this.regions.get(name)!.boxes)
      if (p.lng >= x0 && p.lng <= x1 && p.lat >= y0 && p.lat <= y1) return true;
    return false;
  }
}

/** Parses data/sea-trade-vessels.json's content (metres) into TradeVessels. */
export function parseTradeVessels(json: {
  regions: Record<string, { boxes: Array<[number, number, number, number]> }>;
  trades: Array<{
    trade: string;
    between: [string, string];
    vesselClass: string;
    lengthM: number;
    beamM: number;
    draughtM: number;
    source: string;
  }>;
}): TradeVessels {
  const regions = new Map(Object.entries(json.regions).map(([k, v]) => [k, { boxes: v.boxes }]));
  return new TradeVessels(
    regions,
    json.trades.map((t) => {
      if (!t.source?.trim()) throw new Error(`trade ${t.trade}: source is empty`);
      return {
        trade: t.trade,
        between: t.between,
        vesselClass: t.vesselClass,
        source: t.source,
        vessel: {
          lengthCm: Math.round(t.lengthM * 100),
          widthCm: Math.round(t.beamM * 100),
          draughtCm: Math.round(t.draughtM * 100),
        },
      };
    })
  );
}
