/**
 * The add-in's help pages (/help/ and /help/ROUTE.<NAME>), the pages Excel opens from a function's
 * help link and from the manifest's support and "learn more" links. Parameters and descriptions
 * come from the built functions.json, so the pages say what the functions really take; the
 * examples are ours.
 */

export interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  helpUrl?: string;
  parameters?: Array<{
    name: string;
    description?: string;
    optional?: boolean;
    repeating?: boolean;
  }>;
  result?: { dimensionality?: string };
}

/** Example formulas per function (they work against this server's built-in data). */
export const EXAMPLES: Record<string, string[]> = {
  DISTANCE: [
    '=ROUTE.DISTANCE("CNSHA", "NLRTM")',
    '=ROUTE.DISTANCE("Rotterdam", "Hamburg", "TRUCK")',
    '=ROUTE.DISTANCE("NLRTM", "DEDUI", "BARGE")',
    '=ROUTE.DISTANCE(A2:A5001, B2:B5001, "DEEPSEA")',
  ],
  EMISSIONS: [
    '=ROUTE.EMISSIONS("CNSHA", "NLRTM")',
    '=ROUTE.EMISSIONS("NLRTM", "DEDUI", "BARGE", "TON")',
    '=ROUTE.EMISSIONS("Shanghai", "Rotterdam")',
  ],
  TERMINALS: ['=ROUTE.TERMINALS("NLRTM")', '=ROUTE.TERMINALS("NLRTM", "euromax")'],
  OPERATORS: ["=ROUTE.OPERATORS()", '=ROUTE.OPERATORS("maersk")'],
  OPTIONS: [
    '=ROUTE.OPTIONS("CNSHA", "NLRTM")',
    '=ROUTE.OPTIONS("CNSHA", "DEDUI", "DEEPSEA,BARGE")',
  ],
  PASSAGES: ['=ROUTE.PASSAGES("CNSHA", "NLRTM")'],
  LANE: ['=ROUTE.LANE("CNSHA", "NLRTM")', '=ROUTE.LANE("Jebel Ali", "Rotterdam")'],
  DURATION: ['=ROUTE.DURATION("CNSHA", "NLRTM")'],
  ETS: ['=ROUTE.ETS("CNSHA", "NLRTM", 70)'],
};

/** How every place argument may be written (the one place grammar of every surface). */
export const PLACES_NOTE =
  "Places may be written as a UN/LOCODE (NLRTM), a place name (Rotterdam, Jebel Ali, São Paulo; any letter case), coordinates lat,lng (51.95,4.05, or 51,95;4,05 in a decimal-comma sheet) or a terminal id from ROUTE.TERMINALS. A misspelt name answers with a “did you mean”; a name that several places share lists them, so you can pick one by its code.";

/** Parameters that take a place. */
const PLACE_PARAMETERS = new Set(["origin", "destination", "points"]);

/** What each function is for, when functions.json (the add-in build) is not there. */
const SUMMARIES: Record<string, string> = {
  DISTANCE: "The route distance between two places.",
  EMISSIONS: "Well-to-wheel kg CO2e of a trip, per TEU or per tonne of cargo.",
  TERMINALS: "The terminals of a port (name, LOCODE, id), best name match first.",
  OPERATORS: "The operators the route optimizer knows (name, SCAC, id).",
  OPTIONS: "Scheduled multimodal route options between two places.",
  PASSAGES: "The canals and straits the route uses, as text.",
  LANE: "Distance, CO2e and passages of a lane in one value.",
};

export const NAMESPACE = "ROUTE";

/** Path of a function's help page; its section's anchor is the function's name (ROUTE.DISTANCE). */
export function helpPath(id: string): string {
  const name = `${NAMESPACE}.${id.toUpperCase()}`;
  return `/help/${name}#${name}`;
}

function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!
  );
}

/** The functions to document: those of the build, then any with examples it lacks. */
export function documented(meta: FunctionMetadata[]): FunctionMetadata[] {
  const ids = new Set(meta.map((f) => f.id.toUpperCase()));
  return [
    ...meta,
    ...Object.keys(EXAMPLES)
      .filter((id) => !ids.has(id))
      .map((id) => ({ id, name: id, description: SUMMARIES[id] })),
  ];
}

function signature(f: FunctionMetadata): string {
  const params = (f.parameters ?? []).map((p) => (p.optional ? `[${p.name}]` : p.name));
  return `=${NAMESPACE}.${f.name.toUpperCase()}(${params.join(", ")})`;
}

function section(f: FunctionMetadata, heading: "h1" | "h2", origin: string): string {
  const name = `${NAMESPACE}.${f.id.toUpperCase()}`;
  const params = f.parameters ?? [];
  const examples = EXAMPLES[f.id.toUpperCase()] ?? [];
  return [
    `<section id="${esc(name)}">`,
    `<${heading}><a href="${esc(origin + helpPath(f.id))}">${esc(name)}</a></${heading}>`,
    `<p>${esc(f.description ?? SUMMARIES[f.id.toUpperCase()] ?? "")}</p>`,
    f.parameters ? `<pre><code>${esc(signature(f))}</code></pre>` : "",
    params.length
      ? `<table><thead><tr><th>Parameter</th><th>What to give</th></tr></thead><tbody>${params
          .map(
            (p) =>
              `<tr><td><code>${esc(p.name)}</code>${p.optional ? " (optional)" : ""}</td><td>${esc(p.description ?? "")}</td></tr>`
          )
          .join("")}</tbody></table>`
      : "",
    params.some((p) => PLACE_PARAMETERS.has(p.name)) ? `<p>${esc(PLACES_NOTE)}</p>` : "",
    f.result?.dimensionality === "matrix"
      ? "<p>The answer spills into the cells below and to the right: leave them empty.</p>"
      : "",
    examples.length
      ? `<p>Examples:</p><ul>${examples.map((e) => `<li><code>${esc(e)}</code></li>`).join("")}</ul>`
      : "",
    "</section>",
  ].join("\n");
}

const STYLE =
  "body{font-family:'Segoe UI',-apple-system,Roboto,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;line-height:1.5;color:#242424}" +
  "code,pre{font-family:Consolas,Menlo,monospace;background:#f5f5f5;border-radius:4px;padding:1px 4px}pre{padding:8px;overflow:auto}" +
  "table{border-collapse:collapse}td,th{border:1px solid #e0e0e0;padding:4px 8px;text-align:left;vertical-align:top}a{color:#0f6cbd}";

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>\n${body}\n</body></html>\n`;
}

/** /help/: getting started, then every function (each in its anchored section). */
export function helpIndex(meta: FunctionMetadata[], origin: string): string {
  const functions = documented(meta);
  return page(
    "Route Sheets help",
    [
      "<h1>Route Sheets help</h1>",
      "<p>Route Sheets adds freight functions to Excel: distances, CO2e, terminals, operators and route options, answered by the Route Sheets service that serves this page.</p>",
      "<h2>Getting started</h2>",
      "<ol><li>Open the <b>Route Sheets</b> pane (Home tab), keep <i>This server</i> as the service, enter your API key and press <b>Save</b>; <b>Test connection</b> checks the key and its credits.</li>",
      `<li>Type a formula in a cell, for example <code>${esc(EXAMPLES.DISTANCE[0])}</code> (kilometres from Shanghai to Rotterdam).</li>`,
      "<li>Places are UN/LOCODEs (<code>NLRTM</code>), place names (<code>Rotterdam</code>, <code>Jebel Ali</code>, <code>São Paulo</code>, in any letter case), coordinates <code>lat,lng</code> (<code>51.95,4.05</code>, or <code>51,95;4,05</code> in a decimal-comma sheet) or terminal ids from ROUTE.TERMINALS. A misspelt name gets a “did you mean”; a name several places share lists them.</li></ol>",
      "<p>Errors: <code>#VALUE!</code> means an argument is wrong (the cell's message says which); <code>#N/A</code> means the key, credits, place or service is the problem, with a message that says what to fix.</p>",
      "<p>How RAIL and TRUCK distances are computed: RAIL follows the rail corridors the service knows (main freight lines) where both ends are near one; otherwise, and for TRUCK, the distance is an estimate, the great-circle distance times a circuity factor for the modality and region, crossing water only over fixed links (bridges, tunnels, train ferries). TRUCK runs on the US freeway network where both ends are in the United States (and on OSRM when the server runs with <code>--road-engine osrm=URL</code>), RAIL off the corridors on the North American Class I network; elsewhere the estimate is priced by distance band, with high mountain and open-water stretches on their own factors and, for TRUCK, a little more where the line crosses hilly relief. The path answer says which in its <code>basis</code> property (<code>network</code>, <code>road network (US freeways)</code>, <code>rail network (North American Class I)</code>, <code>road network (OSRM)</code> or <code>great circle × circuity</code>).</p>",
      "<h2>Functions</h2>",
      `<ul>${functions.map((f) => `<li><a href="#${esc(`${NAMESPACE}.${f.id.toUpperCase()}`)}">${esc(`${NAMESPACE}.${f.id.toUpperCase()}`)}</a></li>`).join("")}</ul>`,
      ...functions.map((f) => section(f, "h2", origin)),
      '<p>Places: a UN/LOCODE (every approved code of UN/LOCODE 2024-2, UNECE), a terminal, <code>lat,lng</code>, or a town or port name in any case, with or without diacritics (Antwerp or Antwerpen); a name several places share answers with the candidates (<code>Portland: USPDX (Oregon) or USPWM (Maine)</code>). Positions the code list lacks, place populations and subdivision names contain data from <a href="https://www.geonames.org/">GeoNames</a>, licensed under CC BY 4.0; positions of small ports and villages GeoNames lacks are © <a href="https://www.openstreetmap.org/copyright">OpenStreetMap contributors</a> (ODbL).</p>',
      `<p>The HTTP interface behind the functions: <a href="${esc(origin)}/openapi.json">/openapi.json</a>.</p>`,
    ].join("\n")
  );
}

/** /help/ROUTE.<NAME>: one function's page, or undefined for a function that does not exist. */
export function functionHelp(
  meta: FunctionMetadata[],
  name: string,
  origin: string
): string | undefined {
  const m = /^ROUTE\.([A-Z]+)$/i.exec(name);
  const f = m && documented(meta).find((x) => x.id.toUpperCase() === m[1].toUpperCase());
  if (!f) return undefined;
  return page(
    `${NAMESPACE}.${f.id.toUpperCase()} – Route Sheets help`,
    `${section(f, "h1", origin)}\n<p><a href="${esc(origin)}/help/">All functions and getting started</a></p>`
  );
}
