import { describe, expect, it } from "vitest";
import { PAYPAL_PLAN_IDS } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { ProviderError } from "../../../workers/integrations/http.ts";
import * as paypal from "../../../workers/integrations/paypal.ts";
import { useSandbox } from "../../support/sandbox.ts";
import { rejectionOf } from "../../support/rejection.ts";

// The worker's PayPal client against the PayPal stand-in, as the worker uses it.
const sandbox = useSandbox();
const env = () => ({
  PAYPAL_API_URL: `${sandbox.url}/paypal`,
  PAYPAL_CLIENT_ID: "unit-client",
  PAYPAL_CLIENT_SECRET: "unit-secret",
});
const RETURN = {
  returnUrl: "http://app.test/pricing?paymentMessage=success",
  cancelUrl: "http://app.test/pricing?paymentMessage=cancel",
};

/** Opens an approve link and presses Agree & Subscribe; answers the redirect. */
async function approve(link: string) {
  const page = await fetch(link);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action).toBeTruthy();
  return fetch(new URL(action!, link), { method: "POST", redirect: "manual" });
}

async function activeSubscription(planId = "starter-monthly", customId = "user-1") {
  const created = await paypal.createSubscription(env(), {
    planId: PAYPAL_PLAN_IDS[planId],
    customId,
    ...RETURN,
  });
  const approved = await approve(paypal.approveLink(created.links)!);
  expect(approved.status).toBe(303);
  return created.id;
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

describe("PayPal stand-in", () => {
  it("refuses a token request without client credentials, and API calls without a token", async () => {
    const token = await fetch(`${sandbox.url}/paypal/v1/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: "invalid_client" });
    const read = await fetch(`${sandbox.url}/paypal/v1/billing/subscriptions/I-NOPE`, { headers: { authorization: "Bearer forged" } });
    expect(read.status).toBe(401);
  });

  it("creates a subscription pending approval; approving activates it and returns to return_url with subscription_id", async () => {
    const created = await paypal.createSubscription(env(), {
      planId: PAYPAL_PLAN_IDS["pro-monthly"],
      customId: "user-1",
      ...RETURN,
    });
    expect(created).toMatchObject({
      status: "APPROVAL_PENDING",
      plan_id: PAYPAL_PLAN_IDS["pro-monthly"],
      custom_id: "user-1",
    });
    expect(created.id).toMatch(/^I-[A-Z0-9]+$/);
    const link = paypal.approveLink(created.links);
    expect(link).toMatch(/\/paypal\/webapps\/billing\/subscriptions\?ba_token=BA-/);
    expect((await paypal.getSubscription(env(), created.id)).status).toBe("APPROVAL_PENDING");

    const approved = await approve(link!);
    const back = new URL(approved.headers.get("location")!);
    expect(back.origin + back.pathname).toBe("http://app.test/pricing");
    expect(back.searchParams.get("subscription_id")).toBe(created.id);
    expect(back.searchParams.get("paymentMessage")).toBe("success");

    const active = await paypal.getSubscription(env(), created.id);
    expect(active.status).toBe("ACTIVE");
    expect(active.billing_info?.last_payment?.amount).toEqual({
      currency_code: "USD",
      value: "29.99",
    });
    expect(Date.parse(active.billing_info!.next_billing_time!)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
  });

  it("suspends, re-activates and cancels with PayPal's status rules", async () => {
    const id = await activeSubscription();
    const reactivateActive = await failure(paypal.activateSubscription(env(), id, "again"));
    expect(reactivateActive.status).toBe(422);
    expect(JSON.parse(reactivateActive.body)).toMatchObject({
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue: "SUBSCRIPTION_STATUS_INVALID" }],
    });

    await paypal.suspendSubscription(env(), id, "pause");
    expect((await paypal.getSubscription(env(), id)).status).toBe("SUSPENDED");
    await paypal.activateSubscription(env(), id, "back");
    expect((await paypal.getSubscription(env(), id)).status).toBe("ACTIVE");
    await paypal.cancelSubscription(env(), id, "too expensive");
    expect((await paypal.getSubscription(env(), id)).status).toBe("CANCELLED");
    expect((await failure(paypal.suspendSubscription(env(), id, "pause"))).status).toBe(422);
  });

  it("answers 404 RESOURCE_NOT_FOUND for an unknown subscription", async () => {
    const error = await failure(paypal.getSubscription(env(), "I-DOESNOTEXIST"));
    expect(error.status).toBe(404);
    expect(JSON.parse(error.body)).toMatchObject({
      name: "RESOURCE_NOT_FOUND",
    });
  });

  it("revises to a dearer plan only after approval, and to a cheaper one at once", async () => {
    const id = await activeSubscription("starter-monthly");
    const upgrade = await paypal.reviseSubscription(env(), id, {
      planId: PAYPAL_PLAN_IDS["pro-monthly"],
      ...RETURN,
    });
    const link = paypal.approveLink(upgrade.links);
    expect(link).toBeTruthy();
    expect((await paypal.getSubscription(env(), id)).plan_id).toBe(PAYPAL_PLAN_IDS["starter-monthly"]);
    const approved = await approve(link!);
    expect(new URL(approved.headers.get("location")!).searchParams.get("subscription_id")).toBe(id);
    expect((await paypal.getSubscription(env(), id)).plan_id).toBe(PAYPAL_PLAN_IDS["pro-monthly"]);

    const downgrade = await paypal.reviseSubscription(env(), id, {
      planId: PAYPAL_PLAN_IDS["starter-monthly"],
      ...RETURN,
    });
    expect(paypal.approveLink(downgrade.links)).toBeNull();
    expect((await paypal.getSubscription(env(), id)).plan_id).toBe(PAYPAL_PLAN_IDS["starter-monthly"]);
  });

  it("records requests with the secrets masked", async () => {
    await activeSubscription();
    const requests = (await (await fetch(`${sandbox.url}/__sandbox/requests?service=paypal`)).json()) as { path: string; headers: Record<string, string> }[];
    const create = requests.find((request) => request.path === "/v1/billing/subscriptions");
    expect(create?.headers.authorization).toMatch(/^\*\*\*\*/);
  });
});

describe("PayPal stand-in sales, refunds and disputes (decision 077)", () => {
  async function token(): Promise<string> {
    const response = await fetch(`${sandbox.url}/paypal/v1/oauth2/token`, {
      method: "POST",
      headers: { authorization: `Basic ${btoa("unit-client:unit-secret")}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    return ((await response.json()) as { access_token: string }).access_token;
  }
  async function control<T>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(
      `${sandbox.url}/__sandbox/paypal${path}`,
      body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    );
    return { status: response.status, body: (await response.json()) as T };
  }
  const eventTypes = async (subscription: string) => (await control<{ type: string }[]>(`/events?subject=${subscription}`)).body.map((event) => event.type);

  it("keeps each payment's sale; refunds part through the API, the rest through the control, and refuses more", async () => {
    const id = await activeSubscription("starter-monthly");
    const [saleRow] = (await control<{ id: string }[]>(`/sales?subscription=${id}`)).body;
    const sale = await paypal.getSale(env(), saleRow.id);
    expect(sale).toMatchObject({ state: "completed", amount: { total: "16.99", currency: "USD" }, billing_agreement_id: id });
    expect(sale.create_time).toBe((await paypal.getSubscription(env(), id)).billing_info?.last_payment?.time);
    // PAYMENT.SALE.COMPLETED carries the same sale.
    const [completed] = (await control<{ request: { body: string } }[]>(`/events?subject=${id}&type=PAYMENT.SALE.COMPLETED&signed=1`)).body;
    expect(JSON.parse(completed.request.body).resource.id).toBe(sale.id);

    const refund = await fetch(`${sandbox.url}/paypal/v1/payments/sale/${sale.id}/refund`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: { total: "5.00", currency: "USD" } }),
    });
    expect(refund.status).toBe(201);
    const refunded = (await refund.json()) as { id: string };
    expect(await paypal.getRefund(env(), refunded.id)).toMatchObject({ state: "completed", amount: { total: "5.00" }, sale_id: sale.id });
    expect((await paypal.getSale(env(), sale.id)).state).toBe("partially_refunded");
    expect((await control(`/sales/${sale.id}/refund`, { amount: "20.00" })).status).toBe(409);
    expect((await control(`/sales/${sale.id}/refund`, {})).body).toMatchObject({ amount: { total: "11.99" } });
    expect((await paypal.getSale(env(), sale.id)).state).toBe("refunded");
    expect((await control(`/sales/${sale.id}/refund`, {})).status).toBe(409);
    expect((await eventTypes(id)).filter((type) => type === "PAYMENT.SALE.REFUNDED")).toHaveLength(2);
  });

  it("opens a buyer's dispute; adjudicated for the buyer the sale is reversed, for the seller it stays", async () => {
    const lost = await activeSubscription("pro-monthly", "user-lost");
    const [sale] = (await control<{ id: string }[]>(`/sales?subscription=${lost}`)).body;
    const opened = (await control<{ dispute_id: string }>(`/sales/${sale.id}/dispute`, {})).body;
    expect(await paypal.getDispute(env(), opened.dispute_id)).toMatchObject({
      status: "OPEN",
      disputed_transactions: [{ seller_transaction_id: sale.id }],
      dispute_amount: { value: "29.99" },
    });
    const adjudicated = await fetch(`${sandbox.url}/paypal/v1/customer/disputes/${opened.dispute_id}/adjudicate`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
      body: JSON.stringify({ adjudication_outcome: "BUYER_FAVOR" }),
    });
    expect(adjudicated.status).toBe(200);
    expect(await paypal.getDispute(env(), opened.dispute_id)).toMatchObject({ status: "RESOLVED", dispute_outcome: { outcome_code: "RESOLVED_BUYER_FAVOUR" } });
    expect((await paypal.getSale(env(), sale.id)).state).toBe("reversed");
    expect((await eventTypes(lost)).slice(-3)).toEqual(["CUSTOMER.DISPUTE.CREATED", "CUSTOMER.DISPUTE.RESOLVED", "PAYMENT.SALE.REVERSED"]);

    const won = await activeSubscription("pro-monthly", "user-won");
    const [kept] = (await control<{ id: string }[]>(`/sales?subscription=${won}`)).body;
    const dispute = (await control<{ dispute_id: string }>(`/sales/${kept.id}/dispute`, {})).body;
    expect((await control(`/disputes/${dispute.dispute_id}/resolve`, { outcome: "SELLER_FAVOR" })).body).toMatchObject({
      status: "RESOLVED",
      dispute_outcome: { outcome_code: "RESOLVED_SELLER_FAVOUR" },
    });
    expect((await paypal.getSale(env(), kept.id)).state).toBe("completed");
    expect((await control(`/disputes/${dispute.dispute_id}/resolve`, { outcome: "BUYER_FAVOR" })).status).toBe(409);
    expect((await eventTypes(won)).slice(-2)).toEqual(["CUSTOMER.DISPUTE.CREATED", "CUSTOMER.DISPUTE.RESOLVED"]);
  });
});
