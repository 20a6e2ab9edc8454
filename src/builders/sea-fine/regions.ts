/**
 * The fine regions: fjords, sounds, archipelagos and straits that Natural Earth 1:50m draws too
 * coarsely for sea routes (a sound closed, a peninsula's tip cut, a strait straightened). In each,
 * routes run on a water grid over Natural Earth 1:10m land instead (see
 * src/engine/routing/sea-fine/). A box is [west, south, east, north] in degrees; `cellDegrees` is
 * the grid's step in latitude (the longitude step keeps cells about square), chosen to resolve the
 * region's narrowest fairway in two or more cells.
 *
 * Not a fine region: the Seto Inland Sea. Natural Earth 1:10m lacks most of its islands (Etajima,
 * Kurahashi-jima, Yashiro-jima; data/sea-islands.json adds some), so a grid there finds ways
 * across them 20 % shorter than the published fairways (Kure – Tokuyama 61 nm for 76); 1:50m with
 * those islands and the hand-traced lanes does better until a finer island set is shipped.
 */
export interface FineRegionSpec {
  id: string;
  name: string;
  box: [number, number, number, number];
  cellDegrees: number;
  /** Why the region is fine and what it covers. */
  reason: string;
}

export const FINE_REGIONS: ReadonlyArray<FineRegionSpec> = [
  {
    id: "CAPE_PENINSULA",
    name: "Cape Peninsula, Table Bay and False Bay",
    box: [17.8, -34.6, 19.0, -33.55],
    cellDegrees: 0.0025,
    reason: "1:50m joins Simon's Town to the Atlantic side: routes cut across the peninsula",
  },
  {
    id: "NORWAY_LEADS",
    name: "Norway's inner leads, Stavanger to Ålesund",
    box: [4.4, 58.85, 6.6, 62.6],
    cellDegrees: 0.003,
    reason: "the inner leads (Hjeltefjorden, Fensfjorden, Krakhellesundet, …) are land at 1:50m",
  },
  {
    id: "COOK_STRAIT_SOUNDS",
    name: "Cook Strait, Wellington Harbour and the Marlborough Sounds (Tory Channel)",
    box: [173.6, -41.75, 175.2, -40.7],
    cellDegrees: 0.0015,
    reason: "Tory Channel and Queen Charlotte Sound are land at 1:50m",
  },
  {
    id: "BOSPORUS",
    name: "the Bosporus and Istanbul's harbours",
    box: [28.8, 40.85, 29.35, 41.3],
    cellDegrees: 0.001,
    reason: "1:50m draws the Bosporus as a straight gap",
  },
  {
    id: "DARDANELLES",
    name: "the Dardanelles",
    box: [26.0, 39.9, 26.9, 40.6],
    cellDegrees: 0.0015,
    reason: "the Narrows at Çanakkale are 1.2 km wide",
  },
  {
    id: "DANISH_STRAITS",
    name: "the Danish straits: the Little Belt, the Great Belt and the Sound",
    box: [9.45, 54.65, 12.9, 56.3],
    cellDegrees: 0.0025,
    reason: "the Little Belt at Middelfart is under 1 km wide",
  },
  {
    id: "PHILIPPINE_STRAITS",
    name: "the Philippine straits: Verde Island Passage, the Visayan seas, San Bernardino and Surigao",
    box: [119.5, 8.5, 126.4, 15.0],
    cellDegrees: 0.006,
    reason: "the inter-island passages of the Visayas are coarse or closed at 1:50m",
  },
  {
    id: "JAVA_BALI_LOMBOK",
    name: "Madura Strait (Surabaya), Bali Strait and Lombok Strait",
    box: [112.4, -9.1, 116.8, -6.6],
    cellDegrees: 0.003,
    reason: "the Surabaya channel west of Madura and the Bali Strait are narrow at 1:50m",
  },
  {
    id: "SUNDA_STRAIT",
    name: "the Sunda Strait",
    box: [104.9, -6.7, 106.3, -5.4],
    cellDegrees: 0.003,
    reason: "the strait's islands (Sangiang, Krakatau) are coarse at 1:50m",
  },
];
