import { Hono } from "hono";

/**
 * Stand-ins for the two conversion APIs the live configuration sends to. They
 * check what the real ones check (token, event names, hashed e-mails) and
 * answer in their shapes; what they received is in GET /__sandbox/requests
 * (service "meta" or "tiktok").
 *
 * - Meta Conversions API: `POST /meta/{pixel_id}/events?access_token=...` {data: [...]}
 *   -> {events_received, messages, fbtrace_id}; errors {error: {message, type, code, fbtrace_id}}.
 * - TikTok Events API 2.0: `POST /tiktok/event/track/` with `Access-Token` {event_source, event_source_id, data}
 *   -> {code: 0, message: "OK", request_id, data: {}}; errors answer 200 with a non-zero code.
 */
const SHA256_HEX = /^[0-9a-f]{64}$/;
const EVENTS = new Set(["AddToCart", "Subscribe", "CompleteRegistration", "Purchase", "ViewContent", "Lead"]);

export function metaProvider() {
  const app = new Hono();
  app.post("/:pixelId/events", async (c) => {
    const fail = (message: string, code = 100) => c.json({ error: { message, type: "OAuthException", code, fbtrace_id: crypto.randomUUID() } }, 400);
    if (!c.req.query("access_token")) return fail("An access token is required to request this resource.", 104);
    const body = (await c.req.json().catch(() => null)) as { data?: Record<string, unknown>[] } | null;
    if (!body || !Array.isArray(body.data) || body.data.length === 0) return fail("The parameter data is required");
    for (const event of body.data) {
      if (!EVENTS.has(String(event.event_name))) return fail(`Invalid parameter: event_name ${String(event.event_name)}`);
      if (typeof event.event_time !== "number") return fail("Invalid parameter: event_time");
      if (event.action_source !== "website") return fail("Invalid parameter: action_source");
      const emails = (event.user_data as { em?: unknown[] } | undefined)?.em ?? [];
      if (!emails.every((e) => typeof e === "string" && SHA256_HEX.test(e))) return fail("Invalid parameter: user_data.em must be SHA-256 hashes");
    }
    return c.json({ events_received: body.data.length, messages: [], fbtrace_id: crypto.randomUUID() });
  });
  return app;
}

export function tiktokProvider() {
  const app = new Hono();
  app.post("/event/track/", async (c) => {
    const fail = (code: number, message: string) => c.json({ code, message, request_id: crypto.randomUUID(), data: {} });
    if (!c.req.header("access-token")) return fail(40001, "Access token is missing");
    const body = (await c.req.json().catch(() => null)) as { event_source?: string; event_source_id?: string; data?: Record<string, unknown>[] } | null;
    if (body?.event_source !== "web" || !body.event_source_id) return fail(40002, "event_source and event_source_id are required");
    if (!Array.isArray(body.data) || body.data.length === 0) return fail(40002, "data is required");
    for (const event of body.data) {
      if (!EVENTS.has(String(event.event))) return fail(40002, `Invalid event: ${String(event.event)}`);
      const email = (event.user as { email?: unknown } | undefined)?.email;
      if (email !== undefined && (typeof email !== "string" || !SHA256_HEX.test(email))) return fail(40002, "user.email must be a SHA-256 hash");
    }
    return c.json({ code: 0, message: "OK", request_id: crypto.randomUUID(), data: {} });
  });
  return app;
}
