import { describe, expect, it } from "vitest";
import { adjustedPrice, edgeCountry, honoursCountryHeader } from "../../../workers/domain/pricing-parity.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { payHostedCheckout, post, stripeCustomerOf } from "./billing-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Pricing parity charged at checkout (issue 7): the country the edge saw gives a Stripe coupon
// (`parity-{percent}`, percent_off, forever) on the Checkout Session, for subscriptions and for the
// lifetime payment. The sandbox is shared with other test files: nothing here resets it, and each
// test uses a parity percentage no other test uses, so coupon counts are this file's own.

const START = "/api/stripeSubscriptions/startStripeSubscription";
const ACTIVATE = "/api/stripeSubscriptions/activateStripeSubscription";
const ONCE_OFF = "/api/stripeSubscriptions/startStripeOnceOffPayment";

interface Session {
  id: string;
  mode: string;
  amount_subtotal: number;
  amount_total: number;
  discounts: { coupon: string; promotion_code: null }[];
  total_details: { amount_discount: number };
  subscription: string | null;
  payment_intent: string | null;
}
interface Discount {
  id: string;
  subscription: string | null;
  checkout_session: string | null;
  source: { coupon: { id: string; percent_off: number; duration: string } };
}
interface Coupon {
  id: string;
  percent_off: number | null;
  duration: string;
  times_redeemed: number;
  valid: boolean;
}

/** A POST as the browser sends it, from a visitor the edge places in `country` (request.cf.country). */
function postFrom(country: string | null, path: string, user: TestUser, body: unknown) {
  return app(path, { ...json(body, bearer(user.tokens)), ...(country ? { cf: { country } } : {}) } as RequestInit);
}

async function sessionsOf(user: TestUser) {
  return sandbox<Session[]>(`/stripe/checkout_sessions?customer=${await stripeCustomerOf(user)}`);
}

async function startFrom(country: string | null, user: TestUser, planId: string) {
  const response = await postFrom(country, START, user, { planId });
  expect(response.status).toBe(200);
  const { redirectUrl } = await read(response);
  const [session] = await sessionsOf(user);
  return { redirectUrl: redirectUrl as string, session: session! };
}

async function couponCreations(id: string) {
  const requests = await sandbox<{ method: string; path: string; body: unknown }[]>("/requests?service=stripe");
  return requests.filter((request) => request.method === "POST" && request.path === "/v1/coupons" && JSON.stringify(request.body).includes(id));
}

async function coupon(id: string): Promise<Coupon | undefined> {
  return (await sandbox<Coupon[]>("/stripe/coupons")).find((candidate) => candidate.id === id);
}

/** A request straight to the Stripe stand-in's API, as the SDK sends it (form-encoded, secret key). */
function stripeApi(method: string, path: string, form?: Record<string, string>) {
  return fetch(`${testEnv.SANDBOX_URL}/stripe/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${testEnv.STRIPE_SECRET_KEY}`, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

describe("which country a request comes from", () => {
  const request = (headers: Record<string, string>, cf?: { country?: string }) => ({ headers: new Headers(headers), cf });

  it("is the edge's country in production, whatever header the browser sends", () => {
    expect(honoursCountryHeader("production")).toBe(false);
    expect(edgeCountry(request({ "cf-ipcountry": "IN" }, { country: "US" }), "production")).toBe("US");
    expect(edgeCountry(request({ "cf-ipcountry": "IN" }), "production")).toBeNull();
    expect(edgeCountry(request({}, { country: "br" }), "production")).toBe("BR");
    // Only the configurations named local and test honour it: a staging or unset APP_ENV does not.
    expect(edgeCountry(request({ "cf-ipcountry": "IN" }, { country: "US" }), "staging")).toBe("US");
    expect(edgeCountry(request({ "cf-ipcountry": "IN" }), undefined)).toBeNull();
  });

  it("may be named by the cf-ipcountry header in the local and test configurations only", () => {
    expect(edgeCountry(request({ "cf-ipcountry": "in" }, { country: "US" }), "development")).toBe("IN");
    expect(edgeCountry(request({ "cf-ipcountry": "BR" }), "test")).toBe("BR");
    expect(edgeCountry(request({}, { country: "PL" }), "test")).toBe("PL");
    expect(edgeCountry(request({}), "test")).toBeNull();
  });

  it("decides GET /api/pricingParity: the header counts in this test configuration", async () => {
    expect(testEnv.APP_ENV).toBe("test");
    expect(await read(await app("/api/pricingParity", { headers: { "cf-ipcountry": "KE" } }))).toEqual({ countryCode: "KE", percentageAdjustment: 50 });
  });
});

describe("pricing parity at Stripe Checkout", () => {
  it("charges a parity country's subscription the discounted amount, and the subscription keeps the coupon", async () => {
    const user = await signUpUser();
    // Agency has no free trial: the first payment is due at checkout.
    const { redirectUrl, session } = await startFrom("IN", user, "agency-monthly");
    expect(session).toMatchObject({
      mode: "subscription",
      amount_subtotal: 6999,
      // 50 % of 6999 cents is 3499.5, rounded to a 3500 discount: 3499 is charged, the price the page shows.
      amount_total: 3499,
      total_details: { amount_discount: 3500 },
      discounts: [{ coupon: "parity-50", promotion_code: null }],
    });
    expect(session.amount_total).toBe(Math.round(adjustedPrice(69.99, { percentageAdjustment: 50 }) * 100));
    expect(await coupon("parity-50")).toMatchObject({ percent_off: 50, duration: "forever", valid: true });

    const checkoutPage = await (await fetch(redirectUrl)).text();
    expect(checkoutPage).toContain('<s class="was">$69.99</s>$34.99');

    const paid = await payHostedCheckout(redirectUrl);
    const sessionId = new URL(paid.location!).searchParams.get("session_id")!;
    const activated = await postFrom("IN", ACTIVATE, user, { session_id: sessionId, affiliateID: null });
    expect(activated.status).toBe(200);
    const { paymentDetails } = await read(activated);
    expect(paymentDetails).toMatchObject({ planId: "agency-monthly", amount: 34.99, status: "active" });

    const customer = await stripeCustomerOf(user);
    const [subscription] = await sandbox<{ id: string; discounts: string[] }[]>(`/stripe/subscriptions?customer=${customer}`);
    expect(subscription!.id).toBe(paymentDetails.subscriptionID);
    expect(subscription!.discounts).toHaveLength(1);
    const discounts = await sandbox<Discount[]>(`/stripe/discounts?customer=${customer}`);
    expect(discounts.find((discount) => discount.id === subscription!.discounts[0])).toMatchObject({
      subscription: subscription!.id,
      checkout_session: sessionId,
      source: { coupon: { id: "parity-50", percent_off: 50, duration: "forever" } },
    });

    // Forever: the renewal is charged the discounted amount too.
    await sandbox(`/stripe/subscriptions/${subscription!.id}/renew`, { method: "POST", json: {} });
    const invoices = await sandbox<{ billing_reason: string; subtotal: number; total: number; amount_paid: number }[]>(`/stripe/invoices?customer=${customer}`);
    expect(invoices.map((invoice) => [invoice.billing_reason, invoice.subtotal, invoice.total, invoice.amount_paid])).toEqual([
      ["subscription_create", 6999, 3499, 3499],
      ["subscription_cycle", 6999, 3499, 3499],
    ]);
  });

  it("keeps the discount through a free trial: nothing now, the discounted price after", async () => {
    const user = await signUpUser();
    const { redirectUrl, session } = await startFrom("NG", user, "starter-monthly");
    expect(session).toMatchObject({ amount_total: 0, discounts: [{ coupon: "parity-50" }] });
    expect(await (await fetch(redirectUrl)).text()).toContain('Then <s class="was">$16.99</s>$8.49 per month');
    await payHostedCheckout(redirectUrl);
    const customer = await stripeCustomerOf(user);
    const [subscription] = await sandbox<{ id: string; status: string }[]>(`/stripe/subscriptions?customer=${customer}`);
    expect(subscription!.status).toBe("trialing");
    await sandbox(`/stripe/subscriptions/${subscription!.id}/renew`, { method: "POST", json: {} });
    const invoices = await sandbox<{ total: number }[]>(`/stripe/invoices?customer=${customer}`);
    expect(invoices.map((invoice) => invoice.total)).toEqual([0, 849]);
  });

  it("charges the lifetime payment less the parity of the country the test configuration names", async () => {
    const user = await signUpUser();
    // The header stands in for the edge here (APP_ENV=test); production reads only request.cf.country.
    const start = await app(
      ONCE_OFF,
      json({ stripePriceID: "price_lifetime", planId: "lifetime", returnUrl: "/lifetime" }, bearer(user.tokens, { "cf-ipcountry": "BR" })),
    );
    expect(start.status).toBe(200);
    const [session] = await sessionsOf(user);
    expect(session).toMatchObject({
      mode: "payment",
      amount_subtotal: 24900,
      amount_total: 14940,
      discounts: [{ coupon: "parity-40" }],
      total_details: { amount_discount: 9960 },
    });

    const paid = await payHostedCheckout((await read(start)).redirectUrl);
    const sessionId = new URL(paid.location!).searchParams.get("session_id")!;
    const intents = await sandbox<{ id: string; amount: number; status: string }[]>(`/stripe/payment_intents?customer=${await stripeCustomerOf(user)}`);
    expect(intents).toEqual([expect.objectContaining({ amount: 14940, status: "succeeded" })]);
    const activated = await post("/api/subscriptions/activateLifetimePurchase", user, { session_id: sessionId, planId: "lifetime" });
    expect(activated.status).toBe(200);
    expect((await read(activated)).paymentDetails).toMatchObject({ planId: "lifetime", amount: 149.4 });
  });

  it("charges full price, with no coupon, to a country without parity or an unknown one", async () => {
    for (const country of ["US", null]) {
      const user = await signUpUser();
      const { session } = await startFrom(country, user, "agency-monthly");
      expect(session).toMatchObject({ amount_subtotal: 6999, amount_total: 6999, discounts: [], total_details: { amount_discount: 0 } });
    }
  });

  it("creates a percentage's coupon once and reuses it for every checkout", async () => {
    // Poland: 20 %, used by no other test.
    const [first, second] = [await signUpUser(), await signUpUser()];
    const one = await startFrom("PL", first, "agency-annual");
    const two = await startFrom("PL", second, "agency-annual");
    for (const { session } of [one, two]) {
      expect(session).toMatchObject({ amount_subtotal: 69900, amount_total: 55920, discounts: [{ coupon: "parity-20" }] });
    }
    expect(await couponCreations("parity-20")).toHaveLength(1);
    await payHostedCheckout(one.redirectUrl);
    await payHostedCheckout(two.redirectUrl);
    expect(await coupon("parity-20")).toMatchObject({ percent_off: 20, duration: "forever", times_redeemed: 2 });
  });

  it("refuses to check out with a parity coupon that takes another discount than the page shows", async () => {
    // Mexico: 30 %. Someone made parity-30 by hand with 25 % off.
    const made = await stripeApi("POST", "/coupons", { id: "parity-30", percent_off: "25", duration: "forever" });
    expect(made.status).toBe(200);
    const user = await signUpUser();
    const response = await postFrom("MX", START, user, { planId: "agency-monthly" });
    expect(response.status).toBe(502);
    expect(await read(response)).toMatchObject({ error: "The payment service is unavailable, please try again." });
    const sessions = await sandbox<{ client_reference_id: string | null }[]>("/stripe/checkout_sessions");
    expect(sessions.filter((session) => session.client_reference_id === user.userId)).toEqual([]);
  });
});

describe("the Stripe stand-in's coupons", () => {
  it("answers Stripe's errors: a missing coupon, a duplicate id, bad values, an unknown coupon on a session", async () => {
    const missing = await stripeApi("GET", "/coupons/parity-no-such");
    expect(missing.status).toBe(404);
    expect((await read(missing)).error).toMatchObject({ type: "invalid_request_error", code: "resource_missing", message: "No such coupon: 'parity-no-such'" });

    const id = `sandbox-test-${crypto.randomUUID().slice(0, 8)}`;
    expect((await stripeApi("POST", "/coupons", { id, percent_off: "12.5", duration: "repeating", duration_in_months: "3" })).status).toBe(200);
    expect(await read(await stripeApi("GET", `/coupons/${id}`))).toMatchObject({
      id,
      object: "coupon",
      percent_off: 12.5,
      duration: "repeating",
      duration_in_months: 3,
      times_redeemed: 0,
      valid: true,
    });
    const duplicate = await stripeApi("POST", "/coupons", { id, percent_off: "10", duration: "forever" });
    expect(duplicate.status).toBe(400);
    expect((await read(duplicate)).error).toMatchObject({ code: "resource_already_exists" });
    const refusals: Record<string, string>[] = [
      { percent_off: "0" },
      { percent_off: "101" },
      { duration: "forever" },
      { amount_off: "500" },
      { percent_off: "10", duration: "repeating" },
    ];
    for (const form of refusals) {
      const refused = await stripeApi("POST", "/coupons", form);
      expect(refused.status, JSON.stringify(form)).toBe(400);
    }

    const session = await stripeApi("POST", "/checkout/sessions", {
      mode: "payment",
      "line_items[0][price]": "price_lifetime",
      "line_items[0][quantity]": "1",
      success_url: "http://app.test/lifetime",
      "discounts[0][coupon]": "parity-no-such",
    });
    expect(session.status).toBe(400);
    expect((await read(session)).error).toMatchObject({ code: "resource_missing", param: "discounts[0][coupon]" });
  });
});
