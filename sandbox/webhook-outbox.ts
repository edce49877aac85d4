import type { Hono, Context } from "hono";

/**
 * Webhook delivery for the Stripe, PayPal and Shopify stand-ins. Each event is
 * kept and POSTed to the configured endpoint, one after another in the order
 * they were raised; a delivery not answered with 2xx is retried after the
 * configured delays. A test can hold events and release them in another order,
 * or deliver one again (docs/decisions/013-billing.md, 014-paypal-shopify.md).
 * How a delivery is signed is the provider's: the PayPal and Shopify stand-ins
 * sign an event once, when it is raised (its headers and exact body are kept);
 * Stripe's signs every attempt anew (`Outbox.request`).
 */

export interface DeliveryAttempt {
  at: string;
  url: string;
  /** HTTP status of our endpoint's answer; null when it could not be reached. */
  status: number | null;
  error?: string;
}

/** How an event's deliveries went. */
export interface Delivered {
  /** pending: no endpoint configured; held: waiting for a release; delivering; delivered; failed: retries exhausted. */
  delivery: "pending" | "held" | "delivering" | "delivered" | "failed";
  attempts: DeliveryAttempt[];
}

/** What a delivery POSTs. */
export interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

/** An event signed when it was raised (PayPal, Shopify). */
export interface OutgoingEvent extends Delivered, SignedRequest {
  id: string;
  type: string;
  /** What the event is about, for filtering: a PayPal subscription id, a Shopify shop domain. */
  subject: string;
  /** A second filter key: the Shopify subscription gid (unused by PayPal). */
  object: string;
  created: string;
}

export interface Outbox<R extends Delivered = OutgoingEvent> {
  /** Our endpoint; null: events wait (pending) until a test delivers them. */
  url: string | null;
  retryDelaysMs: number[];
  /** While true, new events are held until a release delivers them. */
  hold: boolean;
  events: R[];
  /** Deliveries run one after another, in the order events were raised. */
  chain: Promise<void>;
  /** The request a delivery of the event sends now. */
  request: (record: R) => SignedRequest;
}

const sentAsRaised = (record: OutgoingEvent): SignedRequest => ({ headers: record.headers, body: record.body });

/** An outbox of events signed when raised; or, given `request`, of events signed by it at each attempt. */
export function createOutbox(url: string | null): Outbox;
export function createOutbox<R extends Delivered>(url: string | null, request: (record: R) => SignedRequest, retryDelaysMs?: number[]): Outbox<R>;
export function createOutbox<R extends Delivered>(url: string | null, request?: (record: R) => SignedRequest, retryDelaysMs = [200, 1_000, 5_000]): Outbox<R> {
  return {
    url,
    retryDelaysMs,
    hold: false,
    events: [],
    chain: Promise.resolve(),
    request: request ?? (sentAsRaised as unknown as (record: R) => SignedRequest),
  };
}

/** Keeps an event and queues its delivery; `alive` is false once the stand-in's state was reset (no more retries). */
export function raise<R extends Delivered>(outbox: Outbox<R>, event: Omit<R, keyof Delivered>, alive: () => boolean): R {
  const record = { ...event, delivery: "pending", attempts: [] } as Delivered as R;
  outbox.events.push(record);
  if (outbox.hold) record.delivery = "held";
  else if (outbox.url) {
    record.delivery = "delivering";
    outbox.chain = outbox.chain.then(() => deliverWithRetries(outbox, record, 0, alive));
  }
  return record;
}

/** One delivery attempt now; answers whether our endpoint took it (2xx). */
export async function attemptDelivery<R extends Delivered>(outbox: Outbox<R>, record: R): Promise<boolean> {
  const url = outbox.url;
  if (!url) return false;
  const { headers, body } = outbox.request(record);
  const at = new Date().toISOString();
  try {
    const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer().catch(() => undefined);
    record.attempts.push({ at, url, status: response.status });
    return response.ok;
  } catch (error) {
    record.attempts.push({ at, url, status: null, error: String(error) });
    return false;
  }
}

async function deliverWithRetries<R extends Delivered>(outbox: Outbox<R>, record: R, retry: number, alive: () => boolean): Promise<void> {
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

/**
 * Delivers the held events now, in the order asked (`reverse`: newest first), each `times` times,
 * one after another; later events are no longer held. Answers the events in delivery order.
 */
async function releaseHeld<R extends Delivered>(outbox: Outbox<R>, listing: EventListing<R>, order: "created" | "reverse", times: number) {
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
    record.delivery = ok ? "delivered" : outbox.url ? "failed" : "pending";
    delivered.push({ id: listing.id(record), type: listing.type(record), statuses });
  }
  return delivered;
}

/** How a stand-in's events are named, filtered and shown by the controls. */
export interface EventListing<R extends Delivered> {
  id: (record: R) => string;
  type: (record: R) => string;
  /** Whether the event matches the query of `GET /events` (its `type` is matched already). */
  matches: (record: R, query: Record<string, string>) => boolean;
  /** The event as `GET /events` lists it; `signed` adds the request a delivery sends. */
  view: (record: R, signed: boolean) => unknown;
}

/** Events signed when raised: filtered by `subject` and `object`, shown with their request ({headers, body}). */
export const outgoingEvents: EventListing<OutgoingEvent> = {
  id: (record) => record.id,
  type: (record) => record.type,
  matches: (record, { subject, object }) => (!subject || record.subject === subject) && (!object || record.object === object),
  view: (record, signed) => {
    const { headers, body, ...rest } = record;
    return { ...rest, ...(signed ? { request: { headers, body } } : {}) };
  },
};

/** A stand-in's own webhook settings beyond url, retryDelaysMs and hold. */
export interface ExtraSettings {
  /** Checks and applies them from a `POST /webhook` body (after the common ones are checked); answers an error or null. */
  apply: (input: Record<string, unknown>) => string | null;
  /** Them, as `GET|POST /webhook` answers them. */
  view?: () => Record<string, unknown>;
}

/** A request's JSON object body; no body: {}; anything else: the 400 to answer. */
export async function optionalJson(c: Context): Promise<Record<string, unknown> | Response> {
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

const timesOf = (value: unknown) =>
  value === undefined || value === null ? 1 : Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 10 ? (value as number) : null;

/**
 * The controls of an outbox, added to a stand-in's /__sandbox/{name} routes:
 *
 * - `GET  /events?type=&signed=1` (and the stand-in's own filters): raised events, oldest first,
 *   with how their deliveries went; `signed=1` adds the request a delivery sends;
 * - `POST /events/:id/deliver {times?}`: delivers an event again, now;
 * - `GET|POST /webhook {url?, retryDelaysMs?, hold?, ...extra}`: where events go;
 * - `POST /webhook/release {order?: "created"|"reverse", times?}`: delivers the held events in that
 *   order, each `times` times (out of order, twice).
 */
export function outboxControl<R extends Delivered>(control: Hono, name: string, outbox: () => Outbox<R>, listing: EventListing<R>, extra?: ExtraSettings) {
  const noEndpoint = `No webhook endpoint is configured: POST /__sandbox/${name}/webhook {url} first`;

  control.get("/events", (c) => {
    const query = c.req.query();
    const signed = query.signed === "1";
    return c.json(
      outbox()
        .events.filter((record) => (!query.type || listing.type(record) === query.type) && listing.matches(record, query))
        .map((record) => listing.view(record, signed)),
    );
  });

  control.post("/events/:id/deliver", async (c) => {
    const box = outbox();
    const record = box.events.find((candidate) => listing.id(candidate) === c.req.param("id"));
    if (!record) return c.json({ error: `No such event: ${c.req.param("id")}` }, 404);
    if (!box.url) return c.json({ error: noEndpoint }, 409);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const times = timesOf(input.times);
    if (times === null) return c.json({ error: "times must be an integer from 1 to 10" }, 400);
    let ok = false;
    for (let i = 0; i < times; i += 1) ok = (await attemptDelivery(box, record)) || ok;
    if (ok) record.delivery = "delivered";
    return c.json(listing.view(record, false));
  });

  const settings = (box: Outbox<R>) => ({ url: box.url, retryDelaysMs: box.retryDelaysMs, hold: box.hold, ...extra?.view?.() });
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
    const extraError = extra?.apply(input) ?? null;
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
    if (!box.url) return c.json({ error: noEndpoint }, 409);
    return c.json({ delivered: await releaseHeld(box, listing, order, times) });
  });
}
