import { createHmac } from "node:crypto";
import { Hono, type Context } from "hono";
import { escapeHtml, standalonePage } from "../../html.ts";
import { SANDBOX_SHOPIFY_CLIENT_SECRET } from "../../provider-vars.ts";
import { providerState, type SandboxState } from "../../state.ts";
import { createOutbox, outboxControl, outgoingEvents, raise, type Outbox } from "../../webhook-outbox.ts";
import { admin, answer, prepare } from "./graphql.ts";
import { createPartnerState, partnerRoutes, recordTransaction, refundableCents, type PartnerState } from "./partners.ts";
import {
  bucketOf,
  costExtension,
  createStoreState,
  requestedCost,
  STORE_ROOT_FIELDS,
  signQuery,
  storeQuery,
  storeRoutes,
  tokenRevoked,
  type ShopifyStoreState,
} from "./store.ts";

/**
 * Stand-in for Shopify's Admin GraphQL API billing, mounted at /shopify
 * (docs/decisions/014-paypal-shopify.md), and for the stores themselves: the app
 * install flow and their products (./store.ts, docs/decisions/029-shopify-store-connection.md).
 * Every *.myshopify.com store exists; an access token is accepted when it looks
 * like an offline token (shpat_...) and was not revoked by an uninstall. Every
 * GraphQL answer carries `extensions.cost` from the store's cost bucket.
 *
 * - `POST /:shop/admin/api/:version/graphql.json` {query, variables}:
 *   `appSubscriptionCreate` (PENDING, with a confirmationUrl), `currentAppInstallation
 *   { activeSubscriptions }`, `node(id:)` (one AppSubscription of the store, any status) and
 *   `appSubscriptionCancel`. Each document is validated against the part of Shopify's published
 *   Admin schema the stand-in answers (./graphql.ts, decision 098), and answered with the fields it
 *   selects; bad input comes back as userErrors, a document Shopify would refuse (an unknown field, a
 *   missing argument, a variable of the wrong type) as GraphQL errors, a bad token as Shopify's 401 body.
 * - `GET|POST /:shop/admin/charges/:app/:id/RecurringApplicationCharge/confirm_recurring_application_charge`:
 *   the confirmation page; approving makes the charge ACTIVE, declining DECLINED, and both
 *   redirect to returnUrl with charge_id, as Shopify does.
 *
 * - `POST /partners/:organization/api/:version/graphql.json`: the Partner API's transactions of our app
 *   (./partners.ts): a billed interval is an AppSubscriptionSale, a refund an AppSaleAdjustment.
 *
 * Webhooks: every status change of a charge (approved, declined, cancelled) and each renewal raises
 * an APP_SUBSCRIPTIONS_UPDATE webhook (topic app_subscriptions/update), POSTed to SHOPIFY_WEBHOOK_URL
 * with Shopify's headers, X-Shopify-Hmac-Sha256 being the base64 HMAC-SHA256 of the body with the
 * app's client secret (SHOPIFY_CLIENT_SECRET). Inspection and controls: see shopifyControl.
 */

const APP_ID = "7654321";
const SHOP = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export interface AppSubscriptionObject {
  id: string;
  name: string;
  status: "PENDING" | "ACTIVE" | "DECLINED" | "EXPIRED" | "FROZEN" | "CANCELLED";
  test: boolean;
  trialDays: number;
  createdAt: string;
  currentPeriodEnd: string | null;
  returnUrl: string;
  lineItems: {
    id: string;
    plan: {
      pricingDetails: {
        __typename: "AppRecurringPricing";
        interval: "EVERY_30_DAYS" | "ANNUAL";
        price: { amount: string; currencyCode: string };
      };
    };
  }[];
}

interface ShopifyState {
  nextId: number;
  /** By shop domain, then by gid. */
  shops: Map<string, Map<string, AppSubscriptionObject & { shop: string }>>;
  /** Webhook events and their deliveries (to SHOPIFY_WEBHOOK_URL). */
  outbox: Outbox;
  /** The app's client secret: signs the webhooks and the install flow's redirects. */
  clientSecret: string;
  /** The stores' side: install codes, issued tokens, cost buckets (./store.ts). */
  store: ShopifyStoreState;
  /** The Partner organization's transactions of our app: billed intervals and refunds (./partners.ts). */
  partner: PartnerState;
}

export function shopifyState(state: SandboxState): ShopifyState {
  return providerState(state, "shopify", () => ({
    // Unique across resets (a reset must not hand out a charge id the app already bound to someone).
    nextId: 29_000_000_000_000 + (Date.now() % 1_000_000_000) * 1_000,
    shops: new Map(),
    outbox: createOutbox(process.env.SHOPIFY_WEBHOOK_URL || null),
    clientSecret: process.env.SHOPIFY_CLIENT_SECRET || SANDBOX_SHOPIFY_CLIENT_SECRET,
    store: createStoreState(),
    partner: createPartnerState(),
  }));
}

/** Shopify's X-Shopify-Hmac-Sha256: base64 HMAC-SHA256 of the raw body with the app's client secret. */
export function shopifyHmac(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

const shopGid = (shop: string) => `gid://shopify/Shop/${[...shop].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 1_000_000_007, 7)}`;

/** Raises APP_SUBSCRIPTIONS_UPDATE for a charge as it is now, and queues its delivery. */
function emitUpdate(state: SandboxState, subscription: AppSubscriptionObject & { shop: string }) {
  const shopify = shopifyState(state);
  const now = new Date().toISOString();
  const body = JSON.stringify({
    app_subscription: {
      admin_graphql_api_id: subscription.id,
      name: subscription.name,
      status: subscription.status,
      admin_graphql_api_shop_id: shopGid(subscription.shop),
      created_at: subscription.createdAt,
      updated_at: now,
      currency: subscription.lineItems[0]?.plan.pricingDetails.price.currencyCode ?? "USD",
      capped_amount: null,
    },
  });
  const id = crypto.randomUUID();
  raise(
    shopify.outbox,
    {
      id,
      type: "app_subscriptions/update",
      subject: subscription.shop,
      object: subscription.id,
      created: now,
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": "Shopify-Captain-Hook",
        "x-shopify-topic": "app_subscriptions/update",
        "x-shopify-hmac-sha256": shopifyHmac(body, shopify.clientSecret),
        "x-shopify-shop-domain": subscription.shop,
        "x-shopify-api-version": "2025-01",
        "x-shopify-webhook-id": id,
        "x-shopify-event-id": crypto.randomUUID(),
        "x-shopify-triggered-at": now,
      },
    },
    () => state.providers.get("shopify") === shopify,
  );
}

function subscriptionsOf(shopify: ShopifyState, shop: string) {
  let map = shopify.shops.get(shop);
  if (!map) {
    map = new Map();
    shopify.shops.set(shop, map);
  }
  return map;
}

const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
const DAY = 86_400_000;

type UserError = { field: string[] | null; message: string };

function publicView(subscription: AppSubscriptionObject) {
  const { returnUrl: _returnUrl, ...rest } = subscription as AppSubscriptionObject & { shop?: string };
  delete (rest as { shop?: string }).shop;
  return rest;
}

function createSubscription(c: Context, state: SandboxState, shop: string, variables: Record<string, unknown>) {
  // `variables` are the field's coerced arguments (./graphql.ts): literals and variables alike.
  const userErrors: UserError[] = [];
  const name = variables.name;
  const returnUrl = variables.returnUrl;
  const lineItems = variables.lineItems;
  const trialDays = variables.trialDays ?? 0;
  if (typeof name !== "string" || !name.trim()) userErrors.push({ field: ["name"], message: "Name can't be blank" });
  if (typeof returnUrl !== "string" || !/^https?:\/\//.test(returnUrl)) userErrors.push({ field: ["returnUrl"], message: "Return url is invalid" });
  if (!Number.isInteger(trialDays) || (trialDays as number) < 0 || (trialDays as number) > 1000)
    userErrors.push({
      field: ["trialDays"],
      message: "Trial days must be between 0 and 1000",
    });
  const item =
    Array.isArray(lineItems) && lineItems.length === 1
      ? (lineItems[0] as {
          plan?: {
            appRecurringPricingDetails?: {
              price?: { amount?: unknown; currencyCode?: unknown };
              interval?: unknown;
            };
          };
        })
      : null;
  const details = item?.plan?.appRecurringPricingDetails;
  const amount = Number(details?.price?.amount);
  if (!details)
    userErrors.push({
      field: ["lineItems"],
      message: "A subscription needs exactly one recurring pricing line item",
    });
  else {
    if (!Number.isFinite(amount) || amount <= 0)
      userErrors.push({
        field: ["lineItems", "0", "plan", "appRecurringPricingDetails", "price", "amount"],
        message: "Price must be greater than 0",
      });
    if (details.price?.currencyCode !== "USD")
      userErrors.push({
        field: ["lineItems", "0", "plan", "appRecurringPricingDetails", "price", "currencyCode"],
        message: "Currency code must be USD",
      });
    if (details.interval !== "EVERY_30_DAYS" && details.interval !== "ANNUAL")
      userErrors.push({
        field: ["lineItems", "0", "plan", "appRecurringPricingDetails", "interval"],
        message: "Interval is not included in the list",
      });
  }
  if (userErrors.length)
    return {
      appSubscriptionCreate: {
        userErrors,
        appSubscription: null,
        confirmationUrl: null,
      },
    };
  const shopify = shopifyState(state);
  const number = shopify.nextId++;
  const subscription: AppSubscriptionObject & { shop: string } = {
    id: `gid://shopify/AppSubscription/${number}`,
    name: (name as string).trim(),
    status: "PENDING",
    test: variables.test === true,
    trialDays: trialDays as number,
    createdAt: isoNow(),
    currentPeriodEnd: null,
    returnUrl: returnUrl as string,
    shop,
    lineItems: [
      {
        id: `gid://shopify/AppSubscriptionLineItem/${number}?v=1&index=0`,
        plan: {
          pricingDetails: {
            __typename: "AppRecurringPricing",
            interval: details!.interval as "EVERY_30_DAYS" | "ANNUAL",
            price: { amount: amount.toFixed(2), currencyCode: "USD" },
          },
        },
      },
    ],
  };
  subscriptionsOf(shopify, shop).set(subscription.id, subscription);
  const origin = new URL(c.req.url).origin;
  const confirmationUrl = `${origin}/shopify/${shop}/admin/charges/${APP_ID}/${number}/RecurringApplicationCharge/confirm_recurring_application_charge?signature=${crypto
    .randomUUID()
    .replaceAll("-", "")}`;
  return {
    appSubscriptionCreate: {
      userErrors: [],
      appSubscription: subscription,
      confirmationUrl,
    },
  };
}

function cancelSubscription(state: SandboxState, shop: string, variables: Record<string, unknown>) {
  const subscription = typeof variables.id === "string" ? subscriptionsOf(shopifyState(state), shop).get(variables.id) : undefined;
  if (!subscription)
    return {
      appSubscriptionCancel: {
        userErrors: [
          {
            field: ["id"],
            message: "Couldn't find RecurringApplicationCharge",
          },
        ],
        appSubscription: null,
      },
    };
  if (subscription.status !== "ACTIVE" && subscription.status !== "FROZEN") {
    return {
      appSubscriptionCancel: {
        userErrors: [
          {
            field: ["id"],
            message: `Cannot cancel a subscription with status ${subscription.status.toLowerCase()}`,
          },
        ],
        appSubscription: null,
      },
    };
  }
  subscription.status = "CANCELLED";
  emitUpdate(state, subscription);
  return {
    appSubscriptionCancel: {
      userErrors: [],
      appSubscription: subscription,
    },
  };
}

export function shopifyProvider(state: SandboxState) {
  const app = new Hono();

  app.post("/:shop/admin/api/:version/graphql.json", async (c) => {
    const shop = c.req.param("shop");
    if (!SHOP.test(shop)) return c.text("Not Found", 404);
    const token = c.req.header("x-shopify-access-token") ?? "";
    if (!/^shpat_[A-Za-z0-9]{8,}$/.test(token) || tokenRevoked(shopifyState(state).store, token))
      return c.json(
        {
          errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
        },
        401,
      );
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = await c.req.json();
    } catch {
      return c.json({ errors: [{ message: "Invalid JSON in request body" }] }, 400);
    }
    if (typeof body.query !== "string" || !body.query.trim()) return c.json({ errors: { query: "Required parameter missing or invalid" } }, 400);
    const variables = body.variables && typeof body.variables === "object" ? (body.variables as Record<string, unknown>) : {};
    const query = body.query;
    // Shopify refuses a document that its schema does not allow before it runs or charges anything.
    const checked = prepare(admin(), query, variables, typeof body.operationName === "string" ? body.operationName : null);
    if ("errors" in checked) return c.json({ errors: checked.errors });
    const { roots } = checked.prepared;
    const forStore = roots.some((root) => STORE_ROOT_FIELDS.has(root.name));
    // Every query is paid for from the store's cost bucket; one it cannot pay for yet is THROTTLED.
    const bucket = bucketOf(shopifyState(state).store, shop);
    const requested = forStore ? requestedCost(roots, query) : 10;
    if (requested > bucket.currentlyAvailable)
      return c.json({
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/limits#rate-limits" } }],
        extensions: costExtension(bucket, requested, null),
      });
    const root: Record<string, unknown> = {};
    let actual = forStore ? 0 : 10;
    for (const field of roots) {
      const args = field.args;
      if (field.name === "appSubscriptionCreate") Object.assign(root, createSubscription(c, state, shop, args));
      else if (field.name === "appSubscriptionCancel") Object.assign(root, cancelSubscription(state, shop, args));
      else if (field.name === "node") {
        const found = typeof args.id === "string" ? subscriptionsOf(shopifyState(state), shop).get(args.id) : undefined;
        root.node = found ? { __typename: "AppSubscription", ...found } : null;
      } else if (field.name === "currentAppInstallation") {
        const active = [...subscriptionsOf(shopifyState(state), shop).values()].filter((subscription) => subscription.status === "ACTIVE");
        root.currentAppInstallation = { activeSubscriptions: active };
      }
    }
    if (forStore) {
      const store = storeQuery(
        shop,
        new URL(c.req.url).origin,
        roots.filter((field) => STORE_ROOT_FIELDS.has(field.name)),
        query,
      );
      bucket.currentlyAvailable -= store.actual;
      if (store.errors) return c.json({ data: store.data, errors: store.errors, extensions: costExtension(bucket, requested, store.actual) });
      Object.assign(root, store.data);
      actual = store.actual;
    } else bucket.currentlyAvailable -= actual;
    const result = answer(checked.prepared, root);
    return c.json({ ...result, extensions: costExtension(bucket, requested, actual) });
  });

  partnerRoutes(app, () => shopifyState(state).partner);

  storeRoutes(
    app,
    () => shopifyState(state).store,
    () => shopifyState(state).clientSecret,
    SHOP,
  );

  const charge = (c: Context) => subscriptionsOf(shopifyState(state), c.req.param("shop") ?? "").get(`gid://shopify/AppSubscription/${c.req.param("id")}`);
  const confirmPath = "/:shop/admin/charges/:app/:id/RecurringApplicationCharge/confirm_recurring_application_charge";

  app.get(confirmPath, (c) => {
    const subscription = charge(c);
    if (!subscription) return c.html(page("This charge does not exist.", null), 404);
    if (subscription.status !== "PENDING") return c.redirect(back(subscription), 303);
    return c.html(page(null, subscription));
  });

  app.post(confirmPath, async (c) => {
    const subscription = charge(c);
    if (!subscription) return c.html(page("This charge does not exist.", null), 404);
    if (subscription.status === "PENDING") {
      const form = await c.req.parseBody();
      if (form.action === "decline") subscription.status = "DECLINED";
      else {
        subscription.status = "ACTIVE";
        const pricing = subscription.lineItems[0].plan.pricingDetails;
        subscription.currentPeriodEnd = new Date(Date.now() + (subscription.trialDays + (pricing.interval === "ANNUAL" ? 365 : 30)) * DAY)
          .toISOString()
          .replace(/\.\d{3}Z$/, "Z");
        // Without a free trial Shopify bills the first interval now (after one, when the trial ends).
        if (subscription.trialDays === 0) recordSale(state, subscription);
      }
      emitUpdate(state, subscription);
    }
    return c.redirect(back(subscription), 303);
  });

  return app;
}

function back(subscription: AppSubscriptionObject): string {
  const url = new URL(subscription.returnUrl);
  url.searchParams.set("charge_id", subscription.id.split("/").pop()!);
  return url.toString();
}

const CSS = `
  body { font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; background: #f1f1f1; color: #303030; margin: 0; }
  main { max-width: 460px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 18px; } .price { font-size: 24px; font-weight: 600; } .note { color: #616161; font-size: 14px; }
  button { margin-top: 16px; margin-right: 8px; padding: 10px 16px; border-radius: 8px; border: 0; background: #303030; color: #fff; font-size: 15px; cursor: pointer; }
  button.secondary { background: #fff; color: #303030; border: 1px solid #8a8a8a; }
`;

function page(error: string | null, subscription: (AppSubscriptionObject & { shop: string }) | null): string {
  if (!subscription) return standalonePage("Shopify", CSS, `<h1>Approve subscription</h1><p class="note">${escapeHtml(error ?? "")}</p>`);
  const pricing = subscription.lineItems[0].plan.pricingDetails;
  const per = pricing.interval === "ANNUAL" ? "year" : "30 days";
  const trial = subscription.trialDays > 0 ? `<p class="note">${subscription.trialDays}-day free trial</p>` : "";
  return standalonePage(
    "Shopify",
    CSS,
    `<h1>Approve subscription</h1><p class="note">${escapeHtml(subscription.shop)}${subscription.test ? " (test charge)" : ""}</p>
     <p>${escapeHtml(subscription.name)}</p><p class="price">$${escapeHtml(pricing.price.amount)} USD every ${per}</p>${trial}
     <form method="post"><button type="submit" name="action" value="approve">Approve</button><button class="secondary" type="submit" name="action" value="decline">Cancel</button></form>`,
  );
}

/**
 * Inspection and controls of the Shopify stand-in, mounted at /__sandbox/shopify:
 *
 * - `GET /subscriptions?shop=`: the charges;
 * - `GET /events?subject={shop}&object={gid}&signed=1`, `POST /events/:id/deliver {times?}`,
 *   `GET|POST /webhook {url?, retryDelaysMs?, hold?, clientSecret?}`, `POST /webhook/release
 *   {order?, times?}`: webhooks and their delivery (sandbox/webhook-outbox.ts); the URL is
 *   SHOPIFY_WEBHOOK_URL of the sandbox's env;
 * - `POST /subscriptions/:id/renew` (id: the charge's number, as in charge_id): the billing period ends now and the
 *   next one starts (currentPeriodEnd one interval from now), with its APP_SUBSCRIPTIONS_UPDATE;
 * - `POST /subscriptions/:id/refund {amount?: "9.99"}`: Shopify support refunds the merchant (all of the current
 *   interval, or part): an AppSaleAdjustment of the Partner API (./partners.ts), no webhook; `GET
 *   /transactions?shop=`: the Partner organization's transactions (decision 077);
 * - `GET /installs?shop=`: the tokens the install flow issued (and when they were revoked);
 * - `POST /throttle {shop, currentlyAvailable?, maximumAvailable?, restoreRate?}`: the store's cost bucket;
 * - `GET /launch?shop=&appUrl=`: an install begun on Shopify's side: a redirect to the app's URL
 *   with shop, host, timestamp and Shopify's hmac.
 * Faults (401, 429, 5xx, slow) and recorded requests are the sandbox's own (/__sandbox/faults, /requests).
 */
export function shopifyControl(state: SandboxState) {
  const control = new Hono();
  const all = () => [...shopifyState(state).shops.values()].flatMap((map) => [...map.values()]);
  control.get("/subscriptions", (c) => {
    const shop = c.req.query("shop");
    return c.json(shop ? all().filter((subscription) => subscription.shop === shop) : all());
  });

  outboxControl(control, "shopify", () => shopifyState(state).outbox, outgoingEvents, {
    apply: (input) => {
      if (input.clientSecret === undefined) return null;
      if (typeof input.clientSecret !== "string" || input.clientSecret.length < 8) return "clientSecret must be at least 8 characters";
      shopifyState(state).clientSecret = input.clientSecret;
      return null;
    },
  });

  // The store side (./store.ts): tokens the install flow issued, a store's cost bucket, and an
  // install that begins on Shopify's side (the App Store opening the app's URL, signed).
  control.get("/installs", (c) => {
    const shop = c.req.query("shop");
    const tokens = [...shopifyState(state).store.tokens.entries()].map(([token, install]) => ({ token, ...install }));
    return c.json(shop ? tokens.filter((install) => install.shop === shop) : tokens);
  });
  control.post("/throttle", async (c) => {
    const input = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    if (typeof input.shop !== "string" || !SHOP.test(input.shop)) return c.json({ error: "shop must be a myshopify.com domain" }, 400);
    const bucket = bucketOf(shopifyState(state).store, input.shop);
    for (const key of ["maximumAvailable", "currentlyAvailable", "restoreRate"] as const) {
      const value = input[key];
      if (value === undefined) continue;
      if (typeof value !== "number" || value < 0) return c.json({ error: `${key} must be a number of 0 or more` }, 400);
      bucket[key] = value;
    }
    return c.json(bucket);
  });
  control.get("/launch", (c) => {
    const shop = c.req.query("shop") ?? "";
    const appUrl = c.req.query("appUrl") ?? "";
    if (!SHOP.test(shop)) return c.json({ error: "shop must be a myshopify.com domain" }, 400);
    if (!/^https?:\/\//.test(appUrl)) return c.json({ error: "appUrl must be the app's URL" }, 400);
    const params: Record<string, string> = {
      host: Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, "")}`).toString("base64url"),
      shop,
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    params.hmac = signQuery(params, shopifyState(state).clientSecret);
    const target = new URL(appUrl);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    return c.redirect(target.toString(), 302);
  });

  control.post("/subscriptions/:id/renew", (c) => {
    const id = c.req.param("id");
    const gid = id.startsWith("gid://") ? id : `gid://shopify/AppSubscription/${id}`;
    const subscription = all().find((candidate) => candidate.id === gid);
    if (!subscription) return c.json({ error: `No such subscription: ${id}` }, 404);
    if (subscription.status !== "ACTIVE") return c.json({ error: `Only an ACTIVE subscription renews; this one is ${subscription.status}` }, 409);
    const interval = subscription.lineItems[0].plan.pricingDetails.interval;
    subscription.currentPeriodEnd = new Date(Date.now() + (interval === "ANNUAL" ? 365 : 30) * DAY).toISOString().replace(/\.\d{3}Z$/, "Z");
    recordSale(state, subscription);
    emitUpdate(state, subscription);
    return c.json(publicView(subscription));
  });

  // Shopify support refunds the merchant for the charge's current interval (all of it, or `amount`): an
  // AppSaleAdjustment of the Partner API, and no webhook (decision 077).
  control.post("/subscriptions/:id/refund", async (c) => {
    const id = c.req.param("id");
    const gid = id.startsWith("gid://") ? id : `gid://shopify/AppSubscription/${id}`;
    const subscription = all().find((candidate) => candidate.id === gid);
    if (!subscription) return c.json({ error: `No such subscription: ${id}` }, 404);
    const input = (await c.req.json().catch(() => ({}))) as { amount?: unknown } | null;
    const pricing = subscription.lineItems[0].plan.pricingDetails;
    const intervalStart = subscription.currentPeriodEnd
      ? new Date(Date.parse(subscription.currentPeriodEnd) - (pricing.interval === "ANNUAL" ? 365 : 30) * DAY).toISOString().replace(/\.\d{3}Z$/, "Z")
      : null;
    if (!intervalStart || Date.parse(intervalStart) > Date.now())
      return c.json({ error: "Nothing was billed yet: the charge is pending or in its free trial" }, 409);
    const left = refundableCents(shopifyState(state).partner, gid, intervalStart);
    if (input?.amount !== undefined && (typeof input.amount !== "string" || !/^\d{1,7}(\.\d{1,2})?$/.test(input.amount)))
      return c.json({ error: 'amount must be text such as "9.99"' }, 400);
    const amount = input?.amount === undefined ? left : Math.round(Number(input.amount) * 100);
    if (amount < 1 || amount > left) return c.json({ error: `The refund can be 1 to ${left} cents of this interval` }, 409);
    return c.json(
      recordTransaction(shopifyState(state).partner, {
        type: "AppSaleAdjustment",
        chargeId: gid,
        shop: subscription.shop,
        grossCents: -amount,
        currencyCode: pricing.price.currencyCode,
      }),
    );
  });
  control.get("/transactions", (c) => {
    const shop = c.req.query("shop");
    return c.json(shopifyState(state).partner.transactions.filter((transaction) => !shop || transaction.shop.myshopifyDomain === shop));
  });
  return control;
}

/** The interval Shopify billed now: an AppSubscriptionSale of the Partner API. */
function recordSale(state: SandboxState, subscription: AppSubscriptionObject & { shop: string }) {
  const pricing = subscription.lineItems[0].plan.pricingDetails;
  recordTransaction(shopifyState(state).partner, {
    type: "AppSubscriptionSale",
    chargeId: subscription.id,
    shop: subscription.shop,
    grossCents: Math.round(Number(pricing.price.amount) * 100),
    currencyCode: pricing.price.currencyCode,
    billingInterval: pricing.interval,
  });
}
