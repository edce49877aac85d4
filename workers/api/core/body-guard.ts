import type { Context, Next } from "hono";
import { apiError } from "./errors.ts";

/**
 * One guard for every API request body (docs/decisions/018-request-edges.md),
 * before any handler or validator reads it:
 * - a body that is not multipart may be at most MAX_JSON_BODY_BYTES (413),
 *   counted while it is read, so a body without Content-Length is held to it
 *   too; uploads (multipart) keep their own per-file limits (videos 100 MB);
 * - JSON nested deeper than MAX_JSON_DEPTH is refused (400) before anything parses it.
 * The text read here is what the handlers' c.req.json() / c.req.text() parse.
 */

/** The largest legitimate bodies are drafts (at most 1.5 MB of posts); 2 MB leaves headroom. */
export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;
/** Our deepest legitimate body (a post's template layers and overrides) nests about 8 levels. */
export const MAX_JSON_DEPTH = 64;

export const BODY_TOO_LARGE_MESSAGE = "The request is too large. Send at most 2 MB of data at once.";
export const BODY_TOO_DEEP_MESSAGE = "The request body is nested too deeply.";

const BODYLESS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Reads a stream up to `limit` bytes; null when it holds more. */
async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings do not count). */
export function jsonDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92 /* \ */) i += 1;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 /* { */ || char === 91 /* [ */) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (char === 125 /* } */ || char === 93 /* ] */) depth -= 1;
  }
  return deepest;
}

export async function guardRequestBody(c: Context, next: Next) {
  const raw = c.req.raw;
  if (BODYLESS.has(c.req.method) || !raw.body) return next();
  // Uploads (multipart) are held to their own per-file limits by their routes.
  if (/^multipart\//i.test(c.req.header("content-type") ?? "")) return next();
  const declared = Number(c.req.header("content-length"));
  if (Number.isFinite(declared) && declared > MAX_JSON_BODY_BYTES) return apiError(c, 413, BODY_TOO_LARGE_MESSAGE);
  const bytes = await readAtMost(raw.body, MAX_JSON_BODY_BYTES);
  if (!bytes) return apiError(c, 413, BODY_TOO_LARGE_MESSAGE);
  const text = new TextDecoder().decode(bytes);
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return apiError(c, 400, BODY_TOO_DEEP_MESSAGE);
  // Handlers read the body through c.req (json(), text()): they get this text.
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
  return next();
}
