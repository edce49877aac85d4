import { Hono, type Context } from "hono";

/**
 * Webhook delivery for the PayPal and Shopify stand-ins (the Stripe stand-in has
 * its own, sandbox/providers/stripe/webhooks.ts, which re-signs each attempt).
 * An event is signed once when it is raised (its headers and exact body are
 * kept) and POSTed to the configured endpoint; a delivery not answered with 2xx
 * is retried after the configured delays. A test can hold events and release
 * them in another order, or deliver one again (docs/decisions/014-paypal-shopify.md).
 */

export interface DeliveryAttempt {
  at: string;
  url: string;
  status: number | null;
  error?: string;
}

export interface OutgoingEvent {
  id: string;
  type: string;
  /** What the event is about, for filtering: a PayPal subscription id, a Shopify shop domain. */
  subject: string;
  /** A second filter key: the Shopify subscription gid (unused by PayPal). */
  object: string;
  created: string;
  headers: Record<string, string>;
  body: string;
  /** pending: no endpoint configured; held: waiting for a release; delivering; delivered; failed: retries exhausted. */
  delivery: "pending" | "held" | "delivering" | "delivered" | "failed";
  attempts: DeliveryAttempt[];
}

export interface Outbox {
  /** Our endpoint; null: events wait (pending) until a test delivers them. */
  url: string | null;
  retryDelaysMs: number[];
  /** While true, new events are held until a release delivers them. */
  hold: boolean;
  events: OutgoingEvent[];
  /** Deliveries run one after another, in the order events were raised. */
  chain: Promise<void>;
}

export function createOutbox(url: string | null): Outbox {
  return { url, retryDelaysMs: [200, 1_000, 5_000], hold: false, events: [], chain: Promise.resolve() };
}

/** Keeps an event and queues its delivery; `alive` is false once the stand-in's state was reset (no more retries). */
export function raise(outbox: Outbox, event: Omit<OutgoingEvent, "delivery" | "attempts">, alive: () => boolean): OutgoingEvent {
  const record: OutgoingEvent = { ...event, delivery: "pending", attempts: [] };
  outbox.events.push(record);
  if (outbox.hold) record.delivery = "held";
  else if (outbox.url) {
    record.delivery = "delivering";
    outbox.chain = outbox.chain.then(() => deliverWithRetries(outbox, record, 0, alive));
  }
  return record;
}

/** One delivery attempt now; answers whether our endpoint took it (2xx). */
export async function attemptDelivery(outbox: Outbox, record: OutgoingEvent): Promise<boolean> {
  const url = outbox.url;
  if (!url) return false;
  const at = new Date().toISOString();
  try {
    const response = await fetch(url, { method: "POST", headers: record.headers, body: record.body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer().catch(() => undefined);
    record.attempts.push({ at, url, status: response.status });
    return response.ok;
  } catch (error) {
    record.attempts.push({ at, url, status: null, error: String(error) });
    return false;
  }
}

async function deliverWithRetries(outbox: Outbox, record: OutgoingEvent, retry: number, alive: () => boolean): Promise<void> {
  if (!alive()) return;
  if (await attemptDelivery(outbox, record)) {
    record.delivery = "delivered";
    return;
  }
  const delay = outbox.retryDelaysMs[retry];
  if (delay === undefined) {
    record.delivery = "failed";
    return;
  }
  const timer = setTimeout(() => void deliverWithRetries(outbox, record, retry + 1, alive), delay);
  timer.unref?.();
}

/** Delivers the held events now in the order asked, each `times` times; later events are no longer held. */
async function releaseHeld(outbox: Outbox, order: "created" | "reverse", times: number) {
  outbox.hold = false;
  const held = outbox.events.filter((record) => record.delivery === "held");
  if (order === "reverse") held.reverse();
  const delivered = [];
  for (const record of held) {
    const statuses: (number | null)[] = [];
    let ok = false;
    for (let i = 0; i < times; i += 1) {
      ok = (await attemptDelivery(outbox, record)) || ok;
      statuses.push(record.attempts.at(-1)?.status ?? null);
    }
    record.delivery = ok ? "delivered" : "failed";
    delivered.push({ id: record.id, type: record.type, statuses });
  }
  return delivered;
}

function view(record: OutgoingEvent, signed: boolean) {
  const { headers, body, ...rest } = record;
  return { ...rest, ...(signed ? { request: { headers, body } } : {}) };
}

async function optionalJson(c: Context): Promise<Record<string, unknown> | Response> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  return c.json({ error: "Body must be a JSON object" }, 400);
}

const timesOf = (value: unknown) => (value === undefined ? 1 : Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 10 ? (value as number) : null);

/**
 * The controls of an outbox, added to a stand-in's /__sandbox/{name} routes:
 *
 * - `GET  /events?subject=&object=&type=&signed=1`: raised events, oldest first, with how their
 *   deliveries went; `signed=1` adds the request a delivery sends ({headers, body});
 * - `POST /events/:id/deliver {times?}`: delivers an event again, now;
 * - `GET|POST /webhook {url?, retryDelaysMs?, hold?}`: where events go;
 * - `POST /webhook/release {order?: "created"|"reverse", times?}`: delivers the held events.
 */
export function outboxControl(control: Hono, outbox: () => Outbox, extraSettings?: (input: Record<string, unknown>) => string | null) {
  control.get("/events", (c) => {
    const { subject, object, type } = c.req.query();
    const signed = c.req.query("signed") === "1";
    return c.json(
      outbox()
        .events.filter((record) => (!subject || record.subject === subject) && (!object || record.object === object) && (!type || record.type === type))
        .map((record) => view(record, signed)),
    );
  });

  control.post("/events/:id/deliver", async (c) => {
    const box = outbox();
    const record = box.events.find((candidate) => candidate.id === c.req.param("id"));
    if (!record) return c.json({ error: `No such event: ${c.req.param("id")}` }, 404);
    if (!box.url) return c.json({ error: "No webhook endpoint is configured: POST webhook {url} first" }, 409);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const times = timesOf(input.times);
    if (times === null) return c.json({ error: "times must be an integer from 1 to 10" }, 400);
    let ok = false;
    for (let i = 0; i < times; i += 1) ok = (await attemptDelivery(box, record)) || ok;
    if (ok) record.delivery = "delivered";
    return c.json(view(record, false));
  });

  const settings = (box: Outbox) => ({ url: box.url, retryDelaysMs: box.retryDelaysMs, hold: box.hold });
  control.get("/webhook", (c) => c.json(settings(outbox())));
  control.post("/webhook", async (c) => {
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const box = outbox();
    if (input.url !== undefined && input.url !== null && (typeof input.url !== "string" || !/^https?:\/\//.test(input.url)))
      return c.json({ error: "url must be an http(s) URL or null" }, 400);
    const delays = input.retryDelaysMs;
    if (delays !== undefined && (!Array.isArray(delays) || delays.length > 10 || delays.some((d) => typeof d !== "number" || d < 0 || d > 600_000)))
      return c.json({ error: "retryDelaysMs must be a list of at most 10 delays from 0 to 600000" }, 400);
    if (input.hold !== undefined && typeof input.hold !== "boolean") return c.json({ error: "hold must be a boolean" }, 400);
    const extraError = extraSettings?.(input) ?? null;
    if (extraError) return c.json({ error: extraError }, 400);
    if (input.url !== undefined) box.url = input.url as string | null;
    if (delays !== undefined) box.retryDelaysMs = delays as number[];
    if (input.hold !== undefined) box.hold = input.hold as boolean;
    return c.json(settings(box));
  });

  control.post("/webhook/release", async (c) => {
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const order = input.order ?? "created";
    if (order !== "created" && order !== "reverse") return c.json({ error: 'order must be "created" or "reverse"' }, 400);
    const times = timesOf(input.times);
    if (times === null) return c.json({ error: "times must be an integer from 1 to 10" }, 400);
    const box = outbox();
    if (!box.url) return c.json({ error: "No webhook endpoint is configured: POST webhook {url} first" }, 409);
    return c.json({ delivered: await releaseHeld(box, order, times) });
  });
}
