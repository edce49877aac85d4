import { invalidParam, missingParam } from "./state.ts";

/**
 * Stripe's request encoding: application/x-www-form-urlencoded with bracketed
 * keys, `items[0][price]=x&expand[]=y&metadata[planId]=z`, as the SDK writes
 * it (and as query strings of GET requests carry it).
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Params = Record<string, FormValue>;

export function decodeStripeForm(text: string): Params {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.match(/^[^[\]]+|\[[^\]]*\]/g);
    if (!parts || parts.join("") !== key) continue;
    const path = parts.map((part, index) => (index === 0 ? part : part.slice(1, -1)));
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < path.length; i += 1) {
      const segment = path[i];
      const last = i === path.length - 1;
      if (Array.isArray(node)) {
        const index = segment === "" ? node.length : Number(segment);
        if (last) node[index] = value;
        else node = (node[index] ??= nextContainer(path[i + 1])) as Record<string, unknown> | unknown[];
      } else {
        if (last) node[segment] = value;
        else node = (node[segment] ??= nextContainer(path[i + 1])) as Record<string, unknown> | unknown[];
      }
    }
  }
  return compactArrays(root) as Params;
}

/** `[]` and `[0]` start arrays; anything else an object. */
function nextContainer(segment: string): Record<string, unknown> | unknown[] {
  return segment === "" || /^\d+$/.test(segment) ? [] : {};
}

function compactArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(compactArrays);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactArrays(v)]));
  return value;
}

// ---------------------------------------------------------------------------
// Reading parameters with Stripe's error answers

export function optionalString(params: Params, name: string, param = name): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalidParam(param, `Invalid string: ${JSON.stringify(value).slice(0, 100)}`);
  return value;
}

export function requiredString(params: Params, name: string, param = name): string {
  const value = optionalString(params, name, param);
  if (value === undefined || value === "") throw missingParam(param);
  return value;
}

export function optionalInteger(params: Params, name: string, param = name): number | undefined {
  const value = optionalString(params, name, param);
  if (value === undefined || value === "") return undefined;
  if (!/^-?\d+$/.test(value)) throw invalidParam(param, `Invalid integer: ${value}`, "parameter_invalid_integer");
  return Number(value);
}

/** A decimal such as percent_off=12.5. */
export function optionalDecimal(params: Params, name: string, param = name): number | undefined {
  const value = optionalString(params, name, param);
  if (value === undefined || value === "") return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw invalidParam(param, `Invalid decimal: ${value}`, "parameter_invalid_decimal");
  return Number(value);
}

export function optionalBoolean(params: Params, name: string, param = name): boolean | undefined {
  const value = optionalString(params, name, param);
  if (value === undefined || value === "") return undefined;
  if (value !== "true" && value !== "false") throw invalidParam(param, `Invalid boolean: ${value}`, "parameter_invalid_boolean");
  return value === "true";
}

export function optionalObject(params: Params, name: string, param = name): Params | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw invalidParam(param, `Invalid hash`, "parameter_invalid_hash");
  return value;
}

export function optionalArray(params: Params, name: string, param = name): FormValue[] | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (!Array.isArray(value)) throw invalidParam(param, `Invalid array`, "parameter_invalid_array");
  return value;
}

/** metadata: string values; an empty value removes the key (Stripe's rule on update). */
export function applyMetadata(current: Record<string, string>, params: Params, name = "metadata"): Record<string, string> {
  const update = optionalObject(params, name);
  if (!update) return current;
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (typeof value !== "string") throw invalidParam(`${name}[${key}]`, "Invalid string", "parameter_invalid_string");
    if (value === "") delete next[key];
    else next[key] = value.slice(0, 500);
  }
  return next;
}

/** expand[] of a request, e.g. ["subscription", "line_items"]. */
export function expandPaths(params: Params): string[] {
  const value = params.expand;
  if (value === undefined) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  throw invalidParam("expand", "Invalid array", "parameter_invalid_array");
}
