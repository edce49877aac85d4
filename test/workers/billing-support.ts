import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { CreditsSummary } from "../../contracts/credits.ts";
import { database } from "../../workers/db/client.ts";
import { billingCustomers } from "../../workers/db/schema.ts";
import { bearer, json, type TestUser } from "./accounts-support.ts";
import { app, read, sandbox, testEnv } from "./support.ts";

// Helpers of the billing tests. The sandbox is shared with other test files: nothing here resets
// it; every test works with its own users, whose Stripe customers keep their objects apart.

export const db = database(testEnv.DB);

export function post(path: string, user: TestUser | null, body: unknown) {
  return app(path, json(body, user ? bearer(user.tokens) : {}));
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

/** Delivers an event to our webhook endpoint the way the stand-in would. */
export function deliver(event: SandboxEvent, override: { body?: string; signature?: string } = {}) {
  const headers = { ...event.request.headers };
  if (override.signature !== undefined) headers["stripe-signature"] = override.signature;
  return app("/api/stripe/webhook", { method: "POST", headers, body: override.body ?? event.request.body });
}

export async function sandboxSubscription(id: string) {
  const [subscription] = (await sandbox<{ id: string; status: string; cancel_at_period_end: boolean; items: { data: { price: { id: string } }[] } }[]>("/stripe/subscriptions")).filter(
    (candidate) => candidate.id === id,
  );
  return subscription;
}
