/**
 * Sea distances against the reference table test/fixtures/sea-distances.csv (published port-to-port
 * distances; see each row's source). The goal is a median absolute error ≤ 2 % and none
 * over 8 %. Not met yet: the rows listed in KNOWN_GAPS are off for reasons the network data
 * explains (no Scheldt/Thames approach lines; Pacific lanes drawn along ~40°N instead of the great
 * circle). They are pinned with their current error so that any change shows up here.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'csv-parse/sync';
import { loadSeaRouter } from '../../../src/data/sea';
import { Passage } from '../../../src/engine/types';

interface Row {
  origin_locode: string;
  origin_lat: string;
  origin_lng: string;
  destination_locode: string;
  destination_lat: string;
  destination_lng: string;
  nm: string;
  via: string;
  source: string;
}

const rows = parse(fs.readFileSync(path.join(__dirname, '../../fixtures/sea-distances.csv'), 'utf8'), {
  columns: true,
  skip_empty_lines: true,
}) as Row[];

const DEFAULT_CLOSED: Passage[] = ['NORTHWEST', 'NORTHEAST', 'KIEL', 'CORINTH'];

/** pair → the absolute error (%) it must stay within until the cause is fixed. */
const KNOWN_GAPS: Record<string, number> = {
  'NLRTM-BEANR': 45, // Antwerp: MARNET stops at Vlissingen; the 45 km up the Scheldt is a straight line
  'NLRTM-GBFXT': 16, // Felixstowe: approach snapped straight across the Thames estuary
  'ITGOA-ESVLC': 17, // Genoa-Valencia: the network's lane goes round the Balearics
  'CNSHA-CAVAN': 12, // trans-Pacific lane along ~40-45°N, not the great circle
  'NLRTM-FRLEH': 10, // Le Havre approach
};

function errorPercent(r: Row): { error: number; nm: number } {
  const closed = new Set<Passage>([...DEFAULT_CLOSED, ...(r.via === 'CAPE' ? (['SUEZ', 'PANAMA'] as Passage[]) : [])]);
  const route = loadSeaRouter().route(
    { lat: Number(r.origin_lat), lng: Number(r.origin_lng) },
    { lat: Number(r.destination_lat), lng: Number(r.destination_lng) },
    { closed },
  );
  if (!route) throw new Error(`no route ${r.origin_locode}-${r.destination_locode}`);
  const nm = route.meters / 1852;
  return { nm, error: (Math.abs(nm - Number(r.nm)) / Number(r.nm)) * 100 };
}

describe('sea distance accuracy against published distances', () => {
  it('has at least 25 sourced pairs covering Suez, Panama, Cape, trans-Pacific, short-sea Europe and intra-Asia', () => {
    expect(rows.length).toBeGreaterThanOrEqual(25);
    for (const r of rows) expect(r.source.length).toBeGreaterThan(10);
    const via = new Set(rows.map((r) => r.via));
    for (const v of ['SUEZ', 'PANAMA', 'CAPE', 'PACIFIC-ANTIMERIDIAN', 'SHORTSEA', 'INTRA-ASIA']) expect(via).toContain(v);
  });

  const results = rows.map((r) => ({ key: `${r.origin_locode}-${r.destination_locode}`, ref: Number(r.nm), ...errorPercent(r) }));

  it('prints the comparison', () => {
    const lines = results.map((x) => `${x.key.padEnd(12)} ref ${String(x.ref).padStart(6)} nm  ours ${x.nm.toFixed(0).padStart(6)} nm  ${x.error.toFixed(1).padStart(5)} %`);
    console.log(lines.join('\n'));
    expect(results.length).toBe(rows.length);
  });

  it('every pair outside the known gaps is within 8 %', () => {
    const over = results.filter((x) => !(x.key in KNOWN_GAPS) && x.error > 8).map((x) => `${x.key} ${x.error.toFixed(1)} %`);
    expect(over).toEqual([]);
  });

  it('the known gaps do not get worse', () => {
    for (const x of results.filter((r) => r.key in KNOWN_GAPS)) expect(x.error).toBeLessThan(KNOWN_GAPS[x.key]);
  });

  it('median absolute error is at most 3.5 % (goal: 2 %)', () => {
    const errors = results.map((x) => x.error).sort((a, b) => a - b);
    const median = errors[Math.floor(errors.length / 2)];
    console.log(`median absolute error ${median.toFixed(2)} % over ${errors.length} pairs`);
    expect(median).toBeLessThan(3.5);
  });
});
