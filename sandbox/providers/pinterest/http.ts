import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Pinterest's error bodies ({code, message}: Error / Pinterest.Lib.Error) with
 * the codes and messages its API answers, and the paging helpers the list
 * endpoints share.
 */
export const ERRORS = {
  authenticationFailed: { status: 401, code: 2, message: "Authentication failed." },
  insufficientScope: {
    status: 401,
    code: 3,
    message:
      "Your token does not have sufficient permissions to perform this operation. Please ensure your token is authorized with the correct set of scopes.",
  },
  invalidGrant: { status: 401, code: 283, message: "The authorization grant is invalid" },
  notPermitted: { status: 403, code: 29, message: "You are not permitted to access that resource." },
  rateLimited: {
    status: 429,
    code: 8,
    message: "This request exceeded a rate limit. This can happen if the client exceeds one\nof the published rate limits within a short time window.",
  },
  boardNotFound: { status: 404, code: 404, message: "Board not found." },
  sectionNotFound: { status: 404, code: 404, message: "Board section not found." },
  mediaNotFound: { status: 404, code: 404, message: "Media upload not found." },
} as const;

export function pinterestError(c: Context, error: { status: number; code: number; message: string }) {
  return c.json({ code: error.code, message: error.message }, error.status as ContentfulStatusCode);
}

/** 400 with Pinterest's "invalid parameters" code, naming the problem. */
export function invalid(c: Context, problem: string) {
  return c.json({ code: 1, message: `Invalid parameters: ${problem}` }, 400);
}

/** The parsed JSON object body, or a 400 answer. */
export async function jsonObjectBody(c: Context): Promise<Record<string, unknown> | Response> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) return invalid(c, "the request body must be JSON (Content-Type: application/json).");
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return invalid(c, "the request body is not valid JSON.");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return invalid(c, "the request body must be a JSON object.");
  return body as Record<string, unknown>;
}

/** Length in characters (code points), as Pinterest counts its limits. */
export function characters(value: string) {
  return [...value].length;
}

/**
 * An optional string field limited to `max` characters: undefined and null are
 * fine, anything else must be a string within the limit. The problem, or null.
 */
export function stringFieldProblem(body: Record<string, unknown>, field: string, max?: number): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return `'${field}' must be a string.`;
  if (max !== undefined && characters(value) > max) {
    return `'${field}' is too long (${characters(value)} characters; at most ${max}).`;
  }
  return null;
}

export const DIGITS = /^\d+$/;

export interface PageRequest {
  pageSize: number;
  bookmark: Record<string, unknown> | null;
}

/** page_size (1..250, default 25) and the decoded bookmark of this kind, or a 400 answer. */
export function pageRequest(c: Context, kind: string, scope: string): PageRequest | Response {
  const rawSize = c.req.query("page_size");
  let pageSize = 25;
  if (rawSize !== undefined) {
    if (!/^\d+$/.test(rawSize) || Number(rawSize) < 1 || Number(rawSize) > 250) {
      return invalid(c, "'page_size' must be an integer from 1 to 250.");
    }
    pageSize = Number(rawSize);
  }
  const rawBookmark = c.req.query("bookmark");
  if (rawBookmark === undefined || rawBookmark === "") return { pageSize, bookmark: null };
  const bookmark = decodeBookmark(rawBookmark);
  if (!bookmark || bookmark.k !== kind || bookmark.s !== scope) return invalid(c, "'bookmark' is not a bookmark of this list.");
  return { pageSize, bookmark };
}

export function encodeBookmark(kind: string, scope: string, position: Record<string, unknown>) {
  return Buffer.from(JSON.stringify({ k: kind, s: scope, ...position })).toString("base64url");
}

function decodeBookmark(value: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The origin and mount path of the stand-in, e.g. "http://127.0.0.1:8788/pinterest", from a route marker like "/v5/". */
export function mountBase(c: Context, marker: string) {
  const url = new URL(c.req.url);
  const index = url.pathname.indexOf(marker);
  return `${url.origin}${index >= 0 ? url.pathname.slice(0, index) : ""}`;
}

export function isHttpUrl(value: string) {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && /^https?:\/\//i.test(value);
  } catch {
    return false;
  }
}

export { escapeHtml } from "../../html.ts";
