import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { creditLedger, pinHistory } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

/** A drizzle client over the user's ledger (credit_ledger and pin_history live there). */
const ledgerDb = (user: TestUser) => ledgerOf(testEnv, user.userId).db;

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await signUpUser({ firstName: "Alice" });
  bob = await signUpUser({ firstName: "Bob" });
});

async function usedCredits(user: TestUser): Promise<number> {
  return (await read(await app("/api/user", { headers: bearer(user.tokens) }))).credentials.usedPinCredits;
}

const download = (reference: string, title = "Linen napkins, three ways") => ({
  pinDetails: { action: "downloaded", title, description: "Fold them", url: "https://linen.example/napkins", imageUrl: "https://app.test/media/x.jpeg" },
  numCreditsToConsume: 1,
  category: "image",
  reference,
});

describe("credit consumption and pin history", () => {
  it("records a download in pin history and charges it once, however often it is retried", async () => {
    expect(await usedCredits(alice)).toBe(0);
    const first = await app("/api/scraping/addPinHistoryAndAdjustCredits", json(download("download:post-1:render-1"), bearer(alice.tokens)));
    expect(first.status).toBe(200);
    const answer = await read(first);
    expect(answer).toMatchObject({ charged: true, creditsCharged: 1, usedPinCredits: 1 });

    // A retry answers the first result and charges nothing more.
    const retried = await app("/api/scraping/addPinHistoryAndAdjustCredits", json(download("download:post-1:render-1"), bearer(alice.tokens)));
    expect(await read(retried)).toEqual(answer);

    const history = await ledgerDb(alice).select().from(pinHistory).where(eq(pinHistory.userId, alice.userId));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: "downloaded", category: "image", credits: 1, title: "Linen napkins, three ways" });
    expect(await usedCredits(alice)).toBe(1);
    // Bob's credits are his own.
    expect(await usedCredits(bob)).toBe(0);
  });

  it("charges half credits for AI text through incrementUsedPinCredits", async () => {
    const before = await usedCredits(bob);
    const response = await app(
      "/api/user/incrementUsedPinCredits",
      json({ creditAmount: 0.5, category: "aiText", reference: "ai:title:abc123" }, bearer(bob.tokens)),
    );
    expect(response.status).toBe(200);
    expect((await read(response)).usedPinCredits).toBe(before + 0.5);
    const rows = await ledgerDb(bob).select().from(creditLedger).where(eq(creditLedger.userId, bob.userId));
    expect(rows.map((r) => [r.category, r.amount])).toContainEqual(["aiText", -0.5]);
  });

  it("refuses a spend without a category, and sends nothing to the ledger", async () => {
    const before = await ledgerDb(bob).select().from(creditLedger).where(eq(creditLedger.userId, bob.userId));
    const missing = await app("/api/user/incrementUsedPinCredits", json({ creditAmount: 1 }, bearer(bob.tokens)));
    expect(missing.status).toBe(400);
    expect(await read(missing)).toMatchObject({ field: "category" });
    const unknown = await app("/api/scraping/addPinHistoryAndAdjustCredits", json({ ...download("download:x:y:z"), category: "stickers" }, bearer(bob.tokens)));
    expect(unknown.status).toBe(400);
    expect(await read(unknown)).toMatchObject({ field: "category" });
    const bad = await app("/api/user/incrementUsedPinCredits", json({ creditAmount: 0.3, category: "image" }, bearer(bob.tokens)));
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "creditAmount" });
    const after = await ledgerDb(bob).select().from(creditLedger).where(eq(creditLedger.userId, bob.userId));
    expect(after).toHaveLength(before.length);
  });

  it("needs a signed-in user", async () => {
    const response = await app("/api/user/incrementUsedPinCredits", json({ creditAmount: 1, category: "image" }));
    expect(response.status).toBe(401);
  });
});
