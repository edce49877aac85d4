import { and, eq, lt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { OUT_OF_CREDITS_MESSAGE } from "../../../contracts/billing/credits.ts";
import { creditLedger, pinHistory, users } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { addMonths } from "../../../workers/domain/plans.ts";
import { consumeCredits, creditsSummary } from "../../../workers/services/billing/credits.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { creditsOf, credentialsOf, db, post } from "./billing-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

// The credit ledger: monthly grants from the plan, no rollover, idempotent spends, and the
// out-of-credits refusal (402, nothing done), also for AI calls before OpenAI is asked.

const INCREMENT = "/api/user/incrementUsedPinCredits";
const PIN_HISTORY = "/api/scraping/addPinHistoryAndAdjustCredits";

async function spendAll(user: TestUser) {
  const { remaining } = await creditsOf(user);
  await consumeCredits(testEnv, user.userId, { category: "image", amount: remaining, reason: "Pin download", reference: `spend-all-${user.userId}` });
  expect((await creditsOf(user)).remaining).toBe(0);
}

async function spendRows(user: TestUser) {
  return ledgerOf(testEnv, user.userId)
    .db.select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, user.userId), lt(creditLedger.amount, 0)));
}

describe("monthly credits", () => {
  it("gives a new Free user 10 credits for the month that started at signup", async () => {
    const user = await signUpUser();
    const row = await db.query.users.findFirst({ where: eq(users.id, user.userId) });
    const credits = await creditsOf(user);
    expect(credits).toEqual({
      planId: "free",
      creditsPerMonth: 10,
      usedPinCredits: 0,
      remaining: 10,
      periodStart: new Date(row!.createdAt).toISOString(),
      periodEnd: new Date(addMonths(row!.createdAt, 1)).toISOString(),
    });
    const anonymous = await app("/api/user/credits");
    expect(anonymous.status).toBe(401);
  });

  it("does not roll unused credits over: each billing month starts from the plan's amount", async () => {
    const user = await signUpUser();
    const signup = (await db.query.users.findFirst({ where: eq(users.id, user.userId) }))!.createdAt;
    const inMonth1 = signup + 86_400_000;
    const inMonth2 = addMonths(signup, 1) + 86_400_000;
    const inMonth3 = addMonths(signup, 2) + 3_600_000;

    await consumeCredits(testEnv, user.userId, { category: "image", amount: 4, reason: "Pin download", reference: "rollover:month1:a" }, inMonth1);
    expect(await creditsSummary(testEnv, user.userId, inMonth1)).toMatchObject({ usedPinCredits: 4, remaining: 6 });

    // Month 2: 10 again, not 16; the 6 left over are gone, so 11 cannot be paid.
    const month2 = await creditsSummary(testEnv, user.userId, inMonth2);
    expect(month2).toMatchObject({ usedPinCredits: 0, remaining: 10, periodStart: new Date(addMonths(signup, 1)).toISOString() });
    await expect(
      consumeCredits(testEnv, user.userId, { category: "image", amount: 11, reason: "Pin download", reference: "rollover:month2:a" }, inMonth2),
    ).rejects.toMatchObject({
      status: 402,
    });
    await consumeCredits(testEnv, user.userId, { category: "video", amount: 10, reason: "Pin download", reference: "rollover:month2:b" }, inMonth2);
    expect(await creditsSummary(testEnv, user.userId, inMonth2)).toMatchObject({ usedPinCredits: 10, remaining: 0 });

    // Month 3 starts afresh; month 1 still reads as it was.
    expect(await creditsSummary(testEnv, user.userId, inMonth3)).toMatchObject({ usedPinCredits: 0, remaining: 10 });
    expect(await creditsSummary(testEnv, user.userId, inMonth1)).toMatchObject({ usedPinCredits: 4, remaining: 6 });
    const grants = await ledgerOf(testEnv, user.userId)
      .db.select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.userId), eq(creditLedger.category, "grant")));
    expect(grants.map((grant) => grant.amount)).toEqual([10, 10, 10]);
  });

  it("charges a spend once however often it is retried, and usedPinCredits follows the ledger", async () => {
    const user = await signUpUser();
    const body = { creditAmount: 2, category: "aiAltText", reference: "retry:alt-text:0001" };
    const first = await post(INCREMENT, user, body);
    expect(await read(first)).toEqual({ charged: true, creditsCharged: 2, usedPinCredits: 2 });
    // A replay answers the first result, charging nothing more.
    const again = await Promise.all([post(INCREMENT, user, body), post(INCREMENT, user, body)]);
    for (const response of again) expect(await read(response)).toEqual({ charged: true, creditsCharged: 2, usedPinCredits: 2 });
    expect(await spendRows(user)).toHaveLength(1);
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 2, remaining: 8 });
    expect((await credentialsOf(user)).usedPinCredits).toBe(2);
  });

  it("never goes below zero: 20 simultaneous spends of 1 at a balance of 10 charge exactly 10", async () => {
    const user = await signUpUser();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(INCREMENT, user, { creditAmount: 1, category: "image", reference: `burst:${user.userId.slice(0, 8)}:${i}` })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(10);
    for (const response of responses.filter((r) => r.status === 402)) {
      expect(await read(response)).toEqual({ error: OUT_OF_CREDITS_MESSAGE, upgradeUrl: "/pricing" });
    }
    const spends = await spendRows(user);
    expect(spends.reduce((sum, row) => sum + row.amount, 0)).toBe(-10);
    expect(await creditsOf(user)).toMatchObject({ usedPinCredits: 10, remaining: 0 });
  });
});

describe("out of credits", () => {
  it("refuses a download with 402 and the upgrade link, and records nothing in the pin history", async () => {
    const user = await signUpUser();
    await spendAll(user);
    const before = await spendRows(user);
    const response = await post(PIN_HISTORY, user, {
      pinDetails: {
        action: "downloaded",
        title: "Linen napkins",
        description: "",
        url: "https://linen.example/napkins",
        imageUrl: "https://app.test/media/x.jpeg",
      },
      numCreditsToConsume: 1,
      category: "image",
      reference: "download:out-of-credits:1",
    });
    expect(response.status).toBe(402);
    expect(await read(response)).toEqual({ error: OUT_OF_CREDITS_MESSAGE, upgradeUrl: "/pricing" });
    expect(await ledgerOf(testEnv, user.userId).db.select().from(pinHistory).where(eq(pinHistory.userId, user.userId))).toHaveLength(0);
    expect(await spendRows(user)).toHaveLength(before.length);

    // Half a credit short is short too: 0.5 cannot be paid from 0.
    const half = await post(INCREMENT, user, { creditAmount: 0.5, category: "aiText" });
    expect(half.status).toBe(402);
  });

  it("refuses AI copy up front, before OpenAI is asked, when the balance cannot pay", async () => {
    const user = await signUpUser();
    await spendAll(user);
    const marker = `Copper kettles ${Date.now().toString(36)}`;
    const rewrite = await app("/api/openAI/rewriteText", {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(user.tokens) },
      body: JSON.stringify({ prompt: marker, numResults: 2 }),
    });
    expect(rewrite.status).toBe(402);
    expect(await read(rewrite)).toEqual({ error: OUT_OF_CREDITS_MESSAGE, upgradeUrl: "/pricing" });
    const altText = await post("/api/openAI/getAltTextFromImage", user, { imageURL: `https://blog.example/${encodeURIComponent(marker)}.jpg` });
    expect(altText.status).toBe(402);

    const requests = await sandbox<{ body: unknown }[]>("/requests?service=openai");
    expect(
      requests.filter((request) => JSON.stringify(request.body).includes(encodeURIComponent(marker)) || JSON.stringify(request.body).includes(marker)),
    ).toHaveLength(0);
    expect((await creditsOf(user)).usedPinCredits).toBe(10);
  });

  it("lets a free rewrite through: it costs nothing", async () => {
    const user = await signUpUser();
    await spendAll(user);
    const response = await app("/highMemLimitApi/openAI/rewriteTextNoDuplicatesFree", {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(user.tokens) },
      body: JSON.stringify({ prompt: `Free rewrite of linen ${Date.now().toString(36)}` }),
    });
    expect(response.status).toBe(200);
  });
});
