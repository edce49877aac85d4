import type Stripe from "stripe";
import { Hono, type Context as HonoContext } from "hono";
import type { SandboxState } from "../../state.ts";
import {
  addBalanceTransaction,
  cancelSubscription,
  closeDispute,
  confirmPaymentIntent,
  createCustomer,
  createPaymentIntent,
  createSubscription,
  refundCharge,
  updateSubscription,
  type Context,
  type SubscriptionChange,
} from "./billing.ts";
import {
  applyMetadata,
  decodeStripeForm,
  expandPaths,
  optionalArray,
  optionalBoolean,
  optionalDecimal,
  optionalInteger,
  optionalObject,
  optionalString,
  requiredString,
  type Params,
} from "./form.ts";
import {
  couponDiscount,
  invalidParam,
  missingParam,
  noSuch,
  nowSeconds,
  objectById,
  StripeApiError,
  stripeId,
  stripeState,
  type CheckoutSession,
  type Coupon,
  type Customer,
  type Discount,
  type Price,
  type SdkShape,
  type StripeObject,
  type StripeState,
} from "./state.ts";
import { emitEvent } from "./webhooks.ts";

/**
 * Stripe's REST API (https://docs.stripe.com/api) for what the app uses:
 * customers and their balance transactions, products and prices, coupons,
 * checkout sessions (with discounts), subscriptions, invoices, payment
 * intents and events. Requests are
 * form-encoded with expand[]; answers are Stripe's objects, list objects and
 * error objects; POSTs honour Idempotency-Key. Mounted at /stripe/v1.
 */

interface Call {
  c: HonoContext;
  params: Params;
  ctx: Context;
  stripe: StripeState;
  /** Where the stand-in is reached, e.g. http://127.0.0.1:8788/stripe. */
  base: string;
}

type Answer = StripeObject | ListObject | Record<string, unknown>;

interface ListObject {
  object: "list";
  data: StripeObject[];
  has_more: boolean;
  url: string;
}

export function stripeV1(state: SandboxState) {
  const app = new Hono();

  const on = (method: "GET" | "POST" | "DELETE", path: string, handler: (call: Call) => Answer) => {
    app.on(method, path, async (c) => {
      const stripe = stripeState(state);
      try {
        authenticate(c);
        const text = method === "POST" ? await c.req.text() : new URL(c.req.url).search.slice(1);
        const params = decodeStripeForm(text);
        stripe.apiVersion = c.req.header("stripe-version") ?? stripe.apiVersion;
        const key = method === "POST" ? (c.req.header("idempotency-key") ?? null) : null;
        const fingerprint = `${method} ${c.req.path} ${text}`;
        if (key) {
          const earlier = stripe.idempotency.get(key);
          if (earlier && earlier.fingerprint !== fingerprint) {
            throw new StripeApiError(
              400,
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              { type: "idempotency_error" },
            );
          }
          if (earlier) return c.json(earlier.body as object, earlier.status as 200, { "idempotent-replayed": "true", ...responseHeaders(stripe) });
        }
        const base = `${new URL(c.req.url).origin}/stripe`;
        const answer = handler({ c, params, ctx: { state, stripe, idempotencyKey: key }, stripe, base });
        const body = expandAll(stripe, structuredClone(answer), expandPaths(params));
        if (key) stripe.idempotency.set(key, { fingerprint, status: 200, body });
        return c.json(body as object, 200, responseHeaders(stripe));
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        return c.json(error.body(), error.status as 400, responseHeaders(stripe));
      }
    });
  };

  // --- Customers
  on("POST", "/customers", ({ params, ctx }) =>
    createCustomer(ctx, {
      email: optionalString(params, "email") ?? null,
      name: optionalString(params, "name") ?? null,
      description: optionalString(params, "description") ?? null,
      metadata: applyMetadata({}, params),
    }),
  );
  on("GET", "/customers", ({ params, stripe }) => {
    const email = optionalString(params, "email");
    return list(
      [...stripe.customers.values()].filter((customer) => !email || customer.email === email),
      params,
      "/v1/customers",
    );
  });
  on("GET", "/customers/:id", ({ c, stripe }) => customerOf(stripe, param(c, "id")));
  on("POST", "/customers/:id", ({ c, params, ctx, stripe }) => {
    const customer = customerOf(stripe, param(c, "id"));
    const before = structuredClone(customer);
    for (const field of ["email", "name", "description"] as const) {
      const value = optionalString(params, field);
      if (value !== undefined) customer[field] = value === "" ? null : value;
    }
    customer.metadata = applyMetadata(customer.metadata, params);
    emitEvent(ctx.state, stripe, "customer.updated", customer, { previous: previousOf(before, customer), idempotencyKey: ctx.idempotencyKey });
    return customer;
  });
  on("POST", "/customers/:id/balance_transactions", ({ c, params, ctx, stripe }) => {
    const customer = customerOf(stripe, param(c, "id"));
    const amount = optionalInteger(params, "amount");
    if (amount === undefined) throw missingParam("amount");
    if (amount === 0) throw invalidParam("amount", "Amount must be non-zero.", "parameter_invalid_integer");
    const currency = requiredString(params, "currency");
    if (currency !== "usd") throw invalidParam("currency", `The currency of this customer is usd; ${currency} is not supported.`);
    return addBalanceTransaction(ctx, customer, {
      amount,
      currency,
      description: optionalString(params, "description") ?? null,
      metadata: applyMetadata({}, params),
    });
  });
  on("GET", "/customers/:id/balance_transactions", ({ c, params, stripe }) => {
    const customer = customerOf(stripe, param(c, "id"));
    return list(
      [...stripe.balanceTransactions.values()].filter((t) => t.customer === customer.id),
      params,
      `/v1/customers/${customer.id}/balance_transactions`,
    );
  });
  on("GET", "/customers/:id/balance_transactions/:txn", ({ c, stripe }) => {
    const customer = customerOf(stripe, param(c, "id"));
    const transaction = stripe.balanceTransactions.get(param(c, "txn"));
    if (!transaction || transaction.customer !== customer.id) throw noSuch("customer balance transaction", param(c, "txn"));
    return transaction;
  });

  // --- Products and prices
  on("GET", "/products/:id", ({ c, stripe }) => stripe.products.get(param(c, "id")) ?? raise(noSuch("product", param(c, "id"))));
  on("GET", "/prices", ({ params, stripe }) => {
    const active = optionalBoolean(params, "active");
    const type = optionalString(params, "type");
    const product = optionalString(params, "product");
    const lookupKeys = optionalArray(params, "lookup_keys");
    return list(
      [...stripe.prices.values()].filter(
        (price) =>
          (active === undefined || price.active === active) &&
          (!type || price.type === type) &&
          (!product || price.product === product) &&
          (!lookupKeys || lookupKeys.includes(String(price.lookup_key))),
      ),
      params,
      "/v1/prices",
    );
  });
  on("GET", "/prices/:id", ({ c, stripe }) => priceOf(stripe, param(c, "id"), "id"));
  on("POST", "/prices", ({ params, stripe }) => createPrice(stripe, params));

  // --- Coupons
  on("POST", "/coupons", ({ params, stripe }) => createCoupon(stripe, params));
  on("GET", "/coupons", ({ params, stripe }) =>
    list(
      [...stripe.coupons.values()].map((coupon) => refreshCoupon(coupon)),
      params,
      "/v1/coupons",
    ),
  );
  on("GET", "/coupons/:id", ({ c, stripe }) => refreshCoupon(couponOf(stripe, param(c, "id"), "coupon")));
  on("POST", "/coupons/:id", ({ c, params, stripe }) => {
    const coupon = couponOf(stripe, param(c, "id"), "coupon");
    for (const field of ["percent_off", "amount_off", "duration", "currency", "duration_in_months", "max_redemptions", "redeem_by", "id"]) {
      if (params[field] !== undefined)
        throw invalidParam(field, `Received unknown parameter: ${field}. Coupons can only have their name and metadata changed.`, "parameter_unknown");
    }
    const name = optionalString(params, "name");
    if (name !== undefined) coupon.name = name === "" ? null : name;
    coupon.metadata = applyMetadata(coupon.metadata, params);
    return refreshCoupon(coupon);
  });
  on("DELETE", "/coupons/:id", ({ c, stripe }) => {
    const coupon = couponOf(stripe, param(c, "id"), "coupon");
    // Discounts already applied keep their copy of the coupon, as in Stripe.
    stripe.coupons.delete(coupon.id);
    return { id: coupon.id, object: "coupon", deleted: true };
  });

  // --- Checkout sessions
  on("POST", "/checkout/sessions", ({ params, stripe, base }) => createCheckoutSession(stripe, params, base));
  on("GET", "/checkout/sessions", ({ params, stripe }) => {
    const filters = {
      customer: optionalString(params, "customer"),
      subscription: optionalString(params, "subscription"),
      payment_intent: optionalString(params, "payment_intent"),
      status: optionalString(params, "status"),
    };
    return list(
      [...stripe.sessions.values()].filter((session) => Object.entries(filters).every(([field, value]) => !value || session[field] === value)),
      params,
      "/v1/checkout/sessions",
    );
  });
  on("GET", "/checkout/sessions/:id", ({ c, stripe }) => sessionOf(stripe, param(c, "id")));
  on("GET", "/checkout/sessions/:id/line_items", ({ c, params, stripe }) => {
    const session = sessionOf(stripe, param(c, "id"));
    return list(sessionLineItems(stripe, session), params, `/v1/checkout/sessions/${session.id}/line_items`, false);
  });
  on("POST", "/checkout/sessions/:id/expire", ({ c, ctx, stripe }) => {
    const session = sessionOf(stripe, param(c, "id"));
    if (session.status !== "open")
      throw new StripeApiError(
        400,
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      );
    session.status = "expired";
    session.url = null;
    emitEvent(ctx.state, stripe, "checkout.session.expired", session, { idempotencyKey: ctx.idempotencyKey });
    return session;
  });

  // --- Subscriptions
  on("POST", "/subscriptions", ({ params, ctx, stripe }) => {
    const customer = customerOf(stripe, requiredString(params, "customer"), "customer");
    const items = lineItemsOf(stripe, params, "items").map((item) => ({ price: item.price, quantity: item.quantity }));
    if (items.some((item) => !item.price.recurring)) throw invalidParam("items", "All prices on a subscription must be recurring.");
    const trial = optionalInteger(params, "trial_period_days") ?? null;
    return createSubscription(ctx, { customer, items, trialPeriodDays: trial, metadata: applyMetadata({}, params) }).subscription;
  });
  on("GET", "/subscriptions", ({ params, stripe }) => {
    const customer = optionalString(params, "customer");
    const status = optionalString(params, "status");
    const price = optionalString(params, "price");
    return list(
      [...stripe.subscriptions.values()].filter(
        (subscription) =>
          (!customer || subscription.customer === customer) &&
          (status === "all" || (status ? subscription.status === status : subscription.status !== "canceled")) &&
          (!price || subscription.items.data.some((item) => item.price.id === price)),
      ),
      params,
      "/v1/subscriptions",
    );
  });
  on("GET", "/subscriptions/:id", ({ c, stripe }) => subscriptionOf(stripe, param(c, "id")));
  on("POST", "/subscriptions/:id", ({ c, params, ctx, stripe }) => {
    const subscription = subscriptionOf(stripe, param(c, "id"));
    return updateSubscription(ctx, subscription, subscriptionChange(stripe, subscription.metadata, params));
  });
  on("DELETE", "/subscriptions/:id", ({ c, params, ctx, stripe }) => {
    const subscription = subscriptionOf(stripe, param(c, "id"));
    const details = optionalObject(params, "cancellation_details");
    return cancelSubscription(ctx, subscription, {
      comment: details ? optionalString(details, "comment", "cancellation_details[comment]") : undefined,
      feedback: details ? optionalString(details, "feedback", "cancellation_details[feedback]") : undefined,
    });
  });

  // --- Invoices
  on("GET", "/invoices", ({ params, stripe }) => {
    const customer = optionalString(params, "customer");
    const subscription = optionalString(params, "subscription");
    const status = optionalString(params, "status");
    return list(
      [...stripe.invoices.values()].filter(
        (invoice) =>
          (!customer || invoice.customer === customer) &&
          (!subscription || invoice.parent?.subscription_details.subscription === subscription) &&
          (!status || invoice.status === status),
      ),
      params,
      "/v1/invoices",
    );
  });
  on("GET", "/invoices/:id", ({ c, stripe }) => stripe.invoices.get(param(c, "id")) ?? raise(noSuch("invoice", param(c, "id"))));

  // --- Payment intents
  on("POST", "/payment_intents", ({ params, ctx, stripe }) => {
    const amount = optionalInteger(params, "amount");
    if (amount === undefined) throw missingParam("amount");
    if (amount < 50) throw invalidParam("amount", "Amount must be at least $0.50 usd", "amount_too_small");
    const currency = requiredString(params, "currency");
    const customerId = optionalString(params, "customer");
    if (customerId) customerOf(stripe, customerId, "customer");
    const intent = createPaymentIntent(ctx, {
      amount,
      currency,
      customer: customerId ?? null,
      description: optionalString(params, "description") ?? null,
      metadata: applyMetadata({}, params),
      paymentMethod: optionalString(params, "payment_method") ?? null,
    });
    return optionalBoolean(params, "confirm") ? confirmPaymentIntent(ctx, intent, undefined) : intent;
  });
  on("GET", "/payment_intents", ({ params, stripe }) => {
    const customer = optionalString(params, "customer");
    return list(
      [...stripe.paymentIntents.values()].filter((intent) => !customer || intent.customer === customer),
      params,
      "/v1/payment_intents",
    );
  });
  on("GET", "/payment_intents/:id", ({ c, stripe }) => paymentIntentOf(stripe, param(c, "id")));
  on("POST", "/payment_intents/:id/confirm", ({ c, params, ctx, stripe }) =>
    confirmPaymentIntent(ctx, paymentIntentOf(stripe, param(c, "id")), optionalString(params, "payment_method")),
  );
  on("POST", "/payment_intents/:id/cancel", ({ c, params, ctx, stripe }) => {
    const intent = paymentIntentOf(stripe, param(c, "id"));
    if (intent.status === "succeeded" || intent.status === "canceled") {
      throw new StripeApiError(400, `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`, {
        code: "payment_intent_unexpected_state",
      });
    }
    intent.status = "canceled";
    intent.canceled_at = nowSeconds();
    intent.cancellation_reason = optionalString(params, "cancellation_reason") ?? null;
    emitEvent(ctx.state, stripe, "payment_intent.canceled", intent, { idempotencyKey: ctx.idempotencyKey });
    return intent;
  });

  // --- Charges, refunds, disputes and invoice payments
  on("GET", "/charges", ({ params, stripe }) => {
    const customer = optionalString(params, "customer");
    const intent = optionalString(params, "payment_intent");
    return list(
      [...stripe.charges.values()].filter((charge) => (!customer || charge.customer === customer) && (!intent || charge.payment_intent === intent)),
      params,
      "/v1/charges",
    );
  });
  on("GET", "/charges/:id", ({ c, stripe }) => chargeOf(stripe, param(c, "id"), "charge"));
  on("POST", "/refunds", ({ params, ctx, stripe }) => {
    const chargeId = optionalString(params, "charge");
    const intentId = optionalString(params, "payment_intent");
    if (!chargeId && !intentId)
      throw new StripeApiError(400, "One of the following params should be provided for this request: charge or payment_intent.", {
        code: "parameter_missing",
      });
    let charge = chargeId ? chargeOf(stripe, chargeId, "charge") : undefined;
    if (intentId) {
      const intent = paymentIntentOf(stripe, intentId);
      if (!intent.latest_charge)
        throw new StripeApiError(400, `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          code: "charge_not_refundable",
          param: "payment_intent",
        });
      if (charge && charge.id !== intent.latest_charge) throw invalidParam("charge", "The charge is not the payment intent's.");
      charge = chargeOf(stripe, String(intent.latest_charge), "payment_intent");
    }
    const reason = optionalString(params, "reason");
    if (reason !== undefined && reason !== "duplicate" && reason !== "fraudulent" && reason !== "requested_by_customer") {
      throw invalidParam("reason", "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer");
    }
    return refundCharge(ctx, charge!, { amount: optionalInteger(params, "amount"), reason: reason ?? null, metadata: applyMetadata({}, params) });
  });
  on("GET", "/refunds", ({ params, stripe }) => {
    const charge = optionalString(params, "charge");
    const intent = optionalString(params, "payment_intent");
    return list(
      [...stripe.refunds.values()].filter((refund) => (!charge || refund.charge === charge) && (!intent || refund.payment_intent === intent)),
      params,
      "/v1/refunds",
    );
  });
  on("GET", "/refunds/:id", ({ c, stripe }) => stripe.refunds.get(param(c, "id")) ?? raise(noSuch("refund", param(c, "id"))));
  on("GET", "/disputes", ({ params, stripe }) => {
    const charge = optionalString(params, "charge");
    const intent = optionalString(params, "payment_intent");
    return list(
      [...stripe.disputes.values()].filter((dispute) => (!charge || dispute.charge === charge) && (!intent || dispute.payment_intent === intent)),
      params,
      "/v1/disputes",
    );
  });
  on("GET", "/disputes/:id", ({ c, stripe }) => stripe.disputes.get(param(c, "id")) ?? raise(noSuch("dispute", param(c, "id"))));
  // The merchant accepts the dispute: it is lost.
  on("POST", "/disputes/:id/close", ({ c, ctx, stripe }) =>
    closeDispute(ctx, stripe.disputes.get(param(c, "id")) ?? raise(noSuch("dispute", param(c, "id"))), "lost"),
  );
  on("GET", "/invoice_payments", ({ params, stripe }) => {
    const invoice = optionalString(params, "invoice");
    const payment = optionalObject(params, "payment");
    const type = payment ? requiredString(payment, "type", "payment[type]") : undefined;
    if (type !== undefined && type !== "payment_intent")
      throw invalidParam("payment[type]", "The Stripe sandbox lists invoice payments by payment_intent only.");
    const intent = payment ? requiredString(payment, "payment_intent", "payment[payment_intent]") : undefined;
    return list(
      [...stripe.invoicePayments.values()].filter((paid) => (!invoice || paid.invoice === invoice) && (!intent || paid.payment.payment_intent === intent)),
      params,
      "/v1/invoice_payments",
    );
  });
  on("GET", "/invoice_payments/:id", ({ c, stripe }) => stripe.invoicePayments.get(param(c, "id")) ?? raise(noSuch("invoice_payment", param(c, "id"))));

  // --- Events
  on("GET", "/events", ({ params, stripe }) => {
    const type = optionalString(params, "type");
    const matches = (eventType: string) => !type || (type.endsWith(".*") ? eventType.startsWith(type.slice(0, -1)) : eventType === type);
    return list(
      stripe.outbox.events.map((record) => record.event).filter((event) => matches(event.type)),
      params,
      "/v1/events",
    );
  });
  on(
    "GET",
    "/events/:id",
    ({ c, stripe }) => stripe.outbox.events.find((record) => record.event.id === param(c, "id"))?.event ?? raise(noSuch("event", param(c, "id"))),
  );

  app.all("*", (c) =>
    c.json(
      new StripeApiError(
        404,
        `Unrecognized request URL (${c.req.method}: /v1${c.req.path.replace(/^.*?\/v1/, "")}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      ).body(),
      404,
    ),
  );
  return app;
}

// ---------------------------------------------------------------------------

/** A path parameter of the route (always present once the route matched). */
function param(c: HonoContext, name: string): string {
  return c.req.param(name) ?? "";
}

function raise(error: StripeApiError): never {
  throw error;
}

/** Stripe accepts a secret key as a Bearer token (or as Basic auth's user). The stand-in accepts any key. */
function authenticate(c: HonoContext) {
  const header = c.req.header("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1];
  const key = bearer ?? (basic ? Buffer.from(basic, "base64").toString("utf8").split(":")[0] : undefined);
  if (!key) {
    throw new StripeApiError(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
}

function responseHeaders(stripe: StripeState): Record<string, string> {
  return { "request-id": stripeId("req", 14), "stripe-version": stripe.apiVersion };
}

function previousOf(before: Record<string, unknown>, after: Record<string, unknown>) {
  return Object.fromEntries(
    Object.keys(after)
      .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      .map((key) => [key, before[key] ?? null]),
  );
}

/** A list object, newest first, with limit (1-100, default 10), starting_after and ending_before. */
function list(items: StripeObject[], params: Params, url: string, newestFirst = true): ListObject {
  const limit = Math.min(100, Math.max(1, optionalInteger(params, "limit") ?? 10));
  const ordered = newestFirst ? [...items].reverse().sort((a, b) => Number(b.created ?? 0) - Number(a.created ?? 0)) : items;
  const after = optionalString(params, "starting_after");
  const before = optionalString(params, "ending_before");
  let page = ordered;
  if (after) {
    const index = ordered.findIndex((item) => item.id === after);
    if (index < 0) throw invalidParam("starting_after", `No such object: '${after}'`, "resource_missing");
    page = ordered.slice(index + 1);
  } else if (before) {
    const index = ordered.findIndex((item) => item.id === before);
    if (index < 0) throw invalidParam("ending_before", `No such object: '${before}'`, "resource_missing");
    page = ordered.slice(Math.max(0, index - limit), index);
    return { object: "list", data: page, has_more: index - limit > 0, url };
  }
  return { object: "list", data: page.slice(0, limit), has_more: page.length > limit, url };
}

/**
 * Applies expand[] paths ("subscription", "line_items", "data.customer",
 * "subscription.latest_invoice"): ids become the objects they name.
 */
function expandAll(stripe: StripeState, answer: Answer, paths: string[]): Answer {
  let expanded: unknown = answer;
  for (const path of paths) {
    const segments = path.split(".");
    if (segments.length > 4) throw invalidParam("expand", `You cannot expand more than 4 levels of a property. Property: ${path}`, "parameter_invalid_string");
    expanded = expandPath(stripe, expanded, segments, path);
  }
  return expanded as Answer;
}

function expandPath(stripe: StripeState, value: unknown, segments: string[], path: string): unknown {
  if (segments.length === 0 || !value || typeof value !== "object") return value;
  const [head, ...rest] = segments;
  const object = value as Record<string, unknown>;
  if (object.object === "list" && head === "data" && Array.isArray(object.data)) {
    return { ...object, data: object.data.map((item) => expandPath(stripe, item, rest, path)) };
  }
  let field = object[head];
  if (head === "line_items" && object.object === "checkout.session") {
    const session = stripe.sessions.get(String(object.id));
    field = session ? list(sessionLineItems(stripe, session), {}, `/v1/checkout/sessions/${session.id}/line_items`, false) : null;
  } else if (head === "refunds" && object.object === "charge") {
    // Includable since API version 2022-11-15: a charge's refunds are listed only when expanded.
    field = list(
      [...stripe.refunds.values()].filter((refund) => refund.charge === object.id),
      { limit: "100" },
      `/v1/charges/${String(object.id)}/refunds`,
    );
  } else if (typeof field === "string") {
    field = structuredClone(objectById(stripe, field) ?? field);
  } else if (field === undefined) {
    throw invalidParam("expand", `This property cannot be expanded (${path}).`, "parameter_invalid_string");
  }
  return { ...object, [head]: expandPath(stripe, field, rest, path) };
}

function customerOf(stripe: StripeState, id: string, param = "id"): Customer {
  return stripe.customers.get(id) ?? raise(noSuch("customer", id, param));
}

function priceOf(stripe: StripeState, id: string, param: string): Price {
  return stripe.prices.get(id) ?? raise(noSuch("price", id, param));
}

function sessionOf(stripe: StripeState, id: string): CheckoutSession {
  return stripe.sessions.get(id) ?? raise(noSuch("checkout.session", id));
}

function subscriptionOf(stripe: StripeState, id: string) {
  return stripe.subscriptions.get(id) ?? raise(noSuch("subscription", id));
}

function chargeOf(stripe: StripeState, id: string, param: string) {
  return stripe.charges.get(id) ?? raise(noSuch("charge", id, param));
}

function paymentIntentOf(stripe: StripeState, id: string) {
  return stripe.paymentIntents.get(id) ?? raise(noSuch("payment_intent", id, "intent"));
}

/** A coupon; the 404 Stripe answers (resource_missing) when there is none. */
function couponOf(stripe: StripeState, id: string, kind = "coupon", param = "id"): Coupon {
  return stripe.coupons.get(id) ?? raise(noSuch(kind, id, param));
}

/** `valid` as Stripe keeps it: false once redeem_by has passed or max_redemptions are used up. */
function refreshCoupon(coupon: Coupon): Coupon {
  const expired = coupon.redeem_by !== null && coupon.redeem_by <= nowSeconds();
  const usedUp = coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions;
  coupon.valid = !expired && !usedUp;
  return coupon;
}

const COUPON_ID = /^[A-Za-z0-9_-]{1,200}$/;

function createCoupon(stripe: StripeState, params: Params): Coupon {
  const id = optionalString(params, "id") || stripeId("x", 8).slice(2);
  if (!COUPON_ID.test(id)) throw invalidParam("id", "Invalid id: a coupon id can only contain letters, digits, - and _ (at most 200).");
  if (stripe.coupons.has(id)) throw new StripeApiError(400, "Coupon already exists.", { code: "resource_already_exists", param: "id" });
  const percentOff = optionalDecimal(params, "percent_off") ?? null;
  const amountOff = optionalInteger(params, "amount_off") ?? null;
  if (percentOff === null && amountOff === null)
    throw new StripeApiError(400, "You must pass either `amount_off` or `percent_off`.", { code: "parameter_missing" });
  if (percentOff !== null && amountOff !== null)
    throw invalidParam("percent_off", "You can only pass one of `amount_off` and `percent_off`.", "parameter_invalid_decimal");
  if (percentOff !== null && (percentOff <= 0 || percentOff > 100 || Math.round(percentOff * 100) !== percentOff * 100)) {
    throw invalidParam(
      "percent_off",
      "Invalid percent_off: must be greater than 0 and at most 100, with at most two decimal places.",
      "parameter_invalid_decimal",
    );
  }
  const currency = optionalString(params, "currency") ?? null;
  if (amountOff !== null) {
    if (amountOff < 1) throw invalidParam("amount_off", "Invalid amount_off: must be at least 1.", "parameter_invalid_integer");
    if (!currency) throw missingParam("currency");
  }
  const duration = optionalString(params, "duration") ?? "once";
  if (duration !== "forever" && duration !== "once" && duration !== "repeating")
    throw invalidParam("duration", "Invalid duration: must be one of forever, once, or repeating");
  const months = optionalInteger(params, "duration_in_months") ?? null;
  if (duration === "repeating" && (months === null || months < 1)) throw missingParam("duration_in_months");
  if (duration !== "repeating" && months !== null)
    throw invalidParam("duration_in_months", "duration_in_months can only be set when duration is repeating.", "parameter_invalid_integer");
  const maxRedemptions = optionalInteger(params, "max_redemptions") ?? null;
  if (maxRedemptions !== null && maxRedemptions < 1)
    throw invalidParam("max_redemptions", "Invalid max_redemptions: must be at least 1.", "parameter_invalid_integer");
  const coupon: Coupon = {
    id,
    object: "coupon",
    amount_off: amountOff,
    created: nowSeconds(),
    currency: amountOff !== null ? currency : null,
    duration,
    duration_in_months: months,
    livemode: false,
    max_redemptions: maxRedemptions,
    metadata: applyMetadata({}, params),
    name: optionalString(params, "name") || null,
    percent_off: percentOff,
    redeem_by: optionalInteger(params, "redeem_by") ?? null,
    times_redeemed: 0,
    valid: true,
  } satisfies Stripe.Coupon;
  stripe.coupons.set(id, refreshCoupon(coupon));
  return coupon;
}

/**
 * discounts[] of a checkout session: at most one, a coupon that exists, is
 * still valid and, with amount_off, is in the session's currency. Answers the
 * session's discount object, or null.
 */
function sessionDiscount(stripe: StripeState, params: Params, currency: string, customer: string | null): Discount | null {
  const discounts = optionalArray(params, "discounts");
  if (!discounts || discounts.length === 0) return null;
  if (discounts.length > 1) throw invalidParam("discounts", "You may only specify one discount for a Checkout Session.", "parameter_invalid_array");
  if (params.allow_promotion_codes !== undefined)
    throw invalidParam("allow_promotion_codes", "You may only specify one of these parameters: allow_promotion_codes, discounts.", "parameter_invalid_boolean");
  const entry = discounts[0];
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) throw invalidParam("discounts[0]", "Invalid hash", "parameter_invalid_hash");
  if (entry.promotion_code !== undefined) throw invalidParam("discounts[0][promotion_code]", "The Stripe sandbox supports coupons only, not promotion codes.");
  const couponId = requiredString(entry, "coupon", "discounts[0][coupon]");
  const coupon = refreshCoupon(
    stripe.coupons.get(couponId) ??
      raise(new StripeApiError(400, `No such coupon: '${couponId}'`, { code: "resource_missing", param: "discounts[0][coupon]" })),
  );
  if (!coupon.valid) throw invalidParam("discounts[0][coupon]", `This coupon is no longer valid: '${coupon.id}'.`, "coupon_expired");
  if (coupon.amount_off !== null && coupon.currency !== currency) {
    throw invalidParam("discounts[0][coupon]", `The coupon '${coupon.id}' is in ${coupon.currency}; this Checkout Session is in ${currency}.`);
  }
  return {
    id: stripeId("di"),
    object: "discount",
    checkout_session: null,
    customer,
    customer_account: null,
    end: null,
    invoice: null,
    invoice_item: null,
    promotion_code: null,
    source: { type: "coupon", coupon: structuredClone(coupon) },
    start: nowSeconds(),
    subscription: null,
    subscription_item: null,
  } satisfies Stripe.Discount;
}

function createPrice(stripe: StripeState, params: Params): Price {
  const currency = requiredString(params, "currency");
  const amount = optionalInteger(params, "unit_amount");
  if (amount === undefined) throw missingParam("unit_amount");
  let product = optionalString(params, "product");
  const productData = optionalObject(params, "product_data");
  if (!product && productData) {
    const name = requiredString(productData, "name", "product_data[name]");
    product = stripeId("prod", 14);
    const created = nowSeconds();
    stripe.products.set(product, {
      id: product,
      object: "product",
      active: true,
      created,
      description: null,
      images: [],
      livemode: false,
      marketing_features: [],
      metadata: {},
      name,
      package_dimensions: null,
      shippable: null,
      tax_details: null,
      type: "service",
      updated: created,
      url: null,
    } satisfies Stripe.Product);
  }
  if (!product) throw missingParam("product");
  if (!stripe.products.has(product)) throw noSuch("product", product, "product");
  const recurringParams = optionalObject(params, "recurring");
  let recurring: Price["recurring"] = null;
  if (recurringParams) {
    const interval = requiredString(recurringParams, "interval", "recurring[interval]");
    if (!["day", "week", "month", "year"].includes(interval))
      throw invalidParam("recurring[interval]", "Invalid recurring[interval]: must be one of day, week, month, or year");
    recurring = {
      interval: interval as "month",
      interval_count: optionalInteger(recurringParams, "interval_count", "recurring[interval_count]") ?? 1,
      meter: null,
      trial_period_days: null,
      usage_type: "licensed",
    };
  }
  const price: Price = {
    id: stripeId("price"),
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: nowSeconds(),
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: optionalString(params, "lookup_key") ?? null,
    metadata: applyMetadata({}, params),
    nickname: optionalString(params, "nickname") ?? null,
    product,
    recurring,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? "recurring" : "one_time",
    unit_amount: amount,
    unit_amount_decimal: String(amount),
  } satisfies SdkShape<Stripe.Price, "unit_amount_decimal">;
  stripe.prices.set(price.id, price);
  return price;
}

/** line_items / items of a request: [{price, quantity}] with Stripe's errors. */
function lineItemsOf(stripe: StripeState, params: Params, name: string) {
  const items = optionalArray(params, name);
  if (!items || items.length === 0) throw missingParam(name);
  return items.map((item, index) => {
    if (!item || typeof item !== "object" || Array.isArray(item)) throw invalidParam(`${name}[${index}]`, "Invalid hash", "parameter_invalid_hash");
    const priceId = requiredString(item, "price", `${name}[${index}][price]`);
    const price = priceOf(stripe, priceId, `${name}[${index}][price]`);
    if (!price.active) throw invalidParam(`${name}[${index}][price]`, `The price specified is inactive. This field only accepts active prices.`);
    const quantity = optionalInteger(item, "quantity", `${name}[${index}][quantity]`) ?? 1;
    if (quantity < 1) throw invalidParam(`${name}[${index}][quantity]`, "Quantity must be at least 1.", "parameter_invalid_integer");
    return { id: stripeId("li"), price, quantity };
  });
}

function validUrl(params: Params, name: string): string | null {
  const value = optionalString(params, name);
  if (value === undefined || value === "") return null;
  try {
    const url = new URL(value.replace("{CHECKOUT_SESSION_ID}", "x"));
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("protocol");
  } catch {
    throw invalidParam(name, "Not a valid URL", "url_invalid");
  }
  return value;
}

function createCheckoutSession(stripe: StripeState, params: Params, base: string): CheckoutSession {
  const mode = requiredString(params, "mode");
  if (mode === "setup") throw invalidParam("mode", "The Stripe sandbox supports checkout sessions in payment and subscription mode only.");
  if (mode !== "payment" && mode !== "subscription") throw invalidParam("mode", `Invalid mode: must be one of payment, setup, or subscription`);
  const successUrl = validUrl(params, "success_url");
  if (!successUrl) throw missingParam("success_url");
  const cancelUrl = validUrl(params, "cancel_url");
  const lineItems = lineItemsOf(stripe, params, "line_items");
  lineItems.forEach(({ price }, index) => {
    if (mode === "subscription" && !price.recurring) {
      throw invalidParam(`line_items[${index}][price]`, "You must specify at least one recurring price in `subscription` mode when using prices.");
    }
    if (mode === "payment" && price.recurring) {
      throw invalidParam(
        `line_items[${index}][price]`,
        "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
      );
    }
  });
  const customerId = optionalString(params, "customer");
  const customer = customerId ? customerOf(stripe, customerId, "customer") : null;
  const subscriptionData = optionalObject(params, "subscription_data");
  const paymentIntentData = optionalObject(params, "payment_intent_data");
  if (subscriptionData && mode !== "subscription") throw invalidParam("subscription_data", "You can not pass `subscription_data` in `payment` mode.");
  if (paymentIntentData && mode !== "payment") throw invalidParam("payment_intent_data", "You can not pass `payment_intent_data` in `subscription` mode.");
  const trialPeriodDays = subscriptionData ? (optionalInteger(subscriptionData, "trial_period_days", "subscription_data[trial_period_days]") ?? null) : null;
  if (trialPeriodDays !== null && (trialPeriodDays < 1 || trialPeriodDays > 730)) {
    throw invalidParam("subscription_data[trial_period_days]", "The trial period must be between 1 and 730 days.", "parameter_invalid_integer");
  }
  const clientReferenceId = optionalString(params, "client_reference_id") ?? null;
  if (clientReferenceId && clientReferenceId.length > 200) throw invalidParam("client_reference_id", "client_reference_id must be at most 200 characters.");

  const currency = lineItems[0].price.currency;
  const discount = sessionDiscount(stripe, params, currency, customer?.id ?? null);

  const id = stripeId("cs_test", 58);
  const created = nowSeconds();
  const subtotal = lineItems.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0);
  // During a trial nothing is due now; afterwards the discount applies to every invoice it lasts for.
  const amountDiscount = discount && !trialPeriodDays ? couponDiscount(discount.source.coupon, subtotal) : 0;
  if (discount) {
    discount.checkout_session = id;
    stripe.discounts.set(discount.id, discount);
  }
  const session: CheckoutSession = {
    id,
    object: "checkout.session",
    allowed_payment_method_types: null,
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: subtotal,
    amount_total: trialPeriodDays ? 0 : subtotal - amountDiscount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: cancelUrl,
    client_reference_id: clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: customer?.id ?? null,
    customer_account: null,
    customer_creation: customer ? null : "if_required",
    customer_details: customer
      ? {
          address: null,
          business_name: null,
          email: customer.email,
          individual_name: null,
          name: customer.name,
          phone: null,
          tax_exempt: "none",
          tax_ids: null,
        }
      : null,
    customer_email: optionalString(params, "customer_email") ?? null,
    discounts: discount ? [{ coupon: discount.source.coupon.id, promotion_code: null }] : [],
    expires_at: optionalInteger(params, "expires_at") ?? created + 86_400,
    integration_identifier: null,
    invoice: null,
    invoice_creation:
      mode === "payment"
        ? {
            enabled: false,
            invoice_data: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: null, metadata: {}, rendering_options: null },
          }
        : null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: applyMetadata({}, params),
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: mode === "subscription" ? "always" : null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_status: "unpaid",
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: successUrl,
    total_details: { amount_discount: amountDiscount, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: `${base}/checkout/pay/${id}`,
    wallet_options: null,
  } satisfies Stripe.Checkout.Session;
  stripe.sessions.set(id, session);
  stripe.sessionDetails.set(id, {
    lineItems,
    trialPeriodDays,
    subscriptionMetadata: subscriptionData ? applyMetadata({}, subscriptionData) : {},
    paymentIntentMetadata: paymentIntentData ? applyMetadata({}, paymentIntentData) : {},
    discount,
  });
  return session;
}

/** A checkout session's line items, as GET .../line_items answers them. */
export function sessionLineItems(stripe: StripeState, session: CheckoutSession): StripeObject[] {
  const details = stripe.sessionDetails.get(session.id);
  const discount = details?.discount ?? null;
  return (details?.lineItems ?? []).map((item) => {
    const amount = item.price.unit_amount * item.quantity;
    const product = stripe.products.get(item.price.product);
    const amountDiscount = discount && !details?.trialPeriodDays ? couponDiscount(discount.source.coupon, amount) : 0;
    return {
      id: item.id,
      object: "item",
      adjustable_quantity: null,
      amount_discount: amountDiscount,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount - amountDiscount,
      currency: item.price.currency,
      description: String(product?.name ?? item.price.nickname ?? item.price.id),
      discounts: discount && amountDiscount > 0 ? [{ amount: amountDiscount, discount: structuredClone(discount) }] : [],
      metadata: {},
      price: item.price,
      quantity: item.quantity,
      taxes: [],
    } satisfies SdkShape<Stripe.LineItem, "price" | "discounts">;
  });
}

/** The parameters of POST /v1/subscriptions/:id. */
function subscriptionChange(stripe: StripeState, metadata: Record<string, string>, params: Params): SubscriptionChange {
  const change: SubscriptionChange = {};
  const items = optionalArray(params, "items");
  if (items) {
    change.items = items.map((item, index) => {
      if (!item || typeof item !== "object" || Array.isArray(item)) throw invalidParam(`items[${index}]`, "Invalid hash", "parameter_invalid_hash");
      const priceId = optionalString(item, "price", `items[${index}][price]`);
      return {
        id: optionalString(item, "id", `items[${index}][id]`),
        price: priceId ? priceOf(stripe, priceId, `items[${index}][price]`) : undefined,
        quantity: optionalInteger(item, "quantity", `items[${index}][quantity]`),
      };
    });
  }
  const behavior = optionalString(params, "proration_behavior");
  if (behavior !== undefined) {
    if (behavior !== "create_prorations" && behavior !== "none" && behavior !== "always_invoice") {
      throw invalidParam("proration_behavior", "Invalid proration_behavior: must be one of always_invoice, create_prorations, or none");
    }
    change.prorationBehavior = behavior;
  }
  change.cancelAtPeriodEnd = optionalBoolean(params, "cancel_at_period_end");
  const details = optionalObject(params, "cancellation_details");
  if (details) {
    change.cancellationDetails = {
      comment: optionalString(details, "comment", "cancellation_details[comment]"),
      feedback: optionalString(details, "feedback", "cancellation_details[feedback]"),
    };
  }
  if (params.metadata !== undefined) change.metadata = applyMetadata(metadata, params);
  return change;
}
