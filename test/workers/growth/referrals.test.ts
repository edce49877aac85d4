import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { referrals, users } from "../../../workers/db/schema.ts";
import { bearer, outboxFor, signUpUser, signUpVerifiedUser, uniqueEmail, verifyEmailOf, type TestUser } from "../accounts/accounts-support.ts";
import {
  checkoutAndPay,
  creditsOf,
  credentialsOf,
  db,
  deliver,
  deliverAllTo,
  newShop,
  payHostedCheckout,
  PAYPAL_WEBHOOK,
  paypalDeliveries,
  post,
  SHOPIFY_WEBHOOK,
  shopifyCharge,
  shopifyDeliveries,
  signedEvents,
  startAndApprovePayPal,
  stripeCustomerOf,
  subscribe,
  subscribeShopify,
} from "../billing/billing-support.ts";
import { stripeClient } from "../../../workers/integrations/stripe.ts";
import { mailboxKey } from "../../../workers/services/accounts/mailboxes.ts";
import { recordClaimedMailboxes } from "../../../workers/services/growth/referrals.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// The referral programme (issue 16, decisions 037 and 038): codes, the public profile, gift invites,
// claiming a free month of Starter, and the referrer's $16.99 Stripe balance credit on the friend's
// first payment.

const CODE = "/api/referrals/getReferralCode";
const PROFILE = "/api/referrals/getReferralProfile";
const INVITE = "/api/referrals/sendReferralInvite";
const RECORD = "/api/referrals/recordReferral";

async function codeOf(user: TestUser): Promise<string> {
  const response = await app(CODE, { headers: bearer(user.tokens) });
  expect(response.status).toBe(200);
  return (await read(response)).referralCode;
}

/** The customer's balance and balance transactions, read from the Stripe stand-in through the official SDK. */
async function stripeBalanceOf(customer: string) {
  const stripe = stripeClient(testEnv);
  const found = await stripe.customers.retrieve(customer);
  if (found.deleted) throw new Error(`customer ${customer} deleted`);
  const { data } = await stripe.customers.listBalanceTransactions(customer, { limit: 100 });
  return { balance: found.balance, transactions: data };
}

/** A referrer who pays Stripe for Pro (so has a Stripe customer) and a friend who claimed their free month. */
async function payingReferrerAndClaimedFriend() {
  const referrer = await signUpUser();
  await subscribe(referrer, "pro-monthly");
  const customer = await stripeCustomerOf(referrer);
  const before = (await stripeBalanceOf(customer)).balance;
  const friend = await signUpVerifiedUser();
  expect((await post(RECORD, friend, { referralCode: await codeOf(referrer) })).status).toBe(200);
  return { referrer, customer, before, friend };
}

describe("referral codes and the referral profile", () => {
  it("gives every user a stable code of their own, and shows only a first name and paid referrals to anyone", async () => {
    const maya = await signUpUser({ firstName: "Maya", lastName: "Lindqvist" });
    const code = await codeOf(maya);
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(await codeOf(maya)).toBe(code);
    expect(await codeOf(await signUpUser())).not.toBe(code);
    expect((await app(CODE)).status).toBe(401);

    const profile = await app(`${PROFILE}/${code.toLowerCase()}`);
    expect(profile.status).toBe(200);
    expect(await read(profile)).toEqual({ referralCode: code, firstName: "Maya", referredSales: 0 });

    expect((await app(`${PROFILE}/ZZZZZZZZ`)).status).toBe(404);
    const bad = await app(`${PROFILE}/not-a-code!`);
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "code" });
  });
});

describe("claiming a free month", () => {
  it("gives a new user one month of Starter, once, and says who invited them", async () => {
    const referrer = await signUpUser({ firstName: "Ines" });
    const friend = await signUpVerifiedUser();
    const started = Date.now();
    const claimed = await post(RECORD, friend, { referralCode: await codeOf(referrer) });
    expect(claimed.status).toBe(200);
    const answer = await read(claimed);
    expect(answer).toMatchObject({ message: "Referral recorded successfully", referrerFirstName: "Ines", planId: "starter-monthly", planName: "Starter" });
    // One month, not renewed.
    const until = Date.parse(answer.freeUntil);
    expect(until - started).toBeGreaterThanOrEqual(28 * 86_400_000);
    expect(until - started).toBeLessThanOrEqual(31 * 86_400_000 + 60_000);
    expect(await credentialsOf(friend)).toMatchObject({ planId: "starter-monthly", planStatus: "Cancelled", cancelSubscriptionDate: answer.freeUntil });
    expect(await creditsOf(friend)).toMatchObject({ planId: "starter-monthly", creditsPerMonth: 150, remaining: 150 });

    // Once per person: not again with the same code, nor with another friend's.
    const other = await signUpUser();
    for (const code of [await codeOf(referrer), await codeOf(other)]) {
      const again = await post(RECORD, friend, { referralCode: code });
      expect(again.status).toBe(409);
      expect(await read(again)).toMatchObject({ error: "Unable to record referral", reason: "You have already claimed a free month from a friend." });
    }
    const rows = await db.select().from(referrals).where(eq(referrals.referredUserId, friend.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0].referrerId).toBe(referrer.userId);
  });

  it("is not for one's own code, nor for anyone who already had a plan, and an unknown code records nothing", async () => {
    const user = await signUpUser();
    const own = await post(RECORD, user, { referralCode: await codeOf(user) });
    expect(own.status).toBe(409);
    expect(await read(own)).toMatchObject({ error: "Unable to record referral", reason: "This is your own invite link: share it with a friend instead." });

    const unknown = await post(RECORD, user, { referralCode: "ZZZZZZZZ" });
    expect(unknown.status).toBe(404);
    expect(await read(unknown)).toMatchObject({ error: "Unable to record referral" });

    // A paying customer (here Stripe; any provider's plan record counts, a lifetime one included).
    const payer = await signUpUser();
    await subscribe(payer, "pro-monthly");
    const referrer = await signUpUser();
    const refused = await post(RECORD, payer, { referralCode: await codeOf(referrer) });
    expect(refused.status).toBe(409);
    expect(await read(refused)).toMatchObject({
      error: "Unable to record referral",
      reason: "The free month is for new customers, and your account already has a plan.",
    });
    expect((await credentialsOf(payer)).planId).toBe("pro-monthly");
    expect(await db.select().from(referrals).where(eq(referrals.referredUserId, payer.userId))).toHaveLength(0);
    expect(await db.select().from(referrals).where(eq(referrals.referredUserId, user.userId))).toHaveLength(0);

    // Bad input names the field and records nothing; signing in is required.
    const bad = await post(RECORD, user, { referralCode: 42 });
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "referralCode" });
    expect((await post(RECORD, null, { referralCode: await codeOf(referrer) })).status).toBe(401);
  });

  it("is not for a lifetime plan holder, whether bought or redeemed", async () => {
    const referrer = await signUpUser();
    const code = await codeOf(referrer);
    const admin = await signUpUser();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
    const created = await read(await post("/api/admin/redeemCodes", admin, { planId: "lifetime", count: 1 }));
    const holder = await signUpUser();
    expect((await post("/api/subscriptions/redeemPurchaseCode", holder, { redemptionCode: created.codes[0] })).status).toBe(200);
    const refused = await post(RECORD, holder, { referralCode: code });
    expect(refused.status).toBe(409);
    expect(await read(refused)).toMatchObject({ reason: "The free month is for new customers, and your account already has a plan." });
    expect((await credentialsOf(holder)).planId).toBe("lifetime");
  });

  it("gives one month when the same user claims twice at once", async () => {
    const referrer = await signUpUser();
    const friend = await signUpVerifiedUser();
    const code = await codeOf(referrer);
    const answers = await Promise.all([post(RECORD, friend, { referralCode: code }), post(RECORD, friend, { referralCode: code })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const grants = await db.query.subscriptions.findMany({ where: (s, { eq: is }) => is(s.userId, friend.userId) });
    expect(grants).toHaveLength(1);
  });
});

/** An alias of an address: the same inbox with a +tag. */
const alias = (email: string, tag: string) => email.replace("@", `+${tag}@`);

async function claimFor(user: TestUser, referrer: TestUser) {
  const response = await post(RECORD, user, { referralCode: await codeOf(referrer) });
  return { status: response.status, body: await read(response) };
}

const OWN_CODE = { error: "Unable to record referral", reason: "This is your own invite link: share it with a friend instead." };
const MAILBOX_CLAIMED = {
  error: "Unable to record referral",
  reason:
    "A free month was already claimed with this e-mail inbox. It is given once per inbox, and addresses that differ only by dots or a +tag are the same inbox.",
};

describe("one free month per mailbox (issue 37, decision 079)", () => {
  it("refuses the referrer's own aliases: me+1, me+2 and me+3 get nothing with the code of me", async () => {
    const me = await signUpUser({ firstName: "Mia" });
    for (const tag of ["1", "2", "3"]) {
      const aliasAccount = await signUpVerifiedUser({ email: alias(me.email, tag) });
      const claim = await claimFor(aliasAccount, me);
      expect(claim.status, aliasAccount.email).toBe(409);
      expect(claim.body).toMatchObject(OWN_CODE);
      expect((await credentialsOf(aliasAccount)).planId).toBe("free");
      expect(await db.select().from(referrals).where(eq(referrals.referredUserId, aliasAccount.userId))).toHaveLength(0);
    }
  });

  it("reads Gmail addresses as Gmail does: dots, case and googlemail.com do not make another inbox", async () => {
    const local = `mia${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const me = await signUpUser({ email: `${local}@gmail.com` });
    const dotted = await signUpVerifiedUser({ email: `${local.slice(0, 1)}.${local.slice(1, 4)}.${local.slice(4)}@gmail.com` });
    expect((await claimFor(dotted, me)).body).toMatchObject(OWN_CODE);
    const googlemail = await signUpVerifiedUser({ email: `${local.toUpperCase()}+gift@GoogleMail.com` });
    expect((await claimFor(googlemail, me)).body).toMatchObject(OWN_CODE);
  });

  it("needs a verified address, tells an unverified user so, and records nothing until then", async () => {
    const referrer = await signUpUser({ firstName: "Ines" });
    // A made-up address: nobody opened its mail.
    const made = await signUpUser({ email: uniqueEmail("made-up") });
    const refused = await claimFor(made, referrer);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: "Unable to record referral",
      reason: "Please verify your e-mail address first: open the link we e-mailed you, then claim your free month.",
    });
    expect(await db.select().from(referrals).where(eq(referrals.referredUserId, made.userId))).toHaveLength(0);
    expect((await credentialsOf(made)).planId).toBe("free");

    // Once verified, the same claim goes through.
    await verifyEmailOf(made);
    expect((await claimFor(made, referrer)).status).toBe(200);
  });

  it("gives a mailbox one free month, ever: not to an alias, nor after the account is closed and opened again", async () => {
    const [ines, tom, ana] = await Promise.all([signUpUser({ firstName: "Ines" }), signUpUser({ firstName: "Tom" }), signUpUser({ firstName: "Ana" })]);
    const friend = await signUpVerifiedUser();
    expect((await claimFor(friend, ines)).status).toBe(200);

    // Another account at an alias of the same inbox, another friend's code.
    const second = await signUpVerifiedUser({ email: alias(friend.email, "again") });
    const refused = await claimFor(second, tom);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(MAILBOX_CLAIMED);
    expect(await db.select().from(referrals).where(eq(referrals.referredUserId, second.userId))).toHaveLength(0);

    // The first account is closed; a new one at yet another alias is verified and claims again.
    expect((await app("/api/user/deleteUserAccount", { method: "DELETE", headers: bearer(friend.tokens) })).status).toBe(200);
    expect((await app("/api/user/deleteUserAccount", { method: "DELETE", headers: bearer(second.tokens) })).status).toBe(200);
    const reborn = await signUpVerifiedUser({ email: alias(friend.email, "reborn") });
    const again = await claimFor(reborn, ana);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(MAILBOX_CLAIMED);
    expect((await credentialsOf(reborn)).planId).toBe("free");
    // Even the very same address, signed up again.
    expect((await app("/api/user/deleteUserAccount", { method: "DELETE", headers: bearer(reborn.tokens) })).status).toBe(200);
    const same = await signUpVerifiedUser({ email: friend.email });
    expect((await claimFor(same, ana)).body).toEqual(MAILBOX_CLAIMED);

    // What is kept is a key, not the address.
    const key = await mailboxKey(testEnv, friend.email);
    const rows = await testEnv.DB.prepare(`SELECT * FROM free_month_mailboxes WHERE mailbox_key = ?`).bind(key).all<Record<string, unknown>>();
    expect(rows.results).toHaveLength(1);
    expect(Object.keys(rows.results[0]).sort()).toEqual(["claimed_at", "mailbox_key"]);
    expect(JSON.stringify(rows.results[0])).not.toContain(friend.email.split("@")[0]);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it("counts a claim made before the rule: the cron records its mailbox, and then an alias gets nothing", async () => {
    const [early, tom] = await Promise.all([signUpVerifiedUser(), signUpUser({ firstName: "Tom" })]);
    // A claim as it was written before migration 0040: a referral row, its mailbox not recorded.
    await testEnv.DB.prepare(
      "INSERT INTO referrals (referred_user_id, referrer_id, referral_code, recorded_at, mailbox_recorded, created_at) VALUES (?1, ?2, 'OLDCODE', ?3, 0, ?3)",
    )
      .bind(early.userId, tom.userId, Date.now() - 86_400_000)
      .run();
    let recorded = 0;
    // The shared database may hold other such rows; the sweep takes them a batch at a time.
    for (
      let run = 0;
      run < 50 && (await db.select().from(referrals).where(eq(referrals.referredUserId, early.userId)))[0]?.mailboxRecorded !== true;
      run += 1
    ) {
      recorded += await recordClaimedMailboxes(testEnv);
    }
    expect(recorded).toBeGreaterThan(0);
    const aliasAccount = await signUpVerifiedUser({ email: alias(early.email, "later") });
    const refused = await claimFor(aliasAccount, tom);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(MAILBOX_CLAIMED);
    // Once recorded, a run finds nothing more of it.
    expect(
      await testEnv.DB.prepare("SELECT count(*) AS n FROM free_month_mailboxes WHERE mailbox_key = ?1")
        .bind(await mailboxKey(testEnv, early.email))
        .first("n"),
    ).toBe(1);
  });

  it("gives the mailbox back when the claim is not recorded, so a refused claim costs nothing", async () => {
    const referrer = await signUpUser();
    const payer = await signUpVerifiedUser();
    await subscribe(payer, "pro-monthly");
    expect((await claimFor(payer, referrer)).status).toBe(409);
    expect(
      await testEnv.DB.prepare(`SELECT 1 FROM free_month_mailboxes WHERE mailbox_key = ?`)
        .bind(await mailboxKey(testEnv, payer.email))
        .first(),
    ).toBeNull();
  });
});

describe("the referrer's credit", () => {
  it("appears in the Stripe stand-in once, when the referred user first pays, and counts as a referred sale", async () => {
    const referrer = await signUpUser({ firstName: "Ines" });
    // The referrer has a Stripe customer (they pay for Pro).
    await subscribe(referrer, "pro-monthly");
    const customer = await stripeCustomerOf(referrer);
    const code = await codeOf(referrer);
    const before = await stripeBalanceOf(customer);

    const friend = await signUpVerifiedUser();
    expect((await post(RECORD, friend, { referralCode: code })).status).toBe(200);
    // Claiming is not paying: no credit yet.
    expect((await stripeBalanceOf(customer)).balance).toBe(before.balance);

    // The friend subscribes: the free month used their trial, so the first invoice is paid at once.
    await checkoutAndPay(friend, "starter-monthly");
    const friendCustomer = await stripeCustomerOf(friend);
    const [paid] = await signedEvents(friendCustomer, "invoice.paid");
    expect(paid).toBeTruthy();
    expect((await deliver(paid)).status).toBe(200);

    const after = await stripeBalanceOf(customer);
    expect(after.balance).toBe(before.balance - 1699);
    const credits = after.transactions.filter((t) => t.metadata?.referredUserId === friend.userId);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ amount: -1699, currency: "usd" });

    // Delivered again (a retry), or the friend's next payment: no second credit.
    await deliver(paid);
    const [subscription] = await sandbox<{ id: string }[]>(`/stripe/subscriptions?customer=${friendCustomer}`);
    await sandbox(`/stripe/subscriptions/${subscription.id}/renew`, { method: "POST", json: {} });
    for (const event of await signedEvents(friendCustomer, "invoice.paid")) await deliver(event);
    expect((await stripeBalanceOf(customer)).balance).toBe(before.balance - 1699);

    expect(await read(await app(`${PROFILE}/${code}`))).toMatchObject({ firstName: "Ines", referredSales: 1 });
  });

  it("comes from a lifetime purchase too (checkout.session.completed of a paid purchase)", async () => {
    const { customer, before, friend } = await payingReferrerAndClaimedFriend();

    // Bought in the same second as the claim (Stripe keeps whole seconds): the purchase still wins over the free month.
    const start = await post("/api/stripeSubscriptions/startStripeOnceOffPayment", friend, {
      stripePriceID: "price_lifetime",
      planId: "lifetime",
      returnUrl: "/lifetime",
    });
    expect(start.status).toBe(200);
    expect((await payHostedCheckout((await read(start)).redirectUrl)).status).toBe(303);
    const [completed] = await signedEvents(await stripeCustomerOf(friend), "checkout.session.completed");
    expect((await deliver(completed)).status).toBe(200);
    expect((await credentialsOf(friend)).planId).toBe("lifetime");
    expect((await stripeBalanceOf(customer)).balance).toBe(before - 1699);
    await deliver(completed);
    expect((await stripeBalanceOf(customer)).balance).toBe(before - 1699);
  });

  it("comes from a PayPal subscriber's first payment too, once", async () => {
    const { customer, before, friend } = await payingReferrerAndClaimedFriend();

    const subscriptionID = await startAndApprovePayPal(friend, "starter-monthly");
    const events = await paypalDeliveries(subscriptionID);
    expect(events.map((event) => event.type)).toContain("PAYMENT.SALE.COMPLETED");
    await deliverAllTo(PAYPAL_WEBHOOK, events);
    expect((await stripeBalanceOf(customer)).balance).toBe(before - 1699);
    // The same sale delivered again is a duplicate: nothing more.
    await deliverAllTo(PAYPAL_WEBHOOK, events);
    expect((await stripeBalanceOf(customer)).balance).toBe(before - 1699);
    const [row] = await db.select().from(referrals).where(eq(referrals.referredUserId, friend.userId));
    expect(row.paymentRef).toMatch(/^paypal:/);
  });

  it("comes from a Shopify subscriber's first billed interval too, once", async () => {
    const { customer, before, friend } = await payingReferrerAndClaimedFriend();

    // The free month used the friend's trial: Shopify bills the first interval when they approve.
    const { shop, gid, chargeId } = await subscribeShopify(friend, "starter-monthly", newShop("referral"));
    expect((await shopifyCharge(gid)).trialDays).toBe(0);
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    expect((await stripeBalanceOf(customer)).balance).toBe(before - 1699);
    const [row] = await db.select().from(referrals).where(eq(referrals.referredUserId, friend.userId));
    expect(row.paymentRef).toBe(`shopify:${gid}@${(await shopifyCharge(gid)).currentPeriodEnd}`);

    // Delivered again, and the next interval: no second credit.
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await sandbox(`/shopify/subscriptions/${chargeId}/renew`, { method: "POST" });
    await deliverAllTo(SHOPIFY_WEBHOOK, await shopifyDeliveries(shop));
    expect((await stripeBalanceOf(customer)).balance).toBe(before - 1699);
  });

  it("waits for a referrer without a Stripe customer, and lands on their first checkout", async () => {
    const referrer = await signUpUser();
    const friend = await signUpVerifiedUser();
    expect((await post(RECORD, friend, { referralCode: await codeOf(referrer) })).status).toBe(200);
    await checkoutAndPay(friend, "starter-monthly");
    const [paid] = await signedEvents(await stripeCustomerOf(friend), "invoice.paid");
    expect((await deliver(paid)).status).toBe(200);

    const [row] = await db.select().from(referrals).where(eq(referrals.referredUserId, friend.userId));
    expect(row.firstPaidAt).not.toBeNull();
    expect(row.creditedAt).toBeNull();

    // The referrer starts a checkout: the credit is on their Stripe customer before they pay.
    const start = await post("/api/stripeSubscriptions/startStripeSubscription", referrer, { planId: "starter-monthly" });
    expect(start.status).toBe(200);
    const customer = await stripeCustomerOf(referrer);
    const { balance, transactions } = await stripeBalanceOf(customer);
    expect(balance).toBe(-1699);
    expect(transactions.filter((t) => t.metadata?.referredUserId === friend.userId)).toHaveLength(1);
    const [credited] = await db.select().from(referrals).where(eq(referrals.referredUserId, friend.userId));
    expect(credited.creditTxnId).toBe(transactions[0].id);

    // A second checkout start does not credit again.
    expect((await post("/api/stripeSubscriptions/startStripeSubscription", referrer, { planId: "starter-monthly" })).status).toBe(200);
    expect((await stripeBalanceOf(customer)).balance).toBe(-1699);
  });
});

describe("gift invites", () => {
  it("e-mails the invite link to a friend, ticks the onboarding step, and refuses bad input", async () => {
    const user = await signUpUser({ firstName: "Maya", lastName: "Lindqvist" });
    const code = await codeOf(user);
    const friend = uniqueEmail("friend");
    const sent = await post(INVITE, user, { email: friend.toUpperCase(), referralCode: code });
    expect(sent.status).toBe(200);
    expect(await read(sent)).toEqual({ message: "Gift sent successfully!" });
    const [mail] = await outboxFor(friend);
    expect(mail.subject).toBe("Maya Lindqvist gifted you a free month of Pinboard Studio");
    expect(mail.links.some((link) => new URL(link).pathname === "/referral" && new URL(link).searchParams.get("pgreferral") === code)).toBe(true);

    const me = await read(await app("/api/user", { headers: bearer(user.tokens) }));
    expect(me.credentials.onboardingChecklist.find((step: { name: string }) => step.name === "inviteFriend")).toMatchObject({ isChecked: true });

    for (const [body, field, error] of [
      [{ email: "not an address", referralCode: code }, "email", "Please enter a valid email address."],
      [{ referralCode: code }, "email", "email is required"],
      [{ email: friend }, "referralCode", "referralCode is required"],
      [{ email: friend, referralCode: await codeOf(await signUpUser()) }, "referralCode", "referralCode must be your own referral code"],
      [{ email: user.email, referralCode: code }, "email", "Send the gift to a friend's address, not your own."],
    ] as const) {
      const response = await post(INVITE, user, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await read(response)).toMatchObject({ field, error });
    }
    expect(await outboxFor(friend)).toHaveLength(1);
    expect((await post(INVITE, null, { email: friend, referralCode: code })).status).toBe(401);
  });

  it("is rate-limited per user: the 11th gift of the day is refused and sends nothing", async () => {
    const user = await signUpUser();
    const code = await codeOf(user);
    const friends = Array.from({ length: 11 }, () => uniqueEmail("gift"));
    for (const friend of friends.slice(0, 10)) expect((await post(INVITE, user, { email: friend, referralCode: code })).status).toBe(200);
    const limited = await post(INVITE, user, { email: friends[10], referralCode: code });
    expect(limited.status).toBe(429);
    expect((await read(limited)).error).toMatch(/^You have sent a lot of gifts today\. Please try again in 24 hours\.$/);
    expect(await outboxFor(friends[10])).toHaveLength(0);
    // Another user is not limited by this one's gifts.
    const other = await signUpUser();
    expect((await post(INVITE, other, { email: friends[10], referralCode: await codeOf(other) })).status).toBe(200);
  });
});

describe("cross-user safety", () => {
  it("a user's claim changes only their own plan, and a user cannot send gifts under someone else's code", async () => {
    const referrer = await signUpUser();
    const friend = await signUpVerifiedUser();
    const referrerBefore = await db.query.users.findFirst({ where: eq(users.id, referrer.userId) });
    expect((await post(RECORD, friend, { referralCode: await codeOf(referrer) })).status).toBe(200);
    const referrerAfter = await db.query.users.findFirst({ where: eq(users.id, referrer.userId) });
    expect(referrerAfter?.planId).toBe(referrerBefore?.planId);
    expect((await credentialsOf(referrer)).planId).toBe("free");
    const stolen = await post(INVITE, friend, { email: uniqueEmail("victim"), referralCode: await codeOf(referrer) });
    expect(stolen.status).toBe(400);
  });
});
