import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { billingCustomers } from "../../../workers/db/schema.ts";
import { SHOPIFY_CONNECT_FIRST_MESSAGE, SHOPIFY_MESSAGES } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  confirmShopifyCharge,
  creditsOf,
  credentialsOf,
  db,
  expectBadInput,
  newShop,
  post,
  SHOPIFY_ACTIVATE,
  SHOPIFY_START,
  connectShopifyStore,
  startShopify,
  subscribeShopify,
} from "./billing-support.ts";
import { read, sandbox } from "../support.ts";

// The Shopify calls of spec section 7 and the Shopify messages of section 8, against the sandbox's
// Shopify stand-in. The sandbox is shared with other test files that run alongside (the Shopify
// webhook tests among them): nothing here resets it, each test uses its own store, and every fault
// is scoped to that store's Admin API path, so no other test's request can take it.

const CANCEL = "/api/shopifySubscriptions/cancelShopifySubscription";

const subscribe = (user: TestUser, planId: string, shop = newShop("store")) => subscribeShopify(user, planId, shop);

/** A fault for the next request to this store's Admin API only. */
async function fault(shop: string, body: Record<string, unknown>) {
  await sandbox("/faults", {
    method: "POST",
    json: { service: "shopify", path: `/${shop}/admin/api/*`, ...body },
  });
}

describe("Shopify subscription", () => {
  it("starts a charge, is approved on Shopify's page and activates: Active with the plan's credits; again changes nothing", async () => {
    const user = await signUpUser();
    const shop = newShop("store");
    const started = await startShopify(user, {
      planId: "pro-monthly",
      shop,
      returnUrl: "/pricing?from=shopify",
    });
    expect(started.status).toBe(200);
    const { confirmationUrl } = await read(started);
    expect(confirmationUrl).toContain(`/shopify/${shop}/admin/charges/`);
    const [charge] = await sandbox<
      {
        name: string;
        status: string;
        trialDays: number;
        test: boolean;
        lineItems: { plan: { pricingDetails: unknown } }[];
      }[]
    >(`/shopify/subscriptions?shop=${shop}`);
    expect(charge).toMatchObject({
      status: "PENDING",
      trialDays: 7,
      test: true,
    });
    expect(charge.lineItems[0].plan.pricingDetails).toMatchObject({
      interval: "EVERY_30_DAYS",
      price: { amount: "29.99", currencyCode: "USD" },
    });

    const back = await confirmShopifyCharge(confirmationUrl);
    expect(back.origin + back.pathname).toBe("http://app.test/pricing");
    expect(back.searchParams.get("from")).toBe("shopify");
    expect(back.searchParams.get("planId")).toBe("pro-monthly");
    const chargeId = back.searchParams.get("charge_id")!;

    const activated = await post(SHOPIFY_ACTIVATE, user, { chargeId });
    expect(activated.status).toBe(200);
    const body = await read(activated);
    expect(body).toMatchObject({
      planName: "Pro",
      amount: 29.99,
      currency: "USD",
      subscriptionID: `gid://shopify/AppSubscription/${chargeId}`,
    });
    expect(body.profileUpdates).toMatchObject({
      planId: "pro-monthly",
      planStatus: "Active",
      usedFreeTrial: true,
    });
    expect(await creditsOf(user)).toMatchObject({
      planId: "pro-monthly",
      creditsPerMonth: 400,
      remaining: 400,
    });

    const again = await post(SHOPIFY_ACTIVATE, user, { chargeId: Number(chargeId) });
    expect(again.status).toBe(200);
    expect((await read(again)).profileUpdates).toEqual(body.profileUpdates);
    expect((await creditsOf(user)).remaining).toBe(400);
  });

  it("annual plans are charged annually", async () => {
    const user = await signUpUser();
    const { body } = await subscribe(user, "agency-annual");
    expect(body).toMatchObject({ planName: "Agency", amount: 699 });
    expect(await creditsOf(user)).toMatchObject({
      planId: "agency-annual",
      creditsPerMonth: 3000,
    });
  });

  it("does not activate a declined charge, nor another store's", async () => {
    const user = await signUpUser();
    const started = await startShopify(user, {
      planId: "starter-monthly",
      shop: newShop("store"),
    });
    const declined = await confirmShopifyCharge((await read(started)).confirmationUrl, "decline");
    expect(
      (
        await post(SHOPIFY_ACTIVATE, user, {
          chargeId: declined.searchParams.get("charge_id"),
        })
      ).status,
    ).toBe(404);
    expect(await credentialsOf(user)).toMatchObject({ planId: "free" });

    const owner = await signUpUser();
    const { chargeId } = await subscribe(owner, "growth-monthly");
    const stolen = await post(SHOPIFY_ACTIVATE, user, { chargeId });
    expect(stolen.status).toBe(404);
    expect(await credentialsOf(user)).toMatchObject({ planId: "free" });
    // Without any store connection at all.
    const stranger = await signUpUser();
    const unconnected = await post(SHOPIFY_ACTIVATE, stranger, { chargeId });
    expect(unconnected.status).toBe(409);
    expect(await read(unconnected)).toMatchObject({
      error: SHOPIFY_MESSAGES.expired,
    });
  });

  it("cancels: the plan stays until the period paid for ends; another user's is refused", async () => {
    const owner = await signUpUser();
    const { chargeId } = await subscribe(owner, "starter-monthly");
    const other = await signUpUser();
    await subscribe(other, "starter-monthly");
    expect(
      (
        await post(CANCEL, other, {
          subscriptionID: chargeId,
          cancelReason: "not mine",
        })
      ).status,
    ).toBe(404);
    expect(await credentialsOf(owner)).toMatchObject({
      planId: "starter-monthly",
      planStatus: "Active",
    });

    const cancelled = await post(CANCEL, owner, {
      subscriptionID: `gid://shopify/AppSubscription/${chargeId}`,
      cancelReason: "Closing the store",
    });
    expect(cancelled.status).toBe(200);
    const body = await read(cancelled);
    expect(body.message).toBe("Your subscription has been canceled.");
    expect(body.profileUpdates).toMatchObject({
      planId: "starter-monthly",
      planStatus: "Cancelled",
    });
    expect(Date.parse(body.profileUpdates.cancelSubscriptionDate)).toBeGreaterThan(Date.now());
    const [charge] = (await sandbox<{ id: string; status: string }[]>("/shopify/subscriptions")).filter((candidate) => candidate.id.endsWith(`/${chargeId}`));
    expect(charge.status).toBe("CANCELLED");
    expect(
      (
        await post(CANCEL, owner, {
          subscriptionID: chargeId,
          cancelReason: "again",
        })
      ).status,
    ).toBe(409);
  });

  it("answers bad input with 400 naming the field", async () => {
    const user = await signUpUser();
    const shopID = await connectShopifyStore(user, newShop("store"));
    await expectBadInput(await post(SHOPIFY_START, user, { shopID }), "planId");
    await expectBadInput(await post(SHOPIFY_START, user, { planId: "lifetime", shopID }), "planId");
    await expectBadInput(await post(SHOPIFY_START, user, { planId: "pro-monthly", shopID: "../other" }), "shopID");
    await expectBadInput(await post(SHOPIFY_START, user, { planId: "pro-monthly", shopID, returnUrl: "https://evil.example.com/" }), "returnUrl");
    await expectBadInput(await post(SHOPIFY_ACTIVATE, user, {}), "chargeId");
    await expectBadInput(await post(SHOPIFY_ACTIVATE, user, { chargeId: "abc" }), "chargeId");
    await expectBadInput(await post(CANCEL, user, { subscriptionID: "123" }), "cancelReason");
    await expectBadInput(await post(CANCEL, user, { cancelReason: "x" }), "subscriptionID");
  });
});

describe("the store billed is a connected store (decision 029)", () => {
  it("asks a user with no store to connect one first, and never bills another user's store", async () => {
    const user = await signUpUser();
    const unconnected = await post(SHOPIFY_START, user, { planId: "pro-monthly" });
    expect(unconnected.status).toBe(409);
    expect(await read(unconnected)).toMatchObject({ error: SHOPIFY_CONNECT_FIRST_MESSAGE, code: "connect_store" });
    expect(
      await db
        .select()
        .from(billingCustomers)
        .where(and(eq(billingCustomers.userId, user.userId), eq(billingCustomers.provider, "shopify"))),
    ).toEqual([]);

    const owner = await signUpUser();
    const ownersStore = await connectShopifyStore(owner, newShop("store"));
    const stolen = await post(SHOPIFY_START, user, { planId: "pro-monthly", shopID: ownersStore });
    expect(stolen.status).toBe(404);
    expect(await read(stolen)).toMatchObject({ field: "shopID" });
  });

  it("bills the active store without a shopID, with the store's token, which is never kept in the billing record", async () => {
    const user = await signUpUser();
    const shop = newShop("store");
    const token = "shpat_connectedstore0123456789";
    await connectShopifyStore(user, shop, token);
    const started = await post(SHOPIFY_START, user, { planId: "pro-monthly" });
    expect(started.status).toBe(200);
    expect((await read(started)).confirmationUrl).toContain(`/shopify/${shop}/admin/charges/`);
    const calls = await sandbox<{ path: string; headers: Record<string, string> }[]>("/requests?service=shopify");
    expect(calls.filter((call) => call.path === `/${shop}/admin/api/2025-01/graphql.json`).length).toBeGreaterThan(0);
    const [record] = await db
      .select()
      .from(billingCustomers)
      .where(and(eq(billingCustomers.userId, user.userId), eq(billingCustomers.provider, "shopify")));
    expect(record.customerRef.startsWith(`${shop} shop:`)).toBe(true);
    expect(record.customerRef).not.toContain(token);
  });

  it("keeps the billed store when Shopify refuses the token", async () => {
    const user = await signUpUser();
    const shop = newShop("store");
    expect((await startShopify(user, { planId: "pro-monthly", shop })).status).toBe(200);
    const [before] = await db
      .select()
      .from(billingCustomers)
      .where(and(eq(billingCustomers.userId, user.userId), eq(billingCustomers.provider, "shopify")));
    await fault(shop, { status: 401, body: { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" } });
    const refused = await post(SHOPIFY_START, user, { planId: "pro-monthly" });
    expect(refused.status).toBe(409);
    expect(await read(refused)).toMatchObject({ error: SHOPIFY_MESSAGES.expired });
    const [after] = await db
      .select()
      .from(billingCustomers)
      .where(and(eq(billingCustomers.userId, user.userId), eq(billingCustomers.provider, "shopify")));
    expect(after.customerRef).toBe(before.customerRef);
  });
});

describe("Shopify failures answer the section 8 messages", () => {
  async function startWithFault(body: Record<string, unknown>) {
    const user = await signUpUser();
    const shop = newShop("store");
    await fault(shop, body);
    const response = await startShopify(user, {
      planId: "starter-annual",
      shop,
    });
    return { status: response.status, body: await read(response) };
  }

  it("a store that refuses the token: reconnect (409, never a 401 that would sign the user out)", async () => {
    const answer = await startWithFault({
      status: 401,
      body: {
        errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
      },
    });
    expect(answer).toEqual({
      status: 409,
      body: {
        error: SHOPIFY_MESSAGES.expired,
        code: "store_connection_expired",
      },
    });
  });

  it("missing permissions", async () => {
    const answer = await startWithFault({
      status: 403,
      body: { errors: "Access denied for appSubscriptionCreate field." },
    });
    expect(answer).toEqual({
      status: 409,
      body: { error: SHOPIFY_MESSAGES.forbidden, code: "permission_denied" },
    });
  });

  it("invalid data, with Shopify's words after the prefix", async () => {
    const answer = await startWithFault({
      status: 422,
      body: { errors: { price: ["must be greater than 0"] } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: "Invalid data: price must be greater than 0",
      code: "invalid_data",
    });
  });

  it("a GraphQL error gets the annual-subscription prefix and code graphql_error", async () => {
    const answer = await startWithFault({
      status: 200,
      body: {
        errors: [
          {
            message: "Internal error. Looks like something went wrong on our end.",
          },
        ],
      },
    });
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({
      error: `${SHOPIFY_MESSAGES.graphqlPrefix}Internal error. Looks like something went wrong on our end.`,
      code: "graphql_error",
    });
  });

  it("a server error is reported, not hidden", async () => {
    const answer = await startWithFault({
      status: 500,
      body: { errors: "Internal Server Error" },
    });
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({
      error: "Shopify error: Internal Server Error",
      code: "shopify_error",
    });
  });

  it("no answer in time", async () => {
    const answer = await startWithFault({ delayMs: 3_000 });
    expect(answer).toEqual({
      status: 503,
      body: { error: SHOPIFY_MESSAGES.timeout, code: "timeout" },
    });
  });

  it("the same messages when activating and cancelling", async () => {
    const user = await signUpUser();
    const { chargeId, shop } = await subscribe(user, "starter-monthly");
    await fault(shop, { status: 401 });
    const activation = await post(SHOPIFY_ACTIVATE, user, { chargeId });
    expect(activation.status).toBe(409);
    expect(await read(activation)).toMatchObject({
      error: SHOPIFY_MESSAGES.expired,
    });
    await fault(shop, { status: 403 });
    const cancel = await post(CANCEL, user, {
      subscriptionID: chargeId,
      cancelReason: "bye",
    });
    expect(cancel.status).toBe(409);
    expect(await read(cancel)).toMatchObject({
      error: SHOPIFY_MESSAGES.forbidden,
    });
    expect(await credentialsOf(user)).toMatchObject({
      planId: "starter-monthly",
      planStatus: "Active",
    });
  });
});
