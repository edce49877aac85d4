import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PAYPAL_PLAN_IDS, PAYPAL_TRIAL_PLAN_IDS } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { SANDBOX_PAYPAL_WEBHOOK_ID } from "../../../sandbox/provider-vars.ts";
import { ProviderError } from "../../../workers/integrations/http.ts";
import * as paypal from "../../../workers/integrations/paypal.ts";
import { createOpenApiChecker, type Exchange, type Json } from "../../support/openapi-conformance.ts";
import { useSandbox } from "../../support/sandbox.ts";
import { rejectionOf } from "../../support/rejection.ts";
import { recordGlobalFetch } from "../../support/recorded-fetch.ts";

// Conformance with PayPal's published OpenAPI descriptions (contracts/specs/paypal-billing_subscriptions_v1.json
// and paypal-notifications_webhooks_v1.json, copies of ../shared/specs, Apache-2.0): every request our client
// (workers/integrations/paypal.ts) sends to the stand-in, and every answer of the stand-in, is checked against
// its operation with closed objects (test/support/openapi-conformance.ts), and so is every webhook event the
// stand-in emits (the notifications description's `event`; a subscription event's resource is also checked
// as the billing description's `subscription`). PayPal publishes no description here of the OAuth token, the
// Payments API v1 (sales, refunds) or the Disputes API: those exchanges are listed, not checked.

const load = (name: string): Json => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../contracts/specs/${name}`, import.meta.url)), "utf8"));
const billing = createOpenApiChecker(load("paypal-billing_subscriptions_v1.json"), "paypal-billing-subscriptions-v1", {
  unicodeRegExp: false,
  allOfComponentsOpenThroughout: true,
});
const notifications = createOpenApiChecker(load("paypal-notifications_webhooks_v1.json"), "paypal-notifications-webhooks-v1", {
  unicodeRegExp: false,
  allOfComponentsOpenThroughout: true,
});
/** Paths the descriptions above do not cover. */
const UNDESCRIBED = /^\/v1\/(oauth2\/token|payments\/|customer\/disputes\/)/;

const checkerFor = (path: string) => (path.startsWith("/v1/notifications/") ? notifications : billing);

const sandbox = useSandbox();
const apiBase = () => new URL(`${sandbox.url}/paypal`);
const env = () => ({ PAYPAL_API_URL: `${sandbox.url}/paypal`, PAYPAL_CLIENT_ID: "conformance-client", PAYPAL_CLIENT_SECRET: "conformance-secret" });
const RETURN = { returnUrl: "http://app.test/pricing?paymentMessage=success", cancelUrl: "http://app.test/pricing?paymentMessage=cancel" };

// ---- recording what the client sends and the stand-in answers ------------------------------------

const realFetch = globalThis.fetch;
const exchanges = recordGlobalFetch((url) => url.startsWith(`${apiBase().href}/v1/`));

const pathOf = (exchange: Exchange) => exchange.url.pathname.slice(apiBase().pathname.length);
const described = () => exchanges.filter((exchange) => !UNDESCRIBED.test(pathOf(exchange)));
const problemsOf = (exchange: Exchange, options?: { request?: boolean }) => checkerFor(pathOf(exchange)).conformanceProblems(exchange, apiBase(), options);
const operationsCovered = () =>
  new Set(described().map((exchange) => checkerFor(pathOf(exchange)).operationId(exchange, apiBase()) ?? `${exchange.method} ${pathOf(exchange)}`));

function expectAllConform() {
  expect(described().flatMap((exchange) => problemsOf(exchange))).toEqual([]);
}

// ---- the stand-in's webhook events -------------------------------------------------------------

const eventSchema = { $ref: "#/components/schemas/event" };
const subscriptionSchema = { $ref: "#/components/schemas/subscription" };

/** What does not conform in one emitted event: the event itself, and a subscription event's resource. */
function eventProblems(body: string): string[] {
  const event = JSON.parse(body);
  const problems = notifications.schemaProblems(`${event.event_type} event`, "#event", eventSchema, event);
  if (event.resource_type === "subscription")
    problems.push(...billing.schemaProblems(`${event.event_type} resource`, "#subscription", subscriptionSchema, event.resource));
  return problems;
}

async function control<T>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await realFetch(
    `${sandbox.url}/__sandbox/paypal${path}`,
    body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  return { status: response.status, body: (await response.json()) as T };
}

interface Emitted {
  type: string;
  request: { body: string; headers: Record<string, string> };
}
const emitted = async () => (await control<Emitted[]>("/events?signed=1")).body;

/** Opens an approve link and presses Agree & Subscribe. */
async function approve(link: string) {
  const page = await realFetch(link);
  const action = /<form method="post" action="([^"]+)"/.exec(await page.text())?.[1];
  expect(action).toBeTruthy();
  const answer = await realFetch(new URL(action!, link), { method: "POST", redirect: "manual" });
  expect(answer.status).toBe(303);
}

async function activeSubscription(planId: string, customId: string, plan?: paypal.PayPalPlanOverride) {
  const created = await paypal.createSubscription(env(), { planId, customId, ...RETURN, ...(plan ? { plan } : {}) });
  await approve(paypal.approveLink(created.links)!);
  return created.id;
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

// ---- the checks ---------------------------------------------------------------------------------

describe("the PayPal check itself", () => {
  const base = new URL("https://api-m.paypal.com");
  const create = (body: unknown): Exchange => ({
    method: "POST",
    url: new URL("https://api-m.paypal.com/v1/billing/subscriptions"),
    requestHeaders: new Headers({ authorization: "Bearer A21", "content-type": "application/json" }),
    requestBody: JSON.stringify(body),
  });

  it("accepts a create as PayPal describes it and refuses an undeclared field or a missing plan_id", () => {
    expect(billing.conformanceProblems(create({ plan_id: "P-1234567890ABCDEFGHIJKLMN", custom_id: "u1" }), base)).toEqual([]);
    expect(billing.conformanceProblems(create({ plan_id: "P-1234567890ABCDEFGHIJKLMN", customer: "u1" }), base).join("\n")).toContain(
      'must NOT have unevaluated properties {"unevaluatedProperty":"customer"}',
    );
    expect(billing.conformanceProblems(create({ custom_id: "u1" }), base).join("\n")).toContain("plan_id");
  });

  it("holds error answers to the issues each operation lists, and their details to the fields PayPal declares", () => {
    const notFound = (detail: Json): Exchange => ({
      method: "GET",
      url: new URL("https://api-m.paypal.com/v1/billing/subscriptions/I-NOPE"),
      requestHeaders: new Headers({ authorization: "Bearer A21" }),
      requestBody: null,
      status: 404,
      responseHeaders: new Headers({ "content-type": "application/json" }),
      responseBody: JSON.stringify({ name: "RESOURCE_NOT_FOUND", message: "The specified resource does not exist.", debug_id: "abc", details: [detail] }),
    });
    const described = "Specified resource ID does not exist. Please check the resource ID and try again.";
    expect(billing.conformanceProblems(notFound({ issue: "INVALID_RESOURCE_ID", description: described }), base)).toEqual([]);
    expect(billing.conformanceProblems(notFound({ issue: "INVALID_RESOURCE_ID", description: "Requested resource ID was not found." }), base)).not.toEqual([]);
    expect(billing.conformanceProblems(notFound({ issue: "INVALID_RESOURCE_ID", description: described, hint: "x" }), base).join("\n")).toContain("hint");
  });

  it("refuses an event with an undeclared top-level field", () => {
    const event = { id: "WH-1", event_type: "BILLING.SUBSCRIPTION.CANCELLED", resource_type: "plan", resource: {}, delivered: true };
    expect(eventProblems(JSON.stringify(event)).join("\n")).toContain("delivered");
  });
});

describe("PayPal client and stand-in against PayPal's descriptions", () => {
  it("subscriptions: create (with and without a plan override), get (with fields=plan), revise both ways, suspend, activate, cancel", async () => {
    const id = await activeSubscription(PAYPAL_PLAN_IDS["starter-monthly"], "user-1");
    expect((await paypal.getSubscription(env(), id)).status).toBe("ACTIVE");
    expect(paypal.regularPrice(await paypal.getSubscription(env(), id, { withPlan: true }))).toBe(16.99);

    const override = { billing_cycles: [{ sequence: 1, total_cycles: 0, pricing_scheme: { fixed_price: { value: "9.99", currency_code: "USD" } } }] };
    const overridden = await activeSubscription(PAYPAL_PLAN_IDS["pro-monthly"], "user-2", override);
    expect(paypal.regularPrice(await paypal.getSubscription(env(), overridden, { withPlan: true }))).toBe(9.99);

    const trialPlan = Object.values(PAYPAL_TRIAL_PLAN_IDS)[0];
    const trial = await activeSubscription(trialPlan, "user-3");
    expect((await paypal.getSubscription(env(), trial, { withPlan: true })).plan?.billing_cycles?.[0].tenure_type).toBe("TRIAL");

    const upgrade = await paypal.reviseSubscription(env(), id, { planId: PAYPAL_PLAN_IDS["pro-monthly"], ...RETURN });
    await approve(paypal.approveLink(upgrade.links)!);
    const downgrade = await paypal.reviseSubscription(env(), id, { planId: PAYPAL_PLAN_IDS["starter-monthly"], ...RETURN, plan: override });
    expect(paypal.approveLink(downgrade.links)).toBeNull();

    await paypal.suspendSubscription(env(), id, "pause");
    await paypal.activateSubscription(env(), id, "back");
    await paypal.cancelSubscription(env(), id, "too expensive");
    expect((await paypal.getSubscription(env(), id)).status).toBe("CANCELLED");

    expect([...operationsCovered()].sort()).toEqual(
      ["subscriptions.activate", "subscriptions.cancel", "subscriptions.create", "subscriptions.get", "subscriptions.revise", "subscriptions.suspend"].sort(),
    );
    expectAllConform();
  });

  it("subscriptions: the error answers (unknown subscription, status invalid, unknown plan)", async () => {
    const id = await activeSubscription(PAYPAL_PLAN_IDS["starter-monthly"], "user-errors");
    expect((await failure(paypal.getSubscription(env(), "I-DOESNOTEXIST"))).status).toBe(404);
    expect((await failure(paypal.activateSubscription(env(), id, "again"))).status).toBe(422);
    expect((await failure(paypal.createSubscription(env(), { planId: "P-NOSUCHPLAN000000000000000", customId: "u", ...RETURN }))).status).toBe(400);
    expect((await failure(paypal.reviseSubscription(env(), id, { planId: "P-NOSUCHPLAN000000000000000", ...RETURN }))).status).toBe(400);
    // The client keeps a reason to the 128 characters PayPal takes; the stand-in refuses a longer one as PayPal does.
    await paypal.suspendSubscription(env(), id, "r".repeat(200));
    expect(JSON.parse(exchanges.at(-1)!.requestBody!).reason).toHaveLength(128);
    const token = (await (
      await fetch(`${apiBase().href}/v1/oauth2/token`, {
        method: "POST",
        headers: { authorization: `Basic ${btoa("c:s")}`, "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials",
      })
    ).json()) as { access_token: string };
    const tooLong = await fetch(`${apiBase().href}/v1/billing/subscriptions/${id}/activate`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ reason: "r".repeat(129) }),
    });
    expect(tooLong.status).toBe(400);
    // That request breaks the description on purpose: its answer is checked, then it is left out.
    const deliberate = exchanges.pop()!;
    expect(problemsOf(deliberate).join("\n")).toContain("reason must NOT have more than 128 characters");
    expect(problemsOf(deliberate, { request: false })).toEqual([]);
    expectAllConform();
  });

  it("verify-webhook-signature: the event as delivered, SUCCESS and FAILURE", async () => {
    await activeSubscription(PAYPAL_PLAN_IDS["starter-monthly"], "user-hook");
    const [delivery] = await emitted();
    const headers = delivery.request.headers;
    const transmission = {
      transmissionId: headers["paypal-transmission-id"],
      transmissionTime: headers["paypal-transmission-time"],
      transmissionSig: headers["paypal-transmission-sig"],
      certUrl: headers["paypal-cert-url"],
      authAlgo: headers["paypal-auth-algo"],
    };
    const webhookId = SANDBOX_PAYPAL_WEBHOOK_ID;
    expect(await paypal.verifyWebhookSignature(env(), webhookId, transmission, delivery.request.body)).toBe(true);
    expect(await paypal.verifyWebhookSignature(env(), webhookId, transmission, delivery.request.body.replace("Subscription", "Subscripti0n"))).toBe(false);
    expect([...operationsCovered()]).toContain("verify-webhook-signature.post");
    expectAllConform();
  });

  it("every webhook event the stand-in emits for the event types the app handles", async () => {
    const id = await activeSubscription(PAYPAL_PLAN_IDS["pro-monthly"], "user-events");
    await paypal.reviseSubscription(env(), id, { planId: PAYPAL_PLAN_IDS["starter-monthly"], ...RETURN });
    await control(`/subscriptions/${id}/renew`, { payment: "succeed" });
    await control(`/subscriptions/${id}/renew`, { payment: "fail" });
    await paypal.suspendSubscription(env(), id, "pause");
    await paypal.activateSubscription(env(), id, "back");
    await paypal.cancelSubscription(env(), id, "done");

    const expiring = await activeSubscription(PAYPAL_PLAN_IDS["pro-monthly"], "user-expires");
    await control(`/subscriptions/${expiring}/expire`, {});

    const refunded = await activeSubscription(PAYPAL_PLAN_IDS["pro-monthly"], "user-refund");
    const [sale] = (await control<{ id: string }[]>(`/sales?subscription=${refunded}`)).body;
    await control(`/sales/${sale.id}/refund`, { amount: "5.00" });
    const disputed = await activeSubscription(PAYPAL_PLAN_IDS["pro-monthly"], "user-dispute");
    const [disputedSale] = (await control<{ id: string }[]>(`/sales?subscription=${disputed}`)).body;
    const dispute = (await control<{ dispute_id: string }>(`/sales/${disputedSale.id}/dispute`, {})).body;
    await control(`/disputes/${dispute.dispute_id}/resolve`, { outcome: "BUYER_FAVOR" });

    const events = await emitted();
    const types = new Set(events.map((event) => event.type));
    expect([...types].sort()).toEqual(
      [
        "BILLING.SUBSCRIPTION.ACTIVATED",
        "BILLING.SUBSCRIPTION.CANCELLED",
        "BILLING.SUBSCRIPTION.EXPIRED",
        "BILLING.SUBSCRIPTION.PAYMENT.FAILED",
        "BILLING.SUBSCRIPTION.RE-ACTIVATED",
        "BILLING.SUBSCRIPTION.SUSPENDED",
        "BILLING.SUBSCRIPTION.UPDATED",
        "CUSTOMER.DISPUTE.CREATED",
        "CUSTOMER.DISPUTE.RESOLVED",
        "PAYMENT.SALE.COMPLETED",
        "PAYMENT.SALE.REFUNDED",
        "PAYMENT.SALE.REVERSED",
      ].sort(),
    );
    expect(events.flatMap((event) => eventProblems(event.request.body))).toEqual([]);
    expectAllConform();
  });
});
