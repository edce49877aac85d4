import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptions, webhookEvents } from "../../../workers/db/schema.ts";
import * as shopify from "../../../workers/integrations/shopify.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  creditsOf,
  credentialsOf,
  db,
  deliverAllTo,
  deliverTo,
  grantsOf,
  newShop,
  shopifyCharge as charge,
  shopifyDeliveries as deliveries,
  shopifyHmac as hmac,
  startShopify,
  SHOPIFY_TOKEN,
  SHOPIFY_WEBHOOK as WEBHOOK,
  startShopifyCharge,
  subscribeShopify,
  type DeliveryOverride,
  type OutboxDelivery,
  spendCredits,
} from "./billing-support.ts";
import { read, sandbox, testEnv } from "../support.ts";

// POST /api/shopify/webhook (APP_SUBSCRIPTIONS_UPDATE) against the Shopify stand-in: verified by
// X-Shopify-Hmac-Sha256, applied once per X-Shopify-Webhook-Id, the charge re-read from the store
// (so order does not matter), and a renewal (currentPeriodEnd moved on) starts the month's credits
// afresh. The test delivers the stand-in's signed requests itself. The sandbox is shared with other
// files: nothing here resets it; every test uses its own stores.

const DAY = 86_400_000;

const deliver = (event: OutboxDelivery, override?: DeliveryOverride) => deliverTo(WEBHOOK, event.request, override);
const deliverAll = (events: OutboxDelivery[]) => deliverAllTo(WEBHOOK, events);

/** Starts a charge for the user's own new store and approves it on Shopify's page; the browser does not come back. */
const startAndApprove = (user: TestUser, planId: string, shop = newShop("hooks"), action: "approve" | "decline" = "approve") =>
  startShopifyCharge(user, planId, shop, action);
const subscribe = (user: TestUser, planId: string) => subscribeShopify(user, planId, newShop("hooks"));

describe("Shopify webhook", () => {
  it("refuses deliveries whose HMAC does not verify and applies nothing; a good one activates the plan when the browser never came back", async () => {
    const user = await signUpUser();
    const { shop } = await startAndApprove(user, "pro-monthly");
    const [update] = await deliveries(shop);
    expect(update).toMatchObject({ type: "app_subscriptions/update" });
    expect(JSON.parse(update.request.body).app_subscription).toMatchObject({ status: "ACTIVE" });

    const refused = [
      await deliver(update, { body: update.request.body.replace('"status":"ACTIVE"', '"status":"CANCELLED"') }),
      await deliver(update, { headers: { "x-shopify-hmac-sha256": await hmac(update.request.body, "shpss_someone_elses_secret") } }),
      await deliver(update, { headers: { "x-shopify-hmac-sha256": "not base64 at all!" } }),
      await deliver(update, { headers: { "x-shopify-hmac-sha256": btoa("short") } }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(400);
      expect(await read(response)).toEqual({ error: "Invalid Shopify HMAC" });
    }
    const unsigned = await deliver(update, { headers: { "x-shopify-hmac-sha256": null } });
    expect(unsigned.status).toBe(400);
    expect(await read(unsigned)).toEqual({ error: "Missing X-Shopify-Hmac-Sha256 header" });
    expect((await deliver(update, { headers: { "x-shopify-webhook-id": null } })).status).toBe(400);

    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.eventId, update.id))).toHaveLength(0);
    expect(await credentialsOf(user)).toMatchObject({ planId: "free", planStatus: "Inactive" });

    const good = await deliver(update, { headers: { "x-shopify-hmac-sha256": await hmac(update.request.body, testEnv.SHOPIFY_CLIENT_SECRET) } });
    expect(good.status).toBe(200);
    expect(await read(good)).toEqual({ received: true });
    expect(await credentialsOf(user)).toMatchObject({ planId: "pro-monthly", planStatus: "Active", usedFreeTrial: true });
    expect(await creditsOf(user)).toMatchObject({ planId: "pro-monthly", creditsPerMonth: 400, remaining: 400 });
  });

  it("applies each webhook once: every delivery twice leaves the same state and one month's grant; a declined charge binds nothing", async () => {
    const user = await signUpUser();
    const { shop } = await startAndApprove(user, "growth-monthly");
    const events = await deliveries(shop);
    expect(await deliverAll(events)).toEqual([{ received: true }]);
    const state = await credentialsOf(user);
    const credits = await creditsOf(user);
    expect(await deliverAll(events)).toEqual([{ received: true, duplicate: true }]);
    expect(await credentialsOf(user)).toEqual(state);
    expect(await creditsOf(user)).toEqual(credits);
    expect(state).toMatchObject({ planId: "growth-monthly", planStatus: "Active" });
    expect(await grantsOf(user.userId, "growth-monthly")).toHaveLength(1);

    const decliner = await signUpUser();
    const declined = await startAndApprove(decliner, "starter-monthly", newShop("hooks"), "decline");
    const [update] = await deliveries(declined.shop);
    expect(JSON.parse(update.request.body).app_subscription.status).toBe("DECLINED");
    expect((await deliver(update)).status).toBe(200);
    expect(await credentialsOf(decliner)).toMatchObject({ planId: "free", planStatus: "Inactive" });
  });

  it("ends in Shopify's current state when deliveries come out of order: cancelled stays cancelled until the period ends", async () => {
    const user = await signUpUser();
    const { shop, gid } = await startAndApprove(user, "starter-monthly");
    // The merchant cancels in Shopify's admin; the webhooks arrive newest first, the browser never came back.
    await shopify.cancelAppSubscription(testEnv, shop, SHOPIFY_TOKEN, gid);
    const events = await deliveries(shop);
    expect(events.map((event) => JSON.parse(event.request.body).app_subscription.status)).toEqual(["ACTIVE", "CANCELLED"]);
    await deliverAll([...events].reverse());

    const credentials = await credentialsOf(user);
    expect(credentials).toMatchObject({ planId: "starter-monthly", planStatus: "Cancelled" });
    expect(Date.parse(credentials.cancelSubscriptionDate!)).toBe(Date.parse((await charge(gid)).currentPeriodEnd!));
  });

  it("starts the month's credits afresh on a renewal (currentPeriodEnd moved on), once per period", async () => {
    const user = await signUpUser();
    const { chargeId, gid, shop } = await subscribe(user, "agency-monthly");
    await spendCredits(user, 40);
    expect(await creditsOf(user)).toMatchObject({ creditsPerMonth: 3000, usedPinCredits: 40, remaining: 2960 });
    // The first update arriving after activation moves nothing.
    await deliverAll(await deliveries(shop));
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 40, remaining: 2960 });

    // Shopify times are whole seconds: let the spend's second pass before the new period begins.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const renewed = await sandbox<{ currentPeriodEnd: string }>(`/shopify/subscriptions/${chargeId}/renew`, { method: "POST" });
    const events = await deliveries(shop);
    const renewal = events.at(-1)!;
    expect(await creditsOf(user)).toMatchObject({ remaining: 2960 });
    expect((await deliver(renewal)).status).toBe(200);

    const credits = await creditsOf(user);
    expect(credits).toMatchObject({ planId: "agency-monthly", creditsPerMonth: 3000, usedPinCredits: 0, remaining: 3000 });
    expect(Date.parse(credits.periodStart)).toBe(Date.parse(renewed.currentPeriodEnd) - 30 * DAY);
    expect(await read(await deliver(renewal))).toEqual({ received: true, duplicate: true });
    // An older update delivered again under a new webhook id re-reads the same charge: nothing moves.
    const replayed = await deliver(events[0], { headers: { "x-shopify-webhook-id": crypto.randomUUID() } });
    expect(replayed.status).toBe(200);
    expect(await creditsOf(user)).toEqual(credits);
    expect(await grantsOf(user.userId, "agency-monthly")).toHaveLength(2);
    const [record] = await db.select().from(subscriptions).where(eq(subscriptions.providerRef, gid));
    expect(record).toMatchObject({ userId: user.userId, status: "active", periodEnd: Date.parse(renewed.currentPeriodEnd) });
  });

  it("never touches another user's subscription, even when a genuine webhook is replayed for another store", async () => {
    const alice = await signUpUser();
    const bob = await signUpUser();
    const aliceCharge = await subscribe(alice, "starter-monthly");
    const bobCharge = await subscribe(bob, "pro-monthly");
    const bobBefore = { credentials: await credentialsOf(bob), credits: await creditsOf(bob) };

    await shopify.cancelAppSubscription(testEnv, aliceCharge.shop, SHOPIFY_TOKEN, aliceCharge.gid);
    const aliceEvents = await deliveries(aliceCharge.shop);
    await deliverAll(aliceEvents);
    expect(await credentialsOf(alice)).toMatchObject({ planId: "starter-monthly", planStatus: "Cancelled" });
    // Alice's cancellation, re-sent as if from Bob's store: the charge is Alice's and so is her store.
    const replay = await deliver(aliceEvents.at(-1)!, { headers: { "x-shopify-shop-domain": bobCharge.shop, "x-shopify-webhook-id": crypto.randomUUID() } });
    expect(replay.status).toBe(200);

    expect(await credentialsOf(bob)).toEqual(bobBefore.credentials);
    expect(await creditsOf(bob)).toEqual(bobBefore.credits);
    const [bobRecord] = await db.select().from(subscriptions).where(eq(subscriptions.providerRef, bobCharge.gid));
    // Bob is still in his free trial, untouched by the replay.
    expect(bobRecord).toMatchObject({ userId: bob.userId, status: "trialing", cancelAtPeriodEnd: false });

    // A charge of a store two users connected, approved but never activated: nobody is given it.
    const shared = newShop("hooks");
    const carol = await signUpUser();
    const dave = await signUpUser();
    await startShopify(carol, { planId: "growth-monthly", shop: shared });
    const unbound = await startAndApprove(dave, "growth-monthly", shared);
    const update = (await deliveries(shared)).find((event) => event.object === unbound.gid)!;
    expect((await deliver(update)).status).toBe(200);
    expect(await credentialsOf(carol)).toMatchObject({ planId: "free" });
    expect(await credentialsOf(dave)).toMatchObject({ planId: "free" });
  });
});
