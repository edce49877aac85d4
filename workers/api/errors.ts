import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";

/** JSON error bodies for every API router: `{ error, field? }`. */
export function apiError(c: Context, status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 423 | 429 | 500 | 502 | 503, error: string, field?: string) {
  return c.json(field ? { error, field } : { error }, status);
}

export function apiNotFound(c: Context) {
  return apiError(c, 404, "Not found");
}

/** Unexpected failures are logged with the request and answered without internals. */
export function apiOnError(error: Error, c: Context) {
  if (error instanceof HTTPException) return error.getResponse();
  console.error(`${c.req.method} ${new URL(c.req.url).pathname} failed:`, error);
  return apiError(c, 500, "Something went wrong on our side. Please try again.");
}
