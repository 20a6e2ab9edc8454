/**
 * The contract's VesselResolver: parses `vesselInfo`, looks IMO/MMSI up in a registry of vessels
 * (shipped + imported CSV), and tells which passages are closed to a vessel.
 */
import type { parse as Parse } from "csv-parse/sync";
import { unknownData } from "../../errors";
import type { VesselResolver } from "../../route-engine";
import { LatLng, Passage, Vessel, VesselDimensions } from "../../types";
import type { TradeVessel, TradeVessels } from "./trade-vessels";
import { CanalLimits } from "./canal-limits";
import { isValidImo, isValidMmsi, parseVesselInfo } from "./vessel-info";

/** Closed without a vessel: the ice routes, and the small canals most ships do not fit. */
export const DEFAULT_CLOSED: readonly Passage[] = ["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"];
/**
 * The vessel assumed per sea modality when no `vesselInfo` is given (centimetres). SHORTSEA: a
 * container feeder of about 1,000 TEU (150 m x 23 m x 7.5 m), which fits the Kiel Canal (up to 160 m with 9.5 m draught) but not Corinth (16.5 m
 * beam); its closed passages follow from data/canal-limits.csv like any vessel's. DEEPSEA (no
 * vessel): the vessel class of the lane's trade (trade-vessels.ts), else DEFAULT_CLOSED, a large
 * container ship that fits neither Kiel nor Corinth.
 */
export const DEFAULT_SHORTSEA_VESSEL: VesselDimensions = {
  lengthCm: 15000,
  widthCm: 2300,
  draughtCm: 750,
};
/** Closed whatever the vessel: ice. */
export const ALWAYS_CLOSED: readonly Passage[] = ["NORTHWEST", "NORTHEAST"];

export interface VesselRecord extends Vessel {
  source?: string;
}

export interface VesselImportResult {
  imported: number;
  rejected: Array<{ line: number; reason: string }>;
}

export class VesselRegistry implements VesselResolver {
  private readonly byImo = new Map<string, VesselRecord>();
  private readonly byMmsi = new Map<string, VesselRecord>();

  constructor(
    readonly limits: CanalLimits,
    vessels: Iterable<VesselRecord> = [],
    /** DEEPSEA's vessel per trade (data/sea-trade-vessels.json); none: the general default. */
    readonly trades?: TradeVessels
  ) {
    for (const v of vessels) this.add(v);
  }

  /** Adds or replaces (same IMO or MMSI) a vessel. */
  add(vessel: VesselRecord): void {
    const old =
      (vessel.imo && this.byImo.get(vessel.imo)) || (vessel.mmsi && this.byMmsi.get(vessel.mmsi));
    if (old) {
      if (old.imo) this.byImo.delete(old.imo);
      if (old.mmsi) this.byMmsi.delete(old.mmsi);
    }
    if (vessel.imo) this.byImo.set(vessel.imo, vessel);
    if (vessel.mmsi) this.byMmsi.set(vessel.mmsi, vessel);
  }

  get size(): number {
    return new Set([...this.byImo.values(), ...this.byMmsi.values()]).size;
  }

  all(): VesselRecord[] {
    return [...new Set([...this.byImo.values(), ...this.byMmsi.values()])];
  }

  findByImo(imo: string): VesselRecord | undefined {
    return this.byImo.get(imo);
  }

  findByMmsi(mmsi: string): VesselRecord | undefined {
    return this.byMmsi.get(mmsi);
  }

  /**
   * Imports `imo,mmsi,name,length,beam,draught[,source]` rows (metres; header required; either
   * identifier may be blank but not both). Valid rows are added, the others reported.
   */
  importCsv(text: string): VesselImportResult {
    const { vessels, rejected } = parseVesselCsv(text);
    for (const v of vessels) this.add(v);
    return { imported: vessels.length, rejected };
  }

  resolve(vesselInfo: string, parameter: string): VesselDimensions {
    const info = parseVesselInfo(vesselInfo, parameter);
    if (info.kind === "DIMENSIONS") return info.dimensions;
    const found = info.kind === "IMO" ? this.byImo.get(info.imo) : this.byMmsi.get(info.mmsi);
    if (!found) {
      const what = info.kind === "IMO" ? `IMO ${info.imo}` : `MMSI ${info.mmsi}`;
      throw unknownData(
        parameter,
        `${parameter}: no vessel with ${what} in the vessel registry (${this.size} vessels). ` +
          `Give the dimensions instead as "length,width,draught" in centimetres, or import the vessel.`
      );
    }
    return found;
  }

  /** The passages closed to each trade's vessel class (the sets a lane sheet asks most after the defaults). */
  tradeClosedSets(): Set<Passage>[] {
    return (this.trades?.trades ?? []).map((t) => new Set(this.tradeClosed(t)));
  }

  private readonly closedByTrade = new Map<TradeVessel, Passage[]>();

  private tradeClosed(trade: TradeVessel): Passage[] {
    let closed = this.closedByTrade.get(trade);
    if (!closed) {
      closed = [...this.closedPassages(trade.vessel, "DEEPSEA")];
      this.closedByTrade.set(trade, closed);
    }
    return closed;
  }

  /**
   * Without a vessel, the default of the modality (DEEPSEA when none is given): SHORTSEA's feeder;
   * DEEPSEA's vessel class of the lane's trade when the lane is given and belongs to one.
   */
  closedPassages(
    vessel: VesselDimensions | undefined,
    modality: "DEEPSEA" | "SHORTSEA" = "DEEPSEA",
    lane?: { from: LatLng; to: LatLng }
  ): Set<Passage> {
    if (!vessel && modality === "SHORTSEA") vessel = DEFAULT_SHORTSEA_VESSEL;
    if (!vessel && lane && this.trades) {
      const trade = this.trades.tradeOf(lane.from, lane.to);
      if (trade) return new Set(this.tradeClosed(trade));
    }
    if (!vessel) return new Set(DEFAULT_CLOSED);
    const closed = new Set<Passage>(ALWAYS_CLOSED);
    for (const p of this.limits.passages()) if (!this.limits.fits(p, vessel)) closed.add(p);
    return closed;
  }
}

/** Parses a vessel CSV (metres) into records; malformed rows are reported with their line. */
export function parseVesselCsv(text: string): {
  vessels: VesselRecord[];
  rejected: VesselImportResult["rejected"];
} {
  // csv-parse is loaded here, at the first import: shipped vessels come parsed from a snapshot.
  const { parse } = require("csv-parse/sync") as { parse: typeof Parse };
  const rows = parse(text, {
    columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
    skip_empty_lines: true,
    trim: true,
    bom: true,
    relax_column_count: true,
  }) as Array<Record<string, string>>;
  const vessels: VesselRecord[] = [];
  const rejected: VesselImportResult["rejected"] = [];
  rows.forEach((r, i) => {
    const line = i + 2;
    const imo = (r.imo ?? "").replace(/^IMO\s*/i, "");
    const mmsi = (r.mmsi ?? "").replace(/^MMSI\s*/i, "");
    const length = Number(r.length);
    const beam = Number(r.beam ?? r.width);
    const draught = Number(r.draught ?? r.draft);
    let reason = "";
    if (!imo && !mmsi) reason = "needs an imo or an mmsi";
    else if (imo && !isValidImo(imo))
      reason = `imo "${imo}" is not a 7-digit IMO number with a valid check digit`;
    else if (mmsi && !isValidMmsi(mmsi)) reason = `mmsi "${mmsi}" is not 9 digits`;
    else if (![length, beam, draught].every((n) => Number.isFinite(n) && n > 0))
      reason = "length, beam and draught must be positive numbers (metres)";
    if (reason) {
      rejected.push({ line, reason });
      return;
    }
    vessels.push({
      imo,
      mmsi,
      name: r.name ?? "",
      lengthCm: Math.round(length * 100),
      widthCm: Math.round(beam * 100),
      draughtCm: Math.round(draught * 100),
      source: r.source || undefined,
    });
  });
  return { vessels, rejected };
}
