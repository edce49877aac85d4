import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adminAuditLog, affiliateCommissions, affiliateCustomers, subscriptions, users } from "../../../workers/db/schema.ts";
import { sweepShopifyCharges } from "../../../workers/services/billing/shopify-billing.ts";
import { AFFILIATE_CLICKS_PER_IP, attributeCustomer, countAffiliateClick, recordCommission } from "../../../workers/services/growth/affiliates.ts";
import { planById } from "../../../workers/services/billing/plan-lookups.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  checkoutAndPay,
  db,
  deliver,
  deliverAllTo,
  newShop,
  PAYPAL_WEBHOOK,
  shopifyCharge,
  paypalDeliveries,
  SHOPIFY_WEBHOOK,
  shopifyDeliveries,
  subscribeShopify,
  post,
  signedEvents,
  startAndApprovePayPal,
  stripeCustomerOf,
  subscribe,
  usedTrial,
} from "../billing/billing-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// The affiliate programme (issue 16): pgref redirects, clicks once per visitor, attribution within 30
// days of the recorded click, commission rows from Stripe's webhook (once per invoice), payouts.

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const DAY = 24 * 60 * 60 * 1000;
let ipCounter = 0;
const freshIp = () => `203.0.113.${(ipCounter++ % 250) + 1}`;
const uniqueId = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

async function newAffiliate(affiliateID = uniqueId("aff")): Promise<TestUser & { affiliateID: string }> {
  const user = await signUpUser();
  const response = await post("/api/affiliate/createAffiliateProfile", user, { affiliateID });
  expect(response.status).toBe(200);
  expect(await read(response)).toEqual({ affiliateProfile: { affiliateID, wiseTag: null } });
  return { ...user, affiliateID };
}

/** A landing visitor's click: answers the visitor cookie the endpoint set (or the one sent). */
async function click(affiliateID: string, visitor: { cookie?: string; ip?: string; userAgent?: string } = {}) {
  const response = await app(
    "/api/affiliate/incrementAffiliateClicks",
    json(
      { affiliateID },
      { "user-agent": visitor.userAgent ?? CHROME, "cf-connecting-ip": visitor.ip ?? freshIp(), ...(visitor.cookie ? { cookie: visitor.cookie } : {}) },
    ),
  );
  return { response, cookie: visitor.cookie ?? /pb_visitor=[a-f0-9]{64}/.exec(response.headers.get("set-cookie") ?? "")?.[0] };
}

async function dashboard(user: TestUser) {
  const response = await app("/api/affiliate/getAffiliateData", { headers: bearer(user.tokens) });
  expect(response.status).toBe(200);
  return read(response);
}

describe("pgref redirects", () => {
  it.each([
    ["/spm", "/?pgref=convertkit"],
    ["/earn", "/?pgref=earnyourhappy"],
    ["/influencer/jane-doe", "/?pgref=jane-doe"],
    ["/influencer?name=jane-doe", "/?pgref=jane-doe"],
    ["/influencer", "/"],
  ])("%s answers 302 to %s", async (path, target) => {
    const response = await app(path, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!, "http://app.test").pathname + new URL(response.headers.get("location")!, "http://app.test").search).toBe(
      target,
    );
  });
});

describe("click counting", () => {
  it("counts a visitor once, ignores bots and unknown ids, and answers them all alike", async () => {
    const affiliate = await newAffiliate();
    const first = await click(affiliate.affiliateID);
    expect(first.response.status).toBe(200);
    expect(await read(first.response)).toEqual({ received: true });
    expect(first.cookie).toBeTruthy();
    // The same browser again (its cookie), in another case: not another click.
    await click(affiliate.affiliateID, { cookie: first.cookie });
    await click(affiliate.affiliateID.toUpperCase(), { cookie: first.cookie });
    expect((await dashboard(affiliate)).clicks).toBe(1);
    // A crawler and a script: not clicks.
    for (const userAgent of ["Googlebot/2.1 (+http://www.google.com/bot.html)", "curl/8.5.0", "python-requests/2.32.3"]) {
      const bot = await click(affiliate.affiliateID, { userAgent });
      expect(bot.response.status).toBe(200);
      expect(await read(bot.response)).toEqual({ received: true });
    }
    expect((await dashboard(affiliate)).clicks).toBe(1);
    // Another visitor counts.
    await click(affiliate.affiliateID);
    const data = await dashboard(affiliate);
    expect(data.clicks).toBe(2);
    // This month's row of the monthly table holds them.
    const month = new Date().toISOString().slice(0, 7);
    expect(data.months).toHaveLength(6);
    expect(data.months.at(-1)).toEqual({ month, clicks: 2, signUps: 0 });
    // An id nobody has answers exactly as a counted click does.
    const unknown = await click(uniqueId("nobody"));
    expect(unknown.response.status).toBe(200);
    expect(await read(unknown.response)).toEqual({ received: true });
  });

  it("counts a browser without cookies once a day (its address and browser)", async () => {
    const affiliate = await newAffiliate();
    const ip = freshIp();
    await click(affiliate.affiliateID, { ip });
    await click(affiliate.affiliateID, { ip });
    expect((await dashboard(affiliate)).clicks).toBe(1);
  });

  it("limits clicks from one address: over the limit answers 429 and counts nothing", async () => {
    const affiliate = await newAffiliate();
    const ip = freshIp();
    for (let i = 0; i < AFFILIATE_CLICKS_PER_IP.limit; i++)
      expect((await click(affiliate.affiliateID, { ip, userAgent: `${CHROME} visitor/${i}` })).response.status).toBe(200);
    const limited = await click(affiliate.affiliateID, { ip, userAgent: `${CHROME} visitor/over` });
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get("retry-after")).toBeTruthy();
    expect((await dashboard(affiliate)).clicks).toBe(AFFILIATE_CLICKS_PER_IP.limit);
  });

  it("refuses a body without affiliateID (400 naming the field)", async () => {
    const response = await app("/api/affiliate/incrementAffiliateClicks", json({}, { "user-agent": CHROME }));
    expect(response.status).toBe(400);
    expect(await read(response)).toMatchObject({ field: "affiliateID" });
  });
});

describe("attribution", () => {
  it("attributes within 30 days of the recorded click: day 29 counts, day 31 does not", async () => {
    const affiliate = await newAffiliate();
    const clickedAt = Date.UTC(2026, 0, 10, 12);
    await countAffiliateClick(testEnv, { affiliateID: affiliate.affiliateID, visitorKey: "a".repeat(64), ip: freshIp(), userAgent: CHROME }, clickedAt);
    await countAffiliateClick(testEnv, { affiliateID: affiliate.affiliateID, visitorKey: "b".repeat(64), ip: freshIp(), userAgent: CHROME }, clickedAt);
    const day29 = await signUpUser();
    const day31 = await signUpUser();
    expect(
      await attributeCustomer(
        testEnv,
        day29.userId,
        { affiliateID: affiliate.affiliateID, visitorKey: "a".repeat(64), source: "signup" },
        clickedAt + 29 * DAY,
      ),
    ).toBe(true);
    expect(
      await attributeCustomer(
        testEnv,
        day31.userId,
        { affiliateID: affiliate.affiliateID, visitorKey: "b".repeat(64), source: "signup" },
        clickedAt + 31 * DAY,
      ),
    ).toBe(false);
    expect(await db.select().from(affiliateCustomers).where(eq(affiliateCustomers.userId, day31.userId))).toHaveLength(0);
  });

  it("setUserAffiliateID attributes the browser that clicked, not one that merely names the id", async () => {
    const affiliate = await newAffiliate();
    const visitor = await click(affiliate.affiliateID);
    const customer = await signUpUser();
    const attributed = await app(
      "/api/affiliate/setUserAffiliateID",
      json({ affiliateID: affiliate.affiliateID }, bearer(customer.tokens, { cookie: visitor.cookie! })),
    );
    expect(await read(attributed)).toEqual({ attributed: true });
    // Someone who never clicked (another browser) cannot claim to come from the affiliate.
    const stranger = await signUpUser();
    const refused = await app(
      "/api/affiliate/setUserAffiliateID",
      json({ affiliateID: affiliate.affiliateID }, bearer(stranger.tokens, { "user-agent": CHROME, "cf-connecting-ip": freshIp() })),
    );
    expect(await read(refused)).toEqual({ attributed: false });
    // The affiliate clicking their own link is not their customer.
    const own = await app(
      "/api/affiliate/setUserAffiliateID",
      json({ affiliateID: affiliate.affiliateID }, bearer(affiliate.tokens, { cookie: visitor.cookie! })),
    );
    expect(await read(own)).toEqual({ attributed: false });
    expect((await dashboard(affiliate)).signUps).toBe(1);
  });
});

describe("self-attribution by mailbox (issue 37, decision 079)", () => {
  const alias = (email: string, tag: string) => email.replace("@", `+${tag}@`);

  it("an alias account of the affiliate, signing up through the link and paying, is nobody's customer and earns nothing", async () => {
    const affiliate = await newAffiliate();
    const visitor = await click(affiliate.affiliateID);
    const self = await signUpUser({ email: alias(affiliate.email, "shopper") });
    const attributed = await app(
      "/api/affiliate/setUserAffiliateID",
      json({ affiliateID: affiliate.affiliateID }, bearer(self.tokens, { cookie: visitor.cookie! })),
    );
    expect(await read(attributed)).toEqual({ attributed: false });

    // Paying through Stripe, naming the affiliate at checkout too.
    await usedTrial(self);
    const sessionId = await checkoutAndPay(self, "starter-monthly");
    const activated = await app(
      "/api/stripeSubscriptions/activateStripeSubscription",
      json({ session_id: sessionId, affiliateID: affiliate.affiliateID }, bearer(self.tokens, { cookie: visitor.cookie! })),
    );
    expect(activated.status).toBe(200);
    for (const event of await signedEvents(await stripeCustomerOf(self), "invoice.paid")) await deliver(event);
    expect(await read(await post("/api/affiliate/recordAffiliateSale", self, { session_id: sessionId }))).toEqual({ recorded: false });

    expect(await db.select().from(affiliateCustomers).where(eq(affiliateCustomers.userId, self.userId))).toHaveLength(0);
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, self.userId))).toHaveLength(0);
    expect(await dashboard(affiliate)).toMatchObject({
      signUps: 0,
      sales: 0,
      payingCustomers: 0,
      commission: { pendingCents: 0, payableCents: 0, paidCents: 0 },
    });
  });

  it("reads Gmail's dots and googlemail.com as the same inbox", async () => {
    const local = `aff${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const owner = await signUpUser({ email: `${local}@gmail.com` });
    const affiliateID = uniqueId("gm");
    expect((await post("/api/affiliate/createAffiliateProfile", owner, { affiliateID })).status).toBe(200);
    const visitorKey = "d".repeat(64);
    await countAffiliateClick(testEnv, { affiliateID, visitorKey, ip: freshIp(), userAgent: CHROME });
    const self = await signUpUser({ email: `${local.slice(0, 2)}.${local.slice(2)}@googlemail.com` });
    expect(await attributeCustomer(testEnv, self.userId, { affiliateID, visitorKey, source: "signup" })).toBe(false);
    // Someone else from the same click is a customer.
    const friend = await signUpUser();
    expect(await attributeCustomer(testEnv, friend.userId, { affiliateID, visitorKey, source: "signup" })).toBe(true);
  });

  it("an alias attributed before the rule earns no commission on its payments", async () => {
    const affiliate = await newAffiliate();
    const self = await signUpUser({ email: alias(affiliate.email, "old") });
    await db
      .insert(affiliateCustomers)
      .values({ userId: self.userId, affiliateId: affiliate.affiliateID, clickedAt: Date.now(), attributedAt: Date.now(), source: "signup" });
    const plan = await planById(testEnv, "starter-monthly");
    const earned = await recordCommission(testEnv, {
      provider: "stripe",
      chargeRef: `in_${crypto.randomUUID()}`,
      userId: self.userId,
      plan,
      amountCents: 1699,
      currency: "usd",
      chargedAt: Date.now(),
    });
    expect(earned).toBe(false);
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, self.userId))).toHaveLength(0);
  });
});

describe("commissions from Stripe", () => {
  async function attributedCustomer(affiliate: { affiliateID: string }) {
    const visitor = await click(affiliate.affiliateID);
    const customer = await signUpUser();
    await app("/api/affiliate/setUserAffiliateID", json({ affiliateID: affiliate.affiliateID }, bearer(customer.tokens, { cookie: visitor.cookie! })));
    return { customer, cookie: visitor.cookie! };
  }

  it("earns 25% of each paid invoice, renewals included, once per invoice however often it is delivered", async () => {
    const affiliate = await newAffiliate();
    const { customer } = await attributedCustomer(affiliate);
    await usedTrial(customer);
    const { paymentDetails } = await subscribe(customer, "starter-monthly");
    const paid = await signedEvents(await stripeCustomerOf(customer), "invoice.paid");
    expect(paid).toHaveLength(1);
    await deliver(paid[0]);
    await deliver(paid[0]);
    const rows = () => db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId));
    expect(await rows()).toMatchObject([
      { affiliateId: affiliate.affiliateID, amountCents: 1699, commissionCents: 425, chargeRef: JSON.parse(paid[0].request.body).data.object.id },
    ]);

    // Renewal: a new invoice, a new commission.
    await sandbox(`/stripe/subscriptions/${paymentDetails.subscriptionID}/renew`, { method: "POST", json: {} });
    const renewal = (await signedEvents(await stripeCustomerOf(customer), "invoice.paid")).at(-1)!;
    await deliver(renewal);
    await deliver(renewal);
    expect((await rows()).map((row) => row.commissionCents)).toEqual([425, 425]);
    const data = await dashboard(affiliate);
    expect(data).toMatchObject({ sales: 2, payingCustomers: 1, signUps: 1, commission: { pendingCents: 850, payableCents: 0, paidCents: 0 } });
    expect(data.recentSales[0]).toMatchObject({ amountCents: 1699, commissionCents: 425, status: "pending" });
  });

  it("attributes at checkout (affiliateID of activateStripeSubscription) and records the first charge even when its webhook came first", async () => {
    const affiliate = await newAffiliate();
    const visitor = await click(affiliate.affiliateID);
    const customer = await signUpUser();
    await usedTrial(customer);
    const sessionId = await checkoutAndPay(customer, "starter-annual");
    // The webhook arrives before the browser is back: the customer is nobody's yet.
    for (const event of await signedEvents(await stripeCustomerOf(customer), "invoice.paid")) await deliver(event);
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId))).toHaveLength(0);
    const activated = await app(
      "/api/stripeSubscriptions/activateStripeSubscription",
      json({ session_id: sessionId, affiliateID: affiliate.affiliateID }, bearer(customer.tokens, { cookie: visitor.cookie! })),
    );
    expect(activated.status).toBe(200);
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId))).toMatchObject([
      { amountCents: 16900, commissionCents: 4225, planId: "starter-annual" },
    ]);
    // The after-checkout call records nothing twice.
    const again = await post("/api/affiliate/recordAffiliateSale", customer, { session_id: sessionId });
    expect(await read(again)).toEqual({ recorded: true });
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId))).toHaveLength(1);
  });

  it("recordAffiliateSale only reads the caller's own paid session (no invented sales)", async () => {
    const affiliate = await newAffiliate();
    const { customer } = await attributedCustomer(affiliate);
    await usedTrial(customer);
    const sessionId = await checkoutAndPay(customer, "starter-monthly");
    const someoneElse = await signUpUser();
    expect((await post("/api/affiliate/recordAffiliateSale", someoneElse, { session_id: sessionId })).status).toBe(404);
    expect((await post("/api/affiliate/recordAffiliateSale", customer, { session_id: "cs_test_invented" })).status).toBe(404);
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId))).toHaveLength(0);
    expect(await read(await post("/api/affiliate/recordAffiliateSale", customer, { session_id: sessionId }))).toEqual({ recorded: true });
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId))).toMatchObject([
      { commissionCents: 425 },
    ]);
  });

  it("earns 25% of a PayPal subscription's sale (PAYMENT.SALE.COMPLETED), once per sale id", async () => {
    const affiliate = await newAffiliate();
    const { customer } = await attributedCustomer(affiliate);
    const subscriptionID = await startAndApprovePayPal(customer, "pro-monthly");
    const events = await paypalDeliveries(subscriptionID);
    expect(events.map((event) => event.type)).toContain("PAYMENT.SALE.COMPLETED");
    await deliverAllTo(PAYPAL_WEBHOOK, events);
    await deliverAllTo(PAYPAL_WEBHOOK, events);
    const sale = JSON.parse(events.find((event) => event.type === "PAYMENT.SALE.COMPLETED")!.request.body).resource;
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId))).toMatchObject([
      { provider: "paypal", chargeRef: sale.id, amountCents: 2999, commissionCents: 750, planId: "pro-monthly" },
    ]);
  });

  it("earns 25% of each Shopify billing interval once it has begun, once per interval, nothing during a trial", async () => {
    const affiliate = await newAffiliate();
    const { customer } = await attributedCustomer(affiliate);
    const { shop, chargeId } = await subscribeShopify(customer, "agency-monthly", newShop("affiliate"));
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    const rows = () => db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, customer.userId));
    expect(await rows()).toMatchObject([{ provider: "shopify", amountCents: 6999, commissionCents: 1750, planId: "agency-monthly" }]);
    // Shopify times are whole seconds: the renewal's interval must end at another second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await sandbox(`/shopify/subscriptions/${chargeId}/renew`, { method: "POST" });
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    expect((await rows()).map((row) => row.commissionCents)).toEqual([1750, 1750]);

    // A first-time subscriber's trial: approved, but nothing billed yet.
    const { customer: trialing } = await attributedCustomer(affiliate);
    const trial = await subscribeShopify(trialing, "starter-monthly", newShop("affiliate-trial"));
    expect((await shopifyCharge(trial.gid)).trialDays).toBeGreaterThan(0);
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(trial.shop));
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, trialing.userId))).toHaveLength(0);

    // The trial ends and Shopify bills the first interval without telling us: the cron's sweep re-reads the
    // charge, and the interval earns once however often the sweep runs.
    const charge = await shopifyCharge(trial.gid);
    const billedFrom = Date.parse(charge.currentPeriodEnd!) - 30 * 86_400_000;
    const sweep = async (now: number) => {
      while ((await sweepShopifyCharges(testEnv, now)).checked === 25);
    };
    await sweep(billedFrom - 60 * 60_000);
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, trialing.userId))).toHaveLength(0);
    await sweep(billedFrom + 86_400_000);
    await sweep(billedFrom + 2 * 86_400_000);
    expect(await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.customerUserId, trialing.userId))).toMatchObject([
      { provider: "shopify", chargeRef: `${trial.gid}@${charge.currentPeriodEnd}`, amountCents: 1699, commissionCents: 425, planId: "starter-monthly" },
    ]);
    const [record] = await db.select().from(subscriptions).where(eq(subscriptions.providerRef, trial.gid));
    expect(record.status).toBe("active");
  });

  it("earns nothing on a lifetime deal or for a customer nobody sent", async () => {
    const affiliate = await newAffiliate();
    const { customer } = await attributedCustomer(affiliate);
    const lifetime = await planById(testEnv, "lifetime");
    expect(
      await recordCommission(testEnv, {
        provider: "stripe",
        chargeRef: uniqueId("in_life"),
        userId: customer.userId,
        plan: lifetime,
        amountCents: 24900,
        currency: "usd",
        chargedAt: Date.now(),
      }),
    ).toBe(false);
    const walkIn = await signUpUser();
    const monthly = await planById(testEnv, "starter-monthly");
    expect(
      await recordCommission(testEnv, {
        provider: "stripe",
        chargeRef: uniqueId("in_walk"),
        userId: walkIn.userId,
        plan: monthly,
        amountCents: 1699,
        currency: "usd",
        chargedAt: Date.now(),
      }),
    ).toBe(false);
    expect((await dashboard(affiliate)).sales).toBe(0);
  });
});

describe("affiliate profile and payouts", () => {
  it("saves a Wise tag (400 naming wiseTag when it is not one) and keeps each user to their own figures", async () => {
    const affiliate = await newAffiliate();
    const bad = await post("/api/affiliate/saveWiseTag", affiliate, { wiseTag: "not a tag!" });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "wiseTag" });
    expect(await read(await post("/api/affiliate/saveWiseTag", affiliate, { wiseTag: "janedoe" }))).toMatchObject({
      affiliateProfile: { wiseTag: "@janedoe" },
    });
    const data = await dashboard(affiliate);
    expect(data.affiliateProfile).toEqual({ affiliateID: affiliate.affiliateID, wiseTag: "@janedoe" });
    expect(data.link).toMatch(new RegExp(`/\\?pgref=${affiliate.affiliateID}$`));
    const other = await signUpUser();
    expect(await dashboard(other)).toMatchObject({ affiliateProfile: null, clicks: 0 });
    expect((await post("/api/affiliate/saveWiseTag", other, { wiseTag: "@other" })).status).toBe(404);
    // An id already taken.
    const taken = await post("/api/affiliate/createAffiliateProfile", other, { affiliateID: affiliate.affiliateID });
    expect(taken.status).toBe(409);
  });

  it("lists affiliates with $100 payable after the hold for admins only; marking paid settles them once", async () => {
    const affiliate = await newAffiliate();
    await post("/api/affiliate/saveWiseTag", affiliate, { wiseTag: "@payme" });
    const customer = await signUpUser();
    await db
      .insert(affiliateCustomers)
      .values({ userId: customer.userId, affiliateId: affiliate.affiliateID, clickedAt: Date.now(), attributedAt: Date.now(), source: "signup" });
    const monthly = await planById(testEnv, "agency-annual");
    // 699 a year earns 174.75: held a month, then payable. A charge of yesterday is still pending.
    await recordCommission(testEnv, {
      provider: "stripe",
      chargeRef: uniqueId("in_old"),
      userId: customer.userId,
      plan: monthly,
      amountCents: 69900,
      currency: "usd",
      chargedAt: Date.now() - 40 * DAY,
    });
    await recordCommission(testEnv, {
      provider: "stripe",
      chargeRef: uniqueId("in_new"),
      userId: customer.userId,
      plan: monthly,
      amountCents: 69900,
      currency: "usd",
      chargedAt: Date.now() - DAY,
    });

    const admin = await signUpUser();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
    expect((await app("/api/admin/affiliatePayouts", { headers: bearer(customer.tokens) })).status).toBe(403);
    expect((await post("/api/admin/affiliatePayouts/markPaid", customer, { affiliateID: affiliate.affiliateID, amountCents: 17475 })).status).toBe(403);
    const report = await read(await app("/api/admin/affiliatePayouts", { headers: bearer(admin.tokens) }));
    expect(report.payouts.find((row: { affiliateID: string }) => row.affiliateID === affiliate.affiliateID)).toMatchObject({
      payableCents: 17475,
      wiseTag: "@payme",
      email: affiliate.email,
      sales: 1,
    });
    expect(new Date(report.payBy).getUTCDate()).toBe(5);

    // Another amount than the report showed: refused, nothing paid.
    expect((await post("/api/admin/affiliatePayouts/markPaid", admin, { affiliateID: affiliate.affiliateID, amountCents: 34950 })).status).toBe(409);
    const paid = await post("/api/admin/affiliatePayouts/markPaid", admin, { affiliateID: affiliate.affiliateID, amountCents: 17475 });
    expect(paid.status).toBe(200);
    expect(await read(paid)).toMatchObject({ message: `Payout of $174.75 to ${affiliate.affiliateID} marked paid.` });
    expect((await post("/api/admin/affiliatePayouts/markPaid", admin, { affiliateID: affiliate.affiliateID, amountCents: 17475 })).status).toBe(409);
    const after = await read(await app("/api/admin/affiliatePayouts", { headers: bearer(admin.tokens) }));
    expect(after.payouts.some((row: { affiliateID: string }) => row.affiliateID === affiliate.affiliateID)).toBe(false);
    expect((await dashboard(affiliate)).commission).toEqual({ pendingCents: 17475, payableCents: 0, paidCents: 17475 });
    // One audit entry, for the payout made (the refused attempts changed nothing and wrote nothing).
    const log = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, affiliate.affiliateID));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      action: "payout.markPaid",
      adminId: admin.userId,
      before: { unpaidCents: 17475 },
      after: expect.objectContaining({ amountCents: 17475, wiseTag: "@payme" }),
    });
  });

  it("does not list an affiliate with less than $100 payable", async () => {
    const affiliate = await newAffiliate();
    const customer = await signUpUser();
    await db
      .insert(affiliateCustomers)
      .values({ userId: customer.userId, affiliateId: affiliate.affiliateID, clickedAt: Date.now(), attributedAt: Date.now(), source: "signup" });
    const plan = await planById(testEnv, "starter-annual");
    await recordCommission(testEnv, {
      provider: "stripe",
      chargeRef: uniqueId("in_small"),
      userId: customer.userId,
      plan,
      amountCents: 16900,
      currency: "usd",
      chargedAt: Date.now() - 40 * DAY,
    });
    const admin = await signUpUser();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
    const report = await read(await app("/api/admin/affiliatePayouts", { headers: bearer(admin.tokens) }));
    expect(report.payouts.some((row: { affiliateID: string }) => row.affiliateID === affiliate.affiliateID)).toBe(false);
    expect((await dashboard(affiliate)).commission).toEqual({ pendingCents: 0, payableCents: 4225, paidCents: 0 });
    expect((await dashboard(affiliate)).nextPayoutDate).toBeNull();
  });
});
