import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ServiceError } from "../../services/core/errors.ts";
import { RateLimited } from "../../services/accounts/rate-limit.ts";

/** JSON error bodies for every API router: `{ error, field? }`. */
export function apiError(
  c: Context,
  status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 423 | 429 | 500 | 502 | 503 | 504,
  error: string,
  field?: string,
  details?: Record<string, string>,
) {
  return c.json({ ...details, error, ...(field ? { field } : {}) }, status);
}

export function apiNotFound(c: Context) {
  return apiError(c, 404, "Not found");
}

/** Service failures answer their status and message; unexpected ones are logged and answered without internals. */
export function apiOnError(error: Error, c: Context) {
  if (error instanceof ServiceError) return apiError(c, error.status, error.message, error.field, error.details);
  if (error instanceof RateLimited) {
    c.header("retry-after", String(error.retryAfterSeconds));
    return apiError(c, 429, error.message);
  }
  if (error instanceof HTTPException) {
    const status = error.status as Parameters<typeof apiError>[1];
    return apiError(
      c,
      status,
      error.status === 400 && /JSON/i.test(error.message) ? "The request body must be valid JSON." : error.message || "Request refused",
    );
  }
  console.error(`${c.req.method} ${new URL(c.req.url).pathname} failed:`, error);
  return apiError(c, 500, "Something went wrong on our side. Please try again.");
}
