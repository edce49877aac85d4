import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../../workers/db/schema.ts";
import { CODE_ALREADY_YOURS_MESSAGE, CODE_NOT_VALID_MESSAGE, REDEEM_CODE_ALPHABET } from "../../../contracts/billing/plans-api.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { creditsOf, credentialsOf, db, post, stripeCustomerOf } from "./billing-support.ts";
import { app, read, sandbox } from "../support.ts";

// POST /api/admin/redeemCodes (admins only) and POST /api/subscriptions/redeemPurchaseCode.

const CREATE = "/api/admin/redeemCodes";
const REDEEM = "/api/subscriptions/redeemPurchaseCode";

async function signUpAdmin(): Promise<TestUser> {
  const admin = await signUpUser();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
  return admin;
}

async function createCodes(admin: TestUser, body: { planId: string; count: number; months?: number }): Promise<string[]> {
  const response = await post(CREATE, admin, body);
  expect(response.status).toBe(201);
  const created = await read(response);
  expect(created.codes).toHaveLength(body.count);
  return created.codes;
}

describe("creating redeem codes", () => {
  it("gives an admin a batch of distinct codes", async () => {
    const admin = await signUpAdmin();
    const codes = await createCodes(admin, { planId: "starter-monthly", count: 45, months: 3 });
    expect(new Set(codes).size).toBe(45);
    for (const code of codes) expect(code).toMatch(/^([A-Z2-9]{4}-){3}[A-Z2-9]{4}$/);
  });

  it("is for admins only", async () => {
    const user = await signUpUser();
    const response = await post(CREATE, user, { planId: "lifetime", count: 1 });
    expect(response.status).toBe(403);
    expect(await read(response)).toMatchObject({ error: "Only admins can create redeem codes." });
    expect((await post(CREATE, null, { planId: "lifetime", count: 1 })).status).toBe(401);
  });

  it("refuses bad input and unknown plans", async () => {
    const admin = await signUpAdmin();
    for (const [body, field] of [
      [{ planId: "lifetime", count: 0 }, "count"],
      [{ planId: "lifetime", count: 501 }, "count"],
      [{ planId: "lifetime", count: 2.5 }, "count"],
      [{ planId: "lifetime" }, "count"],
      [{ count: 1 }, "planId"],
      [{ planId: "starter-monthly", count: 1 }, "months"],
      [{ planId: "starter-monthly", count: 1, months: 0 }, "months"],
      [{ planId: "lifetime", count: 1, months: 2 }, "months"],
      [{ planId: "free", count: 1, months: 2 }, "planId"],
    ] as const) {
      const response = await post(CREATE, admin, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
    expect((await post(CREATE, admin, { planId: "platinum", count: 1 })).status).toBe(404);
  });
});

describe("redeeming a code", () => {
  it("grants the lifetime plan, once", async () => {
    const admin = await signUpAdmin();
    const [code] = await createCodes(admin, { planId: "lifetime", count: 1 });
    const user = await signUpUser();
    // Case, spaces and dashes are forgiven.
    const response = await post(REDEEM, user, { redemptionCode: ` ${code!.toLowerCase().replaceAll("-", "")} ` });
    expect(response.status).toBe(200);
    expect(await read(response)).toMatchObject({ planId: "lifetime", months: null, profileUpdates: { planId: "lifetime", planStatus: "Active" } });
    expect(await creditsOf(user)).toMatchObject({ planId: "lifetime", creditsPerMonth: 400, remaining: 400 });

    const again = await post(REDEEM, await signUpUser(), { redemptionCode: code });
    expect(again.status).toBe(404);
    expect(await read(again)).toEqual({ error: CODE_NOT_VALID_MESSAGE });
    // Only the person who redeemed it is told that they did.
    const mine = await post(REDEEM, user, { redemptionCode: code });
    expect(mine.status).toBe(409);
    expect(await read(mine)).toEqual({ error: CODE_ALREADY_YOURS_MESSAGE });
  });

  it("grants months of a plan that end without renewing", async () => {
    const admin = await signUpAdmin();
    const [code] = await createCodes(admin, { planId: "pro-monthly", count: 1, months: 2 });
    const user = await signUpUser();
    const response = await post(REDEEM, user, { redemptionCode: code });
    expect(response.status).toBe(200);
    const body = await read(response);
    expect(body).toMatchObject({ planId: "pro-monthly", planName: "Pro", months: 2 });
    const endsIn = Date.parse(body.profileUpdates.cancelSubscriptionDate) - Date.now();
    expect(endsIn).toBeGreaterThan(58 * 86_400_000);
    expect(endsIn).toBeLessThan(63 * 86_400_000);
    expect(await creditsOf(user)).toMatchObject({ planId: "pro-monthly", remaining: 400 });
    expect(await credentialsOf(user)).toMatchObject({ planId: "pro-monthly" });
  });

  it("does not use up the free trial: redeeming a code is not a trial", async () => {
    const admin = await signUpAdmin();
    const [code] = await createCodes(admin, { planId: "starter-monthly", count: 1, months: 1 });
    const user = await signUpUser();
    const response = await post(REDEEM, user, { redemptionCode: code });
    expect(response.status).toBe(200);
    expect((await read(response)).profileUpdates).toMatchObject({ planId: "starter-monthly", usedFreeTrial: false });
    expect(await credentialsOf(user)).toMatchObject({ planId: "starter-monthly", usedFreeTrial: false });

    // So a Stripe checkout still offers the 7-day trial: nothing is charged now.
    const start = await post("/api/stripeSubscriptions/startStripeSubscription", user, { planId: "pro-monthly" });
    expect(start.status).toBe(200);
    const [session] = await sandbox<{ amount_subtotal: number; amount_total: number }[]>(`/stripe/checkout_sessions?customer=${await stripeCustomerOf(user)}`);
    expect(session).toMatchObject({ amount_subtotal: 2999, amount_total: 0 });
    expect(await (await fetch((await read(start)).redirectUrl)).text()).toContain("7 days free");
  });

  it("gives exactly one success when two redemptions of a code race", async () => {
    const admin = await signUpAdmin();
    const [code] = await createCodes(admin, { planId: "lifetime", count: 1 });
    const [first, second] = await Promise.all([signUpUser(), signUpUser()]);
    const responses = await Promise.all([post(REDEEM, first!, { redemptionCode: code }), post(REDEEM, second!, { redemptionCode: code })]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 404]);
    const plans = await Promise.all([credentialsOf(first!), credentialsOf(second!)]);
    expect(plans.map((plan) => plan.planId).sort()).toEqual(["free", "lifetime"]);
  });

  it("answers a clear error for unknown or malformed codes and when signed out", async () => {
    const user = await signUpUser();
    const unknown = await post(REDEEM, user, { redemptionCode: "AAAA-BBBB-CCCC-DDDD" });
    expect(unknown.status).toBe(404);
    expect(await read(unknown)).toEqual({ error: CODE_NOT_VALID_MESSAGE });
    for (const body of [{}, { redemptionCode: "" }, { redemptionCode: "abc" }, { redemptionCode: 12 }]) {
      const response = await post(REDEEM, user, body);
      expect(response.status).toBe(400);
      expect(await read(response)).toMatchObject({ field: "redemptionCode" });
    }
    expect((await post(REDEEM, null, { redemptionCode: "AAAA-BBBB-CCCC-DDDD" })).status).toBe(401);
  });
});

describe("guessing codes", () => {
  it("learns nothing: a code that does not exist and one someone else used answer exactly the same", async () => {
    const admin = await signUpAdmin();
    const [used] = await createCodes(admin, { planId: "starter-monthly", count: 1, months: 1 });
    expect((await post(REDEEM, await signUpUser(), { redemptionCode: used })).status).toBe(200);
    const guesser = await signUpUser();
    const answers = await Promise.all(
      [used!, "ZZZZ-ZZZZ-ZZZZ-ZZZZ"].map(async (code) => {
        const response = await post(REDEEM, guesser, { redemptionCode: code });
        return { status: response.status, body: await response.text() };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(404);
  });

  it("stops after 10 codes that are not valid in an hour for an account, and after 30 from one address, before looking anything up", async () => {
    const admin = await signUpAdmin();
    const [good] = await createCodes(admin, { planId: "starter-monthly", count: 1, months: 1 });
    const ip = "203.0.113.77";
    const guesser = await signUpUser();
    const from = (who: TestUser, redemptionCode: string, address = ip) =>
      app(REDEEM, json({ redemptionCode }, { ...bearer(who.tokens), "cf-connecting-ip": address }));
    const letters = (n: number) => Array.from({ length: 4 }, (_, i) => REDEEM_CODE_ALPHABET[Math.floor(n / 32 ** i) % 32]).join("");
    const guess = (who: TestUser, n: number) => from(who, `QQQQ-QQQQ-QQQQ-${letters(n)}`);
    for (let n = 0; n < 10; n += 1) expect((await guess(guesser, n)).status).toBe(404);
    const limited = await from(guesser, good!);
    expect(limited.status).toBe(429);
    expect((await read(limited)).error).toMatch(/^You have tried too many codes that are not valid\. Please try again in \d+ minutes?\.$/);
    // Even the good code waits: nothing was looked up or used.
    expect(await credentialsOf(guesser)).toMatchObject({ planId: "free" });

    // New accounts from the same address share its allowance of 30.
    let refused = 0;
    for (let n = 0; n < 3; n += 1) {
      const another = await signUpUser();
      for (let k = 0; k < 10; k += 1) if ((await guess(another, 100 + n * 10 + k)).status === 429) refused += 1;
    }
    expect(refused).toBe(10);
    // Another address is not held back by this one, and a good code still works there.
    expect((await from(await signUpUser(), good!, "203.0.113.7")).status).toBe(200);
  });
});
