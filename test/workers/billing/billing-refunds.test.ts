import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { affiliateCommissions, affiliateCustomers, creditLedger, referrals, users } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { stripeClient } from "../../../workers/integrations/stripe.ts";
import { recordCommission } from "../../../workers/services/growth/affiliates.ts";
import { planById } from "../../../workers/services/billing/plan-lookups.ts";
import { sweepShopifyAdjustments } from "../../../workers/services/billing/shopify-billing.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  commissionsOf,
  credentialsOf,
  creditsOf,
  currentSubscriptionOf,
  db,
  deliverAllTo,
  newAffiliate,
  newShop,
  PAYPAL_WEBHOOK,
  paypalDeliveries,
  payHostedCheckout,
  post,
  referralCreditsAt,
  referredCustomer,
  SHOPIFY_WEBHOOK,
  shopifyCharge,
  shopifyDeliveries,
  signedEvents,
  spendCredits,
  startAndApprovePayPal,
  STRIPE_WEBHOOK,
  stripeCustomerOf,
  stripeReferrer,
  subscribe,
  subscribeShopify,
  usedTrial,
} from "./billing-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// Refunds, disputes and chargebacks (issue 37, decision 077): a payment taken back takes back what it bought,
// once: the affiliate's commission (a negative entry, netted from the next payout when it was paid already),
// the referrer's $16.99 credit it earned, and the plan period it bought with that month's paid credits. The
// payments come from the stand-ins as a real customer's would; the refunds and disputes are made there.

const DAY = 86_400_000;

/** Delivers every event the Stripe stand-in raised for the customer (those delivered before answer duplicate). */
async function deliverStripe(customer: string) {
  return deliverAllTo(STRIPE_WEBHOOK, await signedEvents(customer));
}

async function chargesOf(customer: string) {
  return sandbox<{ id: string; amount: number; refunded: boolean }[]>(`/stripe/charges?customer=${customer}`);
}

/** Everything a payment bought, as the user, the affiliate and the referrer see it now. */
async function takenBackState(user: TestUser, referrerCustomer: string) {
  const [credentials, credits, current, commissions, credit, [referral]] = await Promise.all([
    credentialsOf(user),
    creditsOf(user),
    currentSubscriptionOf(user),
    commissionsOf(user.userId),
    referralCreditsAt(referrerCustomer, user.userId),
    db.select().from(referrals).where(eq(referrals.referredUserId, user.userId)),
  ]);
  return {
    plan: { planId: credentials.planId, planStatus: credentials.planStatus },
    credits: { planId: credits.planId, creditsPerMonth: credits.creditsPerMonth, usedPinCredits: credits.usedPinCredits, remaining: credits.remaining },
    takenBack: current.takenBack && { planName: current.takenBack.planName, reason: current.takenBack.reason },
    commissions: commissions.map((row) => ({ amountCents: row.amountCents, commissionCents: row.commissionCents, reverses: row.reversesChargeRef })),
    referralCredits: credit.amounts,
    referredSale: referral.firstPaidAt !== null,
  };
}

async function dashboardOf(user: TestUser) {
  const response = await app("/api/affiliate/getAffiliateData", { headers: bearer(user.tokens) });
  expect(response.status).toBe(200);
  return read(response);
}

async function admin(): Promise<TestUser> {
  const user = await signUpUser();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, user.userId));
  return user;
}

async function payoutRow(adminUser: TestUser, affiliateID: string) {
  const report = await read(await app("/api/admin/affiliatePayouts", { headers: bearer(adminUser.tokens) }));
  return report.payouts.find((row: { affiliateID: string }) => row.affiliateID === affiliateID) ?? null;
}

/** A customer an affiliate sent and a friend referred, subscribed to Pro through Stripe, its webhooks applied. */
async function paidReferredSubscriber() {
  const affiliate = await newAffiliate();
  const { customer: referrerCustomer, code } = await stripeReferrer();
  const friend = await referredCustomer(code, affiliate.affiliateID);
  await subscribe(friend, "pro-monthly");
  const customer = await stripeCustomerOf(friend);
  await deliverStripe(customer);
  return { affiliate, referrerCustomer, code, friend, customer };
}

describe("Stripe refunds and disputes", () => {
  it("a referred, affiliate-sent subscriber refunded in full: commission, referral credit, plan and the month's paid credits taken back, once", async () => {
    const { affiliate, referrerCustomer, code, friend, customer } = await paidReferredSubscriber();
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({
      plan: { planId: "pro-monthly", planStatus: "Active" },
      credits: { planId: "pro-monthly", remaining: 400 },
      commissions: [{ amountCents: 2999, commissionCents: 750, reverses: null }],
      referralCredits: [-1699],
      referredSale: true,
    });
    // More than Free's 10 credits are spent before the refund.
    await spendCredits(friend, 15);

    // Refunded from Stripe's dashboard (the API call it makes).
    const [charge] = await chargesOf(customer);
    await stripeClient(testEnv).refunds.create({ charge: charge.id, reason: "requested_by_customer" });
    const answers = await deliverStripe(customer);
    expect(answers.filter((answer) => !answer.duplicate).length).toBeGreaterThan(0);
    // The refund ended the subscription at Stripe (its deleted event is delivered too).
    expect((await sandbox<{ status: string }[]>(`/stripe/subscriptions?customer=${customer}`))[0].status).toBe("canceled");
    await deliverStripe(customer);

    const after = await takenBackState(friend, referrerCustomer);
    expect(after).toEqual({
      plan: { planId: "free", planStatus: "Inactive" },
      // The month continues on Free: its 10 credits, the 15 spent stay spent, nothing left (never below 0).
      credits: { planId: "free", creditsPerMonth: 10, usedPinCredits: 15, remaining: 0 },
      takenBack: { planName: "Pro", reason: "refunded" },
      commissions: [
        { amountCents: 2999, commissionCents: 750, reverses: null },
        { amountCents: -2999, commissionCents: -750, reverses: expect.stringMatching(/^in_/) },
      ],
      referralCredits: [-1699, 1699],
      referredSale: false,
    });
    // No paid grant counts in the month any more: each one in it is kept as taken back (amount 0).
    const month = await creditsOf(friend);
    const inMonth = (
      await ledgerOf(testEnv, friend.userId)
        .db.select()
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, friend.userId), eq(creditLedger.category, "grant")))
    ).filter((row) => row.createdAt >= Date.parse(month.periodStart) && row.createdAt < Date.parse(month.periodEnd));
    expect(inMonth.filter((row) => row.amount > 0 && !row.reference.startsWith("grant:free:"))).toEqual([]);
    expect(inMonth.some((row) => row.reference.startsWith("taken-back:grant:") && row.amount === 0)).toBe(true);
    // The referrer's balance is back where it was, and the friend is no referred sale any more.
    expect(await read(await app(`/api/referrals/getReferralProfile/${code}`))).toMatchObject({ referredSales: 0 });
    const dashboard = await dashboardOf(affiliate);
    expect(dashboard).toMatchObject({ sales: 1, commission: { pendingCents: 0, payableCents: 0, paidCents: 0 } });
    expect(dashboard.recentSales.map((sale: { kind: string; commissionCents: number }) => [sale.kind, sale.commissionCents]).sort()).toEqual([
      ["refund", -750],
      ["sale", 750],
    ]);

    // Delivered again (Stripe retries, or sends an event twice): nothing changes.
    const refunded = (await signedEvents(customer, "charge.refunded"))[0];
    expect(await deliverAllTo(STRIPE_WEBHOOK, [refunded, refunded])).toEqual([
      { received: true, duplicate: true },
      { received: true, duplicate: true },
    ]);
    expect(await takenBackState(friend, referrerCustomer)).toEqual(after);

    // The friend subscribes again and this payment sticks: it is their first payment now, and earns the credit again.
    await subscribe(friend, "starter-monthly");
    await deliverStripe(customer);
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({
      plan: { planId: "starter-monthly", planStatus: "Active" },
      takenBack: null,
      referralCredits: [-1699, -1699, 1699],
      referredSale: true,
    });
    expect((await commissionsOf(friend.userId)).map((row) => row.commissionCents)).toEqual([750, -750, 425]);
  });

  it("a commission already paid out is taken off the next payout: the report nets the negative entry", async () => {
    const affiliate = await newAffiliate();
    const customer = await signUpUser();
    await usedTrial(customer);
    const now = Date.now();
    await db
      .insert(affiliateCustomers)
      .values({ userId: customer.userId, affiliateId: affiliate.affiliateID, clickedAt: now, attributedAt: now, source: "signup" });
    await subscribe(customer, "agency-annual");
    const stripeCustomer = await stripeCustomerOf(customer);
    await deliverStripe(stripeCustomer);
    const [sale] = await commissionsOf(customer.userId);
    expect(sale).toMatchObject({ amountCents: 69900, commissionCents: 17475 });
    // The sale was 40 days ago: out of its hold, and paid out.
    await db
      .update(affiliateCommissions)
      .set({ chargedAt: now - 40 * DAY, payableAt: now - 10 * DAY })
      .where(eq(affiliateCommissions.chargeRef, sale.chargeRef));
    const adminUser = await admin();
    expect((await post("/api/admin/affiliatePayouts/markPaid", adminUser, { affiliateID: affiliate.affiliateID, amountCents: 17475 })).status).toBe(200);

    // Two more sales of another customer, payable now; then the first one is refunded.
    const other = await signUpUser();
    await db
      .insert(affiliateCustomers)
      .values({ userId: other.userId, affiliateId: affiliate.affiliateID, clickedAt: now, attributedAt: now, source: "signup" });
    const plan = await planById(testEnv, "agency-annual");
    for (const n of [1, 2]) {
      await recordCommission(testEnv, {
        provider: "stripe",
        chargeRef: `in_netting_${crypto.randomUUID().slice(0, 8)}_${n}`,
        userId: other.userId,
        plan,
        amountCents: 69900,
        currency: "usd",
        chargedAt: now - 40 * DAY,
      });
    }
    const [charge] = await chargesOf(stripeCustomer);
    await sandbox(`/stripe/charges/${charge.id}/refund`, { method: "POST", json: {} });
    await deliverStripe(stripeCustomer);

    expect(await payoutRow(adminUser, affiliate.affiliateID)).toMatchObject({ payableCents: 17475, refundedCents: 17475, sales: 2 });
    expect((await dashboardOf(affiliate)).commission).toEqual({ pendingCents: 0, payableCents: 17475, paidCents: 17475 });
    const paid = await post("/api/admin/affiliatePayouts/markPaid", adminUser, { affiliateID: affiliate.affiliateID, amountCents: 17475 });
    expect(paid.status).toBe(200);
    expect(await payoutRow(adminUser, affiliate.affiliateID)).toBeNull();
    expect((await dashboardOf(affiliate)).commission).toEqual({ pendingCents: 0, payableCents: 0, paidCents: 34950 });
  });

  it("a lifetime purchase earns no commission but the referral credit; refunded, the credit and the plan go back", async () => {
    const affiliate = await newAffiliate();
    const { customer: referrerCustomer, code } = await stripeReferrer();
    const friend = await referredCustomer(code, affiliate.affiliateID);
    const start = await post("/api/stripeSubscriptions/startStripeOnceOffPayment", friend, {
      stripePriceID: "price_lifetime",
      planId: "lifetime",
      returnUrl: "/lifetime",
    });
    expect(start.status).toBe(200);
    expect((await payHostedCheckout((await read(start)).redirectUrl)).status).toBe(303);
    const customer = await stripeCustomerOf(friend);
    await deliverStripe(customer);
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({ plan: { planId: "lifetime" }, commissions: [], referralCredits: [-1699] });

    const [charge] = await chargesOf(customer);
    await stripeClient(testEnv).refunds.create({ charge: charge.id });
    await deliverStripe(customer);
    await deliverStripe(customer);
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({
      plan: { planId: "free" },
      credits: { planId: "free", remaining: 10 },
      takenBack: { planName: "Lifetime", reason: "refunded" },
      commissions: [],
      referralCredits: [-1699, 1699],
      referredSale: false,
    });
  });

  it("a partial refund takes back the same share of the commission and keeps the plan and the referral credit; the rest takes back all", async () => {
    const { referrerCustomer, friend, customer } = await paidReferredSubscriber();
    const [charge] = await chargesOf(customer);

    await stripeClient(testEnv).refunds.create({ charge: charge.id, amount: 1500 });
    await deliverStripe(customer);
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({
      plan: { planId: "pro-monthly", planStatus: "Active" },
      credits: { planId: "pro-monthly", remaining: 400 },
      takenBack: null,
      commissions: [
        { amountCents: 2999, commissionCents: 750 },
        { amountCents: -1500, commissionCents: -375 },
      ],
      referralCredits: [-1699],
      referredSale: true,
    });

    await stripeClient(testEnv).refunds.create({ charge: charge.id });
    await deliverStripe(customer);
    await deliverStripe(customer);
    const state = await takenBackState(friend, referrerCustomer);
    expect(state).toMatchObject({ plan: { planId: "free" }, referralCredits: [-1699, 1699], referredSale: false });
    expect(state.commissions.map((row) => row.commissionCents)).toEqual([750, -375, -375]);
  });

  it("a dispute takes back only once lost (closed delivered before created: the same); a won one takes back nothing", async () => {
    const affiliate = await newAffiliate();
    const { customer: referrerCustomer, code } = await stripeReferrer();
    const lost = await referredCustomer(code, affiliate.affiliateID);
    const won = await referredCustomer(code, affiliate.affiliateID);
    for (const user of [lost, won]) {
      await subscribe(user, "pro-monthly");
      await deliverStripe(await stripeCustomerOf(user));
    }

    // Lost: the bank decides for the customer. Its events arrive newest first.
    const lostCustomer = await stripeCustomerOf(lost);
    const [lostCharge] = await chargesOf(lostCustomer);
    const dispute = await sandbox<{ id: string }>(`/stripe/charges/${lostCharge.id}/dispute`, { method: "POST", json: {} });
    const opened = await takenBackState(lost, referrerCustomer);
    await sandbox(`/stripe/disputes/${dispute.id}/resolve`, { method: "POST", json: { outcome: "lost" } });
    const disputeEvents = (await signedEvents(lostCustomer)).filter((event) => event.type.startsWith("charge.dispute."));
    expect(disputeEvents.map((event) => event.type)).toEqual(["charge.dispute.created", "charge.dispute.funds_withdrawn", "charge.dispute.closed"]);
    await deliverAllTo(STRIPE_WEBHOOK, [...disputeEvents].reverse());
    await deliverStripe(lostCustomer);
    expect(opened).toMatchObject({ plan: { planId: "pro-monthly" }, commissions: [{ commissionCents: 750 }] });
    expect(await takenBackState(lost, referrerCustomer)).toMatchObject({
      plan: { planId: "free" },
      takenBack: { planName: "Pro", reason: "disputed" },
      commissions: [{ commissionCents: 750 }, { commissionCents: -750 }],
    });

    // Won: the funds are reinstated; nothing was taken, nothing changes.
    const wonCustomer = await stripeCustomerOf(won);
    const [wonCharge] = await chargesOf(wonCustomer);
    const second = await sandbox<{ id: string }>(`/stripe/charges/${wonCharge.id}/dispute`, { method: "POST", json: {} });
    await sandbox(`/stripe/disputes/${second.id}/resolve`, { method: "POST", json: { outcome: "won" } });
    await deliverStripe(wonCustomer);
    await deliverStripe(wonCustomer);
    expect(await takenBackState(won, referrerCustomer)).toMatchObject({
      plan: { planId: "pro-monthly", planStatus: "Active" },
      credits: { planId: "pro-monthly", remaining: 400 },
      takenBack: null,
      commissions: [{ commissionCents: 750 }],
      referralCredits: [-1699],
      referredSale: true,
    });
    // The referrer kept one credit: the lost friend's went back.
    expect((await referralCreditsAt(referrerCustomer, lost.userId)).amounts).toEqual([-1699, 1699]);
  });
});

describe("PayPal refunds and disputes", () => {
  it("a refund (PAYMENT.SALE.REFUNDED) takes back commission, referral credit and the plan; what remains is the free month still running", async () => {
    const affiliate = await newAffiliate();
    const { customer: referrerCustomer, code } = await stripeReferrer();
    // This friend's free month of Starter still runs: taking Pro back leaves them on it.
    const friend = await referredCustomer(code, affiliate.affiliateID, { freeMonthOver: false });
    const subscriptionID = await startAndApprovePayPal(friend, "pro-monthly");
    await deliverAllTo(PAYPAL_WEBHOOK, await paypalDeliveries(subscriptionID));
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({
      plan: { planId: "pro-monthly" },
      credits: { planId: "pro-monthly", remaining: 400 },
      referralCredits: [-1699],
    });
    await spendCredits(friend, 20);

    const [sale] = await sandbox<{ id: string }[]>(`/paypal/sales?subscription=${subscriptionID}`);
    await sandbox(`/paypal/sales/${sale.id}/refund`, { method: "POST", json: {} });
    // Refund events first, then the cancellation it caused, each twice.
    for (let round = 0; round < 2; round += 1) await deliverAllTo(PAYPAL_WEBHOOK, (await paypalDeliveries(subscriptionID)).reverse());
    expect((await sandbox<{ id: string; status: string }[]>("/paypal/subscriptions")).find((row) => row.id === subscriptionID)?.status).toBe("CANCELLED");
    expect(await takenBackState(friend, referrerCustomer)).toEqual({
      plan: { planId: "starter-monthly", planStatus: "Cancelled" },
      // Pro's 400 no longer count; Starter's 150 less the 20 spent this month.
      credits: { planId: "starter-monthly", creditsPerMonth: 150, usedPinCredits: 20, remaining: 130 },
      takenBack: { planName: "Pro", reason: "refunded" },
      commissions: [
        { amountCents: 2999, commissionCents: 750, reverses: null },
        { amountCents: -2999, commissionCents: -750, reverses: sale.id },
      ],
      referralCredits: [-1699, 1699],
      referredSale: false,
    });
  });

  it("a dispute decided for the buyer (CUSTOMER.DISPUTE.RESOLVED, PAYMENT.SALE.REVERSED) takes back all; one decided for us, nothing", async () => {
    const affiliate = await newAffiliate();
    const { customer: referrerCustomer, code } = await stripeReferrer();
    const [lost, won] = [await referredCustomer(code, affiliate.affiliateID), await referredCustomer(code, affiliate.affiliateID)];
    const ids = new Map<TestUser, string>();
    for (const user of [lost, won]) {
      const id = await startAndApprovePayPal(user, "starter-monthly");
      ids.set(user, id);
      await deliverAllTo(PAYPAL_WEBHOOK, await paypalDeliveries(id));
      const [sale] = await sandbox<{ id: string }[]>(`/paypal/sales?subscription=${id}`);
      const dispute = await sandbox<{ dispute_id: string }>(`/paypal/sales/${sale.id}/dispute`, { method: "POST", json: {} });
      await sandbox(`/paypal/disputes/${dispute.dispute_id}/resolve`, { method: "POST", json: { outcome: user === lost ? "BUYER_FAVOR" : "SELLER_FAVOR" } });
      // The resolution before the opening: the same.
      for (let round = 0; round < 2; round += 1) await deliverAllTo(PAYPAL_WEBHOOK, (await paypalDeliveries(id)).reverse());
    }
    expect(await takenBackState(lost, referrerCustomer)).toMatchObject({
      plan: { planId: "free" },
      credits: { planId: "free", remaining: 10 },
      takenBack: { planName: "Starter", reason: "disputed" },
      commissions: [{ commissionCents: 425 }, { commissionCents: -425 }],
      referralCredits: [-1699, 1699],
    });
    expect(await takenBackState(won, referrerCustomer)).toMatchObject({
      plan: { planId: "starter-monthly", planStatus: "Active" },
      takenBack: null,
      commissions: [{ commissionCents: 425 }],
      referralCredits: [-1699],
      referredSale: true,
    });
  });
});

describe("Shopify refunds", () => {
  it("a refund Shopify shows only in the Partner API is applied by the cron's sweep, once: commission, referral credit, plan", async () => {
    const affiliate = await newAffiliate();
    const { customer: referrerCustomer, code } = await stripeReferrer();
    const friend = await referredCustomer(code, affiliate.affiliateID);
    const { shop, gid, chargeId } = await subscribeShopify(friend, "growth-monthly", newShop("refund"));
    expect((await shopifyCharge(gid)).trialDays).toBe(0);
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({
      plan: { planId: "growth-monthly" },
      commissions: [{ commissionCents: 1250 }],
      referralCredits: [-1699],
    });

    // Shopify support refunds the merchant: no webhook, an AppSaleAdjustment of the Partner API.
    const webhooks = (await shopifyDeliveries(shop)).length;
    await sandbox(`/shopify/subscriptions/${chargeId}/refund`, { method: "POST", json: {} });
    expect(await shopifyDeliveries(shop)).toHaveLength(webhooks);
    await sweepShopifyAdjustments(testEnv);
    await sweepShopifyAdjustments(testEnv);
    // Our sweep cancelled the charge at Shopify: its webhook, delivered twice.
    for (let round = 0; round < 2; round += 1) await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    expect((await shopifyCharge(gid)).status).toBe("CANCELLED");
    expect(await takenBackState(friend, referrerCustomer)).toMatchObject({
      plan: { planId: "free", planStatus: "Inactive" },
      credits: { planId: "free", remaining: 10 },
      takenBack: { planName: "Growth", reason: "refunded" },
      commissions: [
        { amountCents: 4999, commissionCents: 1250, reverses: null },
        { amountCents: -4999, commissionCents: -1250, reverses: `${gid}@${(await shopifyCharge(gid)).currentPeriodEnd}` },
      ],
      referralCredits: [-1699, 1699],
      referredSale: false,
    });
  });
});
