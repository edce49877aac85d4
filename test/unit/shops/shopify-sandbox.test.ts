import { describe, expect, it } from "vitest";
import * as shopify from "../../../workers/integrations/shopify.ts";
import { useSandbox } from "../../support/sandbox.ts";
import { rejectionOf } from "../../support/rejection.ts";
import { PRO_MONTHLY_CHARGE } from "./shopify-charge.ts";

// The worker's Shopify client against the Shopify stand-in, as the worker uses it.
const sandbox = useSandbox();
const env = () => ({
  SHOPIFY_ADMIN_URL: `${sandbox.url}/shopify/{shop}/admin/api`,
  SHOPIFY_API_VERSION: "2025-01",
  SHOPIFY_TIMEOUT_MS: "1000",
});
const SHOP = "unit-store.myshopify.com";
const TOKEN = "shpat_unit0123456789";
const CHARGE = PRO_MONTHLY_CHARGE;

const failure = (promise: Promise<unknown>) => rejectionOf(promise, shopify.ShopifyError);

async function confirm(url: string, action: "approve" | "decline" = "approve") {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("$29.99 USD every 30 days");
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `action=${action}`,
    redirect: "manual",
  });
}

async function fault(body: Record<string, unknown>) {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ service: "shopify", ...body }),
  });
  expect(response.status).toBe(201);
}

describe("Shopify stand-in", () => {
  it("creates a pending charge; approving it makes it an active subscription and returns with charge_id", async () => {
    const created = await shopify.createAppSubscription(env(), SHOP, TOKEN, CHARGE);
    expect(created.appSubscription).toMatchObject({ status: "PENDING" });
    expect(created.confirmationUrl).toContain(`/shopify/${SHOP}/admin/charges/`);
    expect(await shopify.activeSubscriptions(env(), SHOP, TOKEN)).toEqual([]);

    const approved = await confirm(created.confirmationUrl);
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get("location")!);
    expect(back.searchParams.get("provider")).toBe("shopify");
    const chargeId = back.searchParams.get("charge_id")!;
    expect(created.appSubscription.id).toBe(`gid://shopify/AppSubscription/${chargeId}`);

    const [active] = await shopify.activeSubscriptions(env(), SHOP, TOKEN);
    expect(active).toMatchObject({
      id: created.appSubscription.id,
      status: "ACTIVE",
      trialDays: 7,
      test: true,
      name: CHARGE.name,
    });
    expect(active.lineItems[0].plan.pricingDetails).toMatchObject({
      interval: "EVERY_30_DAYS",
      price: { amount: "29.99", currencyCode: "USD" },
    });
    // Another store does not see it.
    expect(await shopify.activeSubscriptions(env(), "other-store.myshopify.com", TOKEN)).toEqual([]);

    const cancelled = await shopify.cancelAppSubscription(env(), SHOP, TOKEN, active.id);
    expect(cancelled.status).toBe("CANCELLED");
    expect(await shopify.activeSubscriptions(env(), SHOP, TOKEN)).toEqual([]);
    const again = await failure(shopify.cancelAppSubscription(env(), SHOP, TOKEN, active.id));
    expect(again.kind).toBe("graphql");
  });

  it("declining redirects back too, and leaves nothing active", async () => {
    const created = await shopify.createAppSubscription(env(), SHOP, TOKEN, CHARGE);
    const declined = await confirm(created.confirmationUrl, "decline");
    expect(new URL(declined.headers.get("location")!).searchParams.get("charge_id")).toBeTruthy();
    expect(await shopify.activeSubscriptions(env(), SHOP, TOKEN)).toEqual([]);
  });

  it("answers bad input as userErrors and a bad token as Shopify's 401", async () => {
    const invalid = await failure(shopify.createAppSubscription(env(), SHOP, TOKEN, { ...CHARGE, price: 0 }));
    expect(invalid).toMatchObject({ kind: "graphql" });
    expect(invalid.details).toContain("Price must be greater than 0");
    const unauthorized = await failure(shopify.activeSubscriptions(env(), SHOP, "not-a-token"));
    expect(unauthorized).toMatchObject({ kind: "http", status: 401 });
    expect(unauthorized.details).toContain("Invalid API key or access token");
  });

  it("tells injected failures apart: HTTP statuses, GraphQL errors and timeouts", async () => {
    await fault({ status: 403, body: { errors: "User does not have access" } });
    expect(await failure(shopify.activeSubscriptions(env(), SHOP, TOKEN))).toMatchObject({
      kind: "http",
      status: 403,
      details: "User does not have access",
    });
    await fault({ status: 422, body: { errors: { name: ["is too long"] } } });
    expect(await failure(shopify.activeSubscriptions(env(), SHOP, TOKEN))).toMatchObject({ kind: "http", status: 422, details: "name is too long" });
    // THROTTLED: waited out as the cost extension says and asked again, within bounds (three retries).
    const throttled = {
      status: 200,
      body: {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
        extensions: {
          cost: { requestedQueryCost: 10, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 1000 } },
        },
      },
    };
    await fault(throttled);
    expect(await shopify.activeSubscriptions(env(), SHOP, TOKEN)).toEqual([]);
    await fault({ ...throttled, times: 4 });
    expect(await failure(shopify.activeSubscriptions(env(), SHOP, TOKEN))).toMatchObject({ kind: "throttled", status: 429 });
    await fault({ status: 429, headers: { "retry-after": "0" } });
    expect(await shopify.activeSubscriptions(env(), SHOP, TOKEN)).toEqual([]);
    await fault({ delayMs: 2_500 });
    expect(await failure(shopify.activeSubscriptions(env(), SHOP, TOKEN))).toMatchObject({ kind: "timeout", status: null });
  });

  it("reports an unreachable store as a network error", async () => {
    const unreachable = {
      ...env(),
      SHOPIFY_ADMIN_URL: "http://127.0.0.1:9/shopify/{shop}/admin/api",
    };
    expect(await failure(shopify.activeSubscriptions(unreachable, SHOP, TOKEN))).toMatchObject({ kind: "network" });
  });
});

describe("Shopify stand-in's Partner API (decision 077)", () => {
  const partner = () => ({
    SHOPIFY_PARTNER_API_URL: `${sandbox.url}/shopify/partners/4100100/api/2026-07/graphql.json`,
    SHOPIFY_PARTNER_APP_ID: "gid://partners/App/7654321",
    SHOPIFY_PARTNER_ACCESS_TOKEN: "prtapi_unit0123456789",
    SHOPIFY_TIMEOUT_MS: "1000",
  });
  const refund = (id: string, body: unknown = {}) =>
    fetch(`${sandbox.url}/__sandbox/shopify/subscriptions/${id}/refund`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("lists a refund of an app charge as an AppSaleAdjustment of our app, never a billed interval, and refuses what was not billed", async () => {
    const shop = `partner-${Date.now()}.myshopify.com`;
    const since = new Date(Date.now() - 60_000).toISOString();
    const created = await shopify.createAppSubscription(env(), shop, TOKEN, { ...CHARGE, trialDays: 0 });
    // Nothing billed while it waits for the merchant's approval.
    const pending = created.appSubscription.id.split("/").pop()!;
    expect((await refund(pending)).status).toBe(409);
    expect((await confirm(created.confirmationUrl)).status).toBe(303);

    expect((await refund(pending, { amount: "10.00" })).status).toBe(200);
    expect((await refund(pending, { amount: "25.00" })).status).toBe(409);
    const rest = await refund(pending);
    expect(await rest.json()).toMatchObject({ __typename: "AppSaleAdjustment", grossAmount: { amount: "-19.99", currencyCode: "USD" } });

    const { adjustments, hasNextPage } = await shopify.appSaleAdjustments(partner(), { createdAtMin: since, after: null });
    const ours = adjustments.filter((adjustment) => adjustment.shop?.myshopifyDomain === shop);
    expect(ours.map((adjustment) => adjustment.grossAmount?.amount)).toEqual(["-10.00", "-19.99"]);
    expect(ours[0]).toMatchObject({ chargeId: created.appSubscription.id, netAmount: { amount: "-8.50" } });
    expect(hasNextPage).toBe(false);
    // Another app's transactions, or a token that is not a Partner API token: nothing, or 401.
    expect(
      (await shopify.appSaleAdjustments({ ...partner(), SHOPIFY_PARTNER_APP_ID: "gid://partners/App/1" }, { createdAtMin: since, after: null })).adjustments,
    ).toEqual([]);
    expect(
      await failure(shopify.appSaleAdjustments({ ...partner(), SHOPIFY_PARTNER_ACCESS_TOKEN: "shpat_not_partner" }, { createdAtMin: since, after: null })),
    ).toMatchObject({ kind: "http", status: 401 });
  });
});
