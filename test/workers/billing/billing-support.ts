import { and, eq, like } from "drizzle-orm";
import { expect } from "vitest";
import type { CreditsSummary } from "../../../contracts/billing/credits.ts";
import { database } from "../../../workers/db/client.ts";
import { affiliateCommissions, affiliateCustomers, billingCustomers, creditLedger, subscriptions, users } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { stripeClient } from "../../../workers/integrations/stripe.ts";
import { refreshUserPlan } from "../../../workers/services/billing/billing.ts";
import { consumeCredits } from "../../../workers/services/billing/credits.ts";
import { saveShopConnection } from "../../../workers/services/shops/shops.ts";
import { bearer, json, signUpUser, signUpVerifiedUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Helpers of the billing tests. The sandbox is shared with other test files: nothing here resets
// it; every test works with its own users, whose Stripe customers keep their objects apart.

export const db = database(testEnv.DB);

export const STRIPE_WEBHOOK = "/api/stripe/webhook";
export const PAYPAL_WEBHOOK = "/api/paypal/webhook";
export const PAYPAL_START = "/api/subscriptions/startPayPalSubscription";
export const PAYPAL_ACTIVATE = "/api/subscriptions/activateUserSubscription";
export const SHOPIFY_WEBHOOK = "/api/shopify/webhook";
export const SHOPIFY_START = "/api/shopifySubscriptions/startSubscription";
export const SHOPIFY_ACTIVATE = "/api/shopifySubscriptions/activateShopifySubscription";
/** The Admin API token the Shopify tests connect their stores with. */
export const SHOPIFY_TOKEN = "shpat_workers0123456789";

export function post(path: string, user: TestUser | null, body: unknown) {
  return app(path, json(body, user ? bearer(user.tokens) : {}));
}

/**
 * Connects a Shopify store to the user as the install flow does (decision 029), with the token
 * the billing tests use (the stand-in accepts any shpat_ token). Answers our id of the store.
 */
export async function connectShopifyStore(user: TestUser, shop: string, accessToken = SHOPIFY_TOKEN): Promise<string> {
  const profile = await saveShopConnection(testEnv, user.userId, {
    shopType: "Shopify",
    shopId: shop,
    shopName: shop,
    shopUrl: `https://${shop}`,
    credentials: { accessToken, scope: "read_products" },
    scopes: "read_products",
  });
  return profile.id;
}

/** Connects the store, then starts a Shopify subscription billed to it (as /pricing does). */
export async function startShopify(user: TestUser, body: { planId: string; shop: string; returnUrl?: string }, headers: Record<string, string> = {}) {
  const { shop, ...rest } = body;
  const shopID = await connectShopifyStore(user, shop);
  return app(SHOPIFY_START, json({ ...rest, shopID }, { ...bearer(user.tokens), ...headers }));
}

export async function creditsOf(user: TestUser): Promise<CreditsSummary> {
  const response = await app("/api/user/credits", { headers: bearer(user.tokens) });
  expect(response.status).toBe(200);
  return read(response);
}

export async function credentialsOf(user: TestUser) {
  return (await read(await app("/api/user", { headers: bearer(user.tokens) }))).credentials as {
    planId: string;
    planStatus: string;
    cancelSubscriptionDate: string | null;
    usedFreeTrial: boolean;
    usedPinCredits: number;
  };
}

/** Opens the hosted checkout page at `url` and presses Pay (or the declined-card button); answers the redirect. */
export async function payHostedCheckout(url: string, card: "success" | "declined" = "success") {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no payment form on ${url}`);
  const email = /name="email" type="email" value="([^"]*)"/.exec(html)?.[1] ?? "";
  const response = await fetch(new URL(action, url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, card }).toString(),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location") };
}

/** Starts a plan's checkout and pays it on the hosted page; answers the checkout session id from the success URL. */
export async function checkoutAndPay(user: TestUser, planId: string): Promise<string> {
  const start = await post("/api/stripeSubscriptions/startStripeSubscription", user, { planId });
  expect(start.status).toBe(200);
  const { redirectUrl } = await read(start);
  const paid = await payHostedCheckout(redirectUrl);
  expect(paid.status).toBe(303);
  const sessionId = new URL(paid.location!).searchParams.get("session_id");
  if (!sessionId) throw new Error(`no session_id in ${paid.location}`);
  return sessionId;
}

/** Subscribes through checkout and activation, as the browser does; answers the activation's body. */
export async function subscribe(user: TestUser, planId: string) {
  const sessionId = await checkoutAndPay(user, planId);
  const activated = await post("/api/stripeSubscriptions/activateStripeSubscription", user, { session_id: sessionId, affiliateID: null });
  expect(activated.status).toBe(200);
  return { sessionId, ...(await read(activated)) } as {
    sessionId: string;
    profileUpdates: { planId: string; planStatus: string; cancelSubscriptionDate: string | null; usedFreeTrial: boolean };
    paymentDetails: { subscriptionID: string | null; planId: string; status: string; periodStart: string; periodEnd: string | null; amount: number };
  };
}

/**
 * Waits until the clock is in a later whole second than `at` (ms or ISO). Stripe keeps whole seconds: a period
 * started in the same second as `at` would not start after it, and a redeemed month taken in the same second as a
 * payment loses to it (currentRecord).
 */
export async function afterTheSecondOf(at: number | string) {
  const second = Math.floor((typeof at === "number" ? at : Date.parse(at)) / 1000);
  while (Math.floor(Date.now() / 1000) <= second) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Starts the lifetime checkout, pays it, and answers the success URL's session id and planId. */
export async function payLifetime(user: TestUser) {
  const start = await post("/api/stripeSubscriptions/startStripeOnceOffPayment", user, {
    stripePriceID: "price_lifetime",
    planId: "lifetime",
    returnUrl: "/lifetime",
  });
  expect(start.status).toBe(200);
  const paid = await payHostedCheckout((await read(start)).redirectUrl);
  expect(paid.status).toBe(303);
  const returned = new URL(paid.location!);
  expect(returned.searchParams.get("paymentMessage")).toBe("success");
  return { sessionId: returned.searchParams.get("session_id")!, planId: returned.searchParams.get("planId")! };
}

/** Buys Lifetime through Stripe's once-off checkout and activates it, as /lifetime does coming back. */
export async function buyLifetime(user: TestUser) {
  const { sessionId, planId } = await payLifetime(user);
  const activated = await post("/api/subscriptions/activateLifetimePurchase", user, { session_id: sessionId, planId });
  expect(activated.status).toBe(200);
  return { sessionId, ...(await read(activated)) };
}

/** An admin's batch of redeem codes for a plan (months of it, or for good). */
export async function redeemCodesFor(planId: string, months: number | null, count = 1): Promise<string[]> {
  const admin = await signUpUser();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
  const created = await post("/api/admin/redeemCodes", admin, { planId, count, ...(months === null ? {} : { months }) });
  expect(created.status).toBe(201);
  return (await read(created)).codes;
}

/** Redeems a code for the user, as /redeem-code does. */
export async function redeem(user: TestUser, code: string) {
  const response = await post("/api/subscriptions/redeemPurchaseCode", user, { redemptionCode: code });
  expect(response.status).toBe(200);
  return read(response);
}

export async function stripeCustomerOf(user: TestUser): Promise<string> {
  const row = await db.query.billingCustomers.findFirst({ where: and(eq(billingCustomers.userId, user.userId), eq(billingCustomers.provider, "stripe")) });
  if (!row) throw new Error(`no Stripe customer for ${user.email}`);
  return row.customerRef;
}

export interface SandboxEvent {
  id: string;
  type: string;
  object_id: string;
  request: { body: string; headers: Record<string, string> };
}

/** The customer's Stripe events, oldest first, each with the signed request a delivery sends. */
export function signedEvents(customer: string, type?: string): Promise<SandboxEvent[]> {
  return sandbox<SandboxEvent[]>(`/stripe/events?customer=${customer}&signed=1${type ? `&type=${type}` : ""}`);
}

/** Delivers a Stripe event to our webhook endpoint the way the stand-in would. */
export function deliver(event: SandboxEvent, override: { body?: string; signature?: string } = {}) {
  return deliverTo(STRIPE_WEBHOOK, event.request, {
    body: override.body,
    headers: override.signature === undefined ? {} : { "stripe-signature": override.signature },
  });
}

export async function sandboxSubscription(id: string) {
  const [subscription] = (
    await sandbox<{ id: string; status: string; cancel_at_period_end: boolean; items: { data: { price: { id: string } }[] } }[]>("/stripe/subscriptions")
  ).filter((candidate) => candidate.id === id);
  return subscription;
}

export async function expectBadInput(response: Response, field: string) {
  expect(response.status).toBe(400);
  expect(await read(response)).toMatchObject({ field });
}

/** A returning subscriber: the free trial is used. */
export async function usedTrial(user: TestUser) {
  await db.update(users).set({ usedFreeTrial: true }).where(eq(users.id, user.userId));
}

/** The user's credit grants for a plan (one a month granted). */
export async function grantsOf(userId: string, planId: string) {
  const rows = await ledgerOf(testEnv, userId)
    .db.select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.category, "grant")));
  return rows.filter((row) => row.reference.startsWith(`grant:${planId}:`));
}

// ---------------------------------------------------------------------------
// Webhook deliveries: the stand-ins answer the signed request of each event they raised
// (`signed=1`); the tests deliver it themselves (the worker under test has no address the sandbox
// could call), as it is or altered.

export interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

/** Another body, or headers set (a string) or left out (null). */
export interface DeliveryOverride {
  body?: string;
  headers?: Record<string, string | null>;
}

async function hmacSha256(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
}

/** A Stripe-Signature header for `payload` signed with `secret` at `timestamp` (seconds), as Stripe signs. */
export async function stripeSignature(payload: string, secret: string, timestamp: number): Promise<string> {
  const mac = await hmacSha256(secret, `${timestamp}.${payload}`);
  return `t=${timestamp},v1=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** An X-Shopify-Hmac-Sha256 value: the base64 HMAC-SHA256 of the raw body with `secret`. */
export async function shopifyHmac(body: string, secret: string): Promise<string> {
  return btoa(String.fromCharCode(...(await hmacSha256(secret, body))));
}

/** An event of the PayPal or Shopify stand-in (sandbox/webhook-outbox.ts), with the signed request a delivery sends. */
export interface OutboxDelivery {
  id: string;
  type: string;
  /** PayPal: the subscription id; Shopify: the shop domain. */
  subject: string;
  /** Shopify: the charge's gid. */
  object: string;
  delivery: string;
  request: SignedRequest;
}

/** The PayPal subscription's webhook events, oldest first, signed (optionally of one type). */
export function paypalDeliveries(subscriptionID: string, type?: string): Promise<OutboxDelivery[]> {
  return sandbox<OutboxDelivery[]>(`/paypal/events?subject=${subscriptionID}&signed=1${type ? `&type=${type}` : ""}`);
}

/** The store's Shopify webhook events, oldest first, signed. */
export function shopifyDeliveries(shop: string): Promise<OutboxDelivery[]> {
  return sandbox<OutboxDelivery[]>(`/shopify/events?subject=${shop}&signed=1`);
}

/** POSTs a stand-in's signed request to our webhook endpoint at `path`. */
export function deliverTo(path: string, request: SignedRequest, override: DeliveryOverride = {}) {
  const headers: Record<string, string> = { ...request.headers };
  for (const [name, value] of Object.entries(override.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return app(path, { method: "POST", headers, body: override.body ?? request.body });
}

/** Delivers each event in turn; every one must be taken (200). Answers the endpoint's answers. */
export async function deliverAllTo(path: string, events: { request: SignedRequest }[]) {
  const answers = [];
  for (const event of events) {
    const response = await deliverTo(path, event.request);
    expect(response.status).toBe(200);
    answers.push(await read(response));
  }
  return answers;
}

// ---------------------------------------------------------------------------
// The pages where the payer approves: PayPal's and Shopify's stand-ins.

/** Presses Agree & Subscribe on a PayPal approve link's page; answers where PayPal sends the browser. */
export async function approvePayPal(link: string): Promise<URL> {
  const page = await fetch(link);
  expect(page.status).toBe(200);
  const action = /<form method="post" action="([^"]+)"/.exec(await page.text())?.[1];
  if (!action) throw new Error(`no approval form on ${link}`);
  const response = await fetch(new URL(action, link), { method: "POST", redirect: "manual" });
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location")!);
}

/** A PayPal subscription as the stand-in keeps it. */
export interface SandboxPayPalSubscription {
  id: string;
  plan_id: string;
  status: string;
  status_update_time: string;
  start_time: string;
  create_time: string;
  custom_id?: string;
  billing_info?: { last_payment?: { time: string; amount: { value: string } }; next_billing_time?: string; failed_payments_count: number };
}

export async function paypalSubscription(id: string): Promise<SandboxPayPalSubscription> {
  const found = (await sandbox<SandboxPayPalSubscription[]>("/paypal/subscriptions")).find((subscription) => subscription.id === id);
  if (!found) throw new Error(`no PayPal subscription ${id}`);
  return found;
}

/**
 * Starts a PayPal subscription from our API and approves it; the browser does not come back (no
 * activation). By default the user is a returning subscriber who used the free trial, so the first
 * cycle is paid at once (`returning` false: the plan button rule decides).
 */
export async function startAndApprovePayPal(user: TestUser, planId = "starter-monthly", returning = true): Promise<string> {
  if (returning) await usedTrial(user);
  const started = await post(PAYPAL_START, user, { planId });
  expect(started.status).toBe(200);
  const { approvalLink, subscriptionID } = await read(started);
  const back = await approvePayPal(approvalLink);
  expect(back.searchParams.get("subscription_id")).toBe(subscriptionID);
  return subscriptionID;
}

/** Subscribes with PayPal and activates, as the browser coming back does. */
export async function subscribePayPal(user: TestUser, planId = "starter-monthly", returning = true): Promise<string> {
  const subscriptionID = await startAndApprovePayPal(user, planId, returning);
  const activated = await post(PAYPAL_ACTIVATE, user, { subscriptionID, planId });
  expect(activated.status).toBe(200);
  return subscriptionID;
}

/** A Shopify charge as the stand-in keeps it. */
export interface SandboxShopifyCharge {
  id: string;
  name: string;
  status: string;
  shop: string;
  trialDays: number;
  createdAt: string;
  currentPeriodEnd: string | null;
  lineItems: { plan: { pricingDetails: { interval: string; price: { amount: string } } } }[];
}

export async function shopifyCharge(gid: string): Promise<SandboxShopifyCharge> {
  const found = (await sandbox<SandboxShopifyCharge[]>("/shopify/subscriptions")).find((candidate) => candidate.id === gid);
  if (!found) throw new Error(`no charge ${gid}`);
  return found;
}

/** Opens Shopify's confirmation page and approves (or declines) the charge; answers where Shopify sends the browser. */
export async function confirmShopifyCharge(url: string, action: "approve" | "decline" = "approve"): Promise<URL> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  await page.text();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `action=${action}`,
    redirect: "manual",
  });
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location")!);
}

let stores = 0;
/** A store of its own for a test: `{prefix}-{time}-{n}.myshopify.com`. */
export const newShop = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(stores += 1)}.myshopify.com`;

/** Starts a charge for the user's store and approves (or declines) it on Shopify's page; the browser does not come back yet. */
export async function startShopifyCharge(user: TestUser, planId: string, shop: string, action: "approve" | "decline" = "approve") {
  const started = await startShopify(user, { planId, shop });
  expect(started.status).toBe(200);
  const back = await confirmShopifyCharge((await read(started)).confirmationUrl, action);
  const chargeId = back.searchParams.get("charge_id")!;
  return { shop, chargeId, gid: `gid://shopify/AppSubscription/${chargeId}`, back };
}

/** Starts, approves and activates a charge, as the browser coming back does; answers the activation's body too. */
export async function subscribeShopify(user: TestUser, planId: string, shop: string) {
  const charge = await startShopifyCharge(user, planId, shop);
  const activated = await post(SHOPIFY_ACTIVATE, user, { chargeId: charge.chargeId });
  expect(activated.status).toBe(200);
  return { ...charge, body: await read(activated) };
}

/** Spends credits of the user's month as pins would (the API charges one action at a time). */
export async function spendCredits(user: TestUser, amount: number) {
  await consumeCredits(testEnv, user.userId, { category: "image", amount, reason: "Pin download", reference: `test-spend:${crypto.randomUUID()}` });
}

// ---------------------------------------------------------------------------
// Refunds and disputes (decision 077): an affiliate, a referrer with a Stripe customer, and a customer both sent
// by the affiliate and referred by the referrer, whose payment a refund or dispute then takes back.

/** A user in the affiliate programme; answers them with their affiliate id. */
export async function newAffiliate(): Promise<TestUser & { affiliateID: string }> {
  const user = await signUpUser();
  const affiliateID = `aff-${crypto.randomUUID().slice(0, 8)}`;
  expect((await post("/api/affiliate/createAffiliateProfile", user, { affiliateID })).status).toBe(200);
  return { ...user, affiliateID };
}

/** A referrer who pays Stripe for Starter, so their referral credits land on a Stripe customer; answers the customer too. */
export async function stripeReferrer(): Promise<{ referrer: TestUser; customer: string; code: string }> {
  const referrer = await signUpUser();
  await usedTrial(referrer);
  await subscribe(referrer, "starter-monthly");
  const code = (await read(await app("/api/referrals/getReferralCode", { headers: bearer(referrer.tokens) }))).referralCode as string;
  return { referrer, customer: await stripeCustomerOf(referrer), code };
}

/**
 * A new user who claimed `code`'s free month and was sent by `affiliateID`. By default their free month is
 * over (it began 40 days ago), so paying is what gives them a plan and taking the payment back leaves Free.
 */
export async function referredCustomer(code: string, affiliateID: string, options: { freeMonthOver?: boolean } = {}): Promise<TestUser> {
  // The free month needs a verified e-mail (decision 079).
  const user = await signUpVerifiedUser();
  expect((await post("/api/referrals/recordReferral", user, { referralCode: code })).status).toBe(200);
  if (options.freeMonthOver ?? true) {
    const began = Date.now() - 40 * 86_400_000;
    await db
      .update(subscriptions)
      .set({ startedAt: began, periodStart: began, periodEnd: began + 30 * 86_400_000 })
      .where(and(eq(subscriptions.userId, user.userId), eq(subscriptions.provider, "referral")));
    // Its month's grant was made when it began (the credit month totals follow the ledger's triggers).
    await ledgerOf(testEnv, user.userId)
      .db.update(creditLedger)
      .set({ createdAt: began, reference: `grant:starter-monthly:${began}` })
      .where(and(eq(creditLedger.userId, user.userId), like(creditLedger.reference, "grant:starter-monthly:%")));
    await refreshUserPlan(testEnv, user.userId);
  }
  const now = Date.now();
  await db.insert(affiliateCustomers).values({ userId: user.userId, affiliateId: affiliateID, clickedAt: now, attributedAt: now, source: "signup" });
  // Nobody pays in the second they signed up (providers keep whole seconds: a period would start before the account).
  while (Math.floor(Date.now() / 1000) <= Math.floor(now / 1000)) await new Promise((resolve) => setTimeout(resolve, 50));
  return user;
}

/** The customer's Stripe balance (cents; negative is credit) and the balance transactions made for `referredUserId`. */
export async function referralCreditsAt(customer: string, referredUserId: string) {
  const stripe = stripeClient(testEnv);
  const found = await stripe.customers.retrieve(customer);
  if (found.deleted) throw new Error(`customer ${customer} deleted`);
  const { data } = await stripe.customers.listBalanceTransactions(customer, { limit: 100 });
  return {
    balance: found.balance,
    amounts: data
      .filter((t) => t.metadata?.referredUserId === referredUserId)
      .map((t) => t.amount)
      .sort((a, b) => a - b),
  };
}

/** The user's commission rows, sales and reversals, oldest first. */
export async function commissionsOf(userId: string) {
  const rows = await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, userId));
  return rows.sort((a, b) => a.createdAt - b.createdAt || a.chargeRef.localeCompare(b.chargeRef));
}

/** GET /api/subscriptions/current */
export async function currentSubscriptionOf(user: TestUser) {
  const response = await app("/api/subscriptions/current", { headers: bearer(user.tokens) });
  expect(response.status).toBe(200);
  return read(response) as Promise<{
    subscription: { planId: string; status: string } | null;
    takenBack: { planName: string; reason: string; at: string } | null;
  }>;
}
