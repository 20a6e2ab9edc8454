/**
 * Turns Fastify/ajv validation errors into `Incorrect Values` / `Type Required` details that name
 * the parameter and its allowed values, read from the same schema that validated the request.
 */
import { ServiceProblem } from "./problem";

/**
 * Numbers in a query are decimal digits only: ajv's coercion reads `0x10` as 16 and `1e3` as
 * 1000 (it compares the text with `+text` loosely). Checked on the raw text, before validation,
 * for every integer or number parameter of `schema`; the refusal names the parameter and range.
 */
export function refuseNonDecimalNumbers(
  query: Record<string, unknown>,
  schema: { properties?: Record<string, JsonSchema & { minimum?: number; maximum?: number }> }
): void {
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const type = prop.type;
    if (type !== "integer" && type !== "number") continue;
    const raw = Object.hasOwn(query, name) ? query[name] : undefined;
    if (typeof raw !== "string") continue;
    const ok = type === "integer" ? /^\+?\d+$/.test(raw) : /^[+-]?\d+(\.\d+)?$/.test(raw);
    if (ok) continue;
    const range =
      prop.minimum !== undefined
        ? ` from ${prop.minimum}${prop.maximum !== undefined ? ` to ${prop.maximum}` : ""}`
        : "";
    throw new ServiceProblem(
      "Incorrect Values",
      `query parameter ${name} "${raw.slice(0, 64)}" must be ${type === "integer" ? "an integer" : "a number"}${range} in decimal digits.`,
      name
    );
  }
}

export interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath?: string;
  params: Record<string, unknown>;
  message?: string;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  description?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  maxItems?: number;
  anyOf?: JsonSchema[];
};

export function validationProblem(
  errors: AjvError[],
  context: string | undefined,
  schema: JsonSchema | undefined,
  data: unknown
): ServiceProblem {
  const e = errors[0];
  const segments = e.instancePath.split("/").slice(1).map(decodePointer);
  if (e.keyword === "required" && typeof e.params.missingProperty === "string")
    segments.push(e.params.missingProperty);
  if (e.keyword === "additionalProperties" && typeof e.params.additionalProperty === "string")
    segments.push(e.params.additionalProperty);

  // Batch: an item without a valid `type` spoils the whole request.
  if (
    context === "body" &&
    segments[0] === "requests" &&
    /^\d+$/.test(segments[1] ?? "") &&
    (segments.length === 2 || segments[2] === "type")
  ) {
    if (segments.length === 3 || e.keyword === "type") {
      const types = (
        schemaAt(schema, ["requests", "0", "type"])?.enum ?? ["distance", "emissions", "terminals"]
      ).join(", ");
      return new ServiceProblem(
        "Type Required",
        `requests[${segments[1]}].type must be one of: ${types}.`,
        "type"
      );
    }
  }

  const parameter = segments.length ? formatPath(segments) : (context ?? "request");
  const where =
    context === "body"
      ? "body field"
      : context === "querystring"
        ? "query parameter"
        : (context ?? "value");
  const prop = schemaAt(schema, segments);
  const value = valueAt(data, segments);
  const text = Array.from(String(value));
  const shown =
    value === undefined ? "" : ` "${text.slice(0, 64).join("")}${text.length > 64 ? "…" : ""}"`;
  const allowed = describeAllowed(prop);
  let detail: string;
  switch (e.keyword) {
    case "required": {
      const what =
        (prop?.enum ?? prop?.items?.enum)
          ? allowed
          : prop?.description
            ? `${prop.description.replace(/\.$/, "")}.`
            : allowed;
      detail = `${where} ${parameter} is required${what ? `: ${what}` : "."}`;
      break;
    }
    case "enum":
      detail = `${where} ${parameter}${shown} is not allowed; allowed values: ${((e.params.allowedValues as unknown[]) ?? prop?.enum ?? []).join(", ")}.`;
      break;
    case "additionalProperties": {
      const known = Object.keys(schema?.properties ?? {}).join(", ");
      detail = `${where} ${parameter} is not used by this endpoint; allowed parameters: ${known}.`;
      break;
    }
    case "pattern":
      detail = `${where} ${parameter}${shown} must be written in decimal digits${allowed ? `; ${allowed}` : "."}`;
      break;
    case "maxItems":
      detail = `${where} ${parameter} holds at most ${String(e.params.limit)} items.`;
      break;
    default:
      detail = `${where} ${parameter}${shown} ${e.message ?? "is invalid"}${allowed ? `; ${allowed}` : "."}`;
  }
  return new ServiceProblem("Incorrect Values", detail, parameter);
}

/** Own properties only: segments come from user input ("constructor", "__proto__"). */
function own<T>(o: Record<string, T> | undefined, key: string): T | undefined {
  return o && Object.hasOwn(o, key) ? o[key] : undefined;
}

function decodePointer(s: string): string {
  return s.replace(/~1/g, "/").replace(/~0/g, "~");
}

function formatPath(segments: string[]): string {
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

function schemaAt(schema: JsonSchema | undefined, segments: string[]): JsonSchema | undefined {
  let s = schema;
  for (const seg of segments) {
    if (!s) return undefined;
    if (/^\d+$/.test(seg) && s.items) s = s.items;
    else
      s =
        own(s.properties, seg) ??
        own(s.anyOf?.find((a) => own(a.properties, seg))?.properties, seg);
  }
  return s;
}

function valueAt(data: unknown, segments: string[]): unknown {
  let v = data;
  for (const seg of segments) {
    if (v === null || typeof v !== "object") return undefined;
    v = own(v as Record<string, unknown>, seg);
  }
  return v;
}

function describeAllowed(s: JsonSchema | undefined): string {
  if (!s) return "";
  const en = s.enum ?? s.items?.enum;
  if (en) return `allowed values: ${en.join(", ")}.`;
  const parts: string[] = [];
  const type = Array.isArray(s.type) ? s.type.join(" or ") : s.type;
  if (type === "array") parts.push(`a list (repeat the parameter or separate values by commas)`);
  else if (type) parts.push(`expected ${type === "integer" ? "an integer" : `a ${type}`}`);
  if (s.format) parts.push(`format ${s.format}${s.format === "date" ? " (YYYY-MM-DD)" : ""}`);
  if (s.description) parts.push(s.description.replace(/\.$/, ""));
  return parts.length ? parts.join("; ") + "." : "";
}
