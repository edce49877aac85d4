import type { Context } from "hono";

/** The JSON object body of a sandbox control request, or a 400 answer saying what is wrong with it. */
export async function jsonInput(c: Context): Promise<Record<string, unknown> | Response> {
  let input: unknown;
  try {
    input = await c.req.json();
  } catch {
    return c.json({ error: "Body must be JSON" }, 400);
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) return c.json({ error: "Body must be a JSON object" }, 400);
  return input as Record<string, unknown>;
}
