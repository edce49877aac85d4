import Papa from "papaparse";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adminAuditLog, redeemCodeBatches, redeemCodes, users } from "../../../workers/db/schema.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { creditsOf, db, post } from "../billing/billing-support.ts";
import { app, read } from "../support.ts";

// The admin console's redeem codes (issue 20, decision 053).

const CREATE = "/api/admin/redeemCodes";
const BATCHES = "/api/admin/redeemCodeBatches";
const REDEEM = "/api/subscriptions/redeemPurchaseCode";
const DAY = 24 * 60 * 60 * 1000;

async function signUpAdmin(): Promise<TestUser> {
  const admin = await signUpUser({ firstName: "Ada", lastName: "Admin" });
  await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
  return admin;
}

function get(path: string, user: TestUser | null) {
  return app(path, { headers: user ? bearer(user.tokens) : {} });
}

async function createBatch(admin: TestUser, body: Record<string, unknown>) {
  const response = await post(CREATE, admin, body);
  expect(response.status).toBe(201);
  return (await read(response)) as { batchId: string; codes: string[]; expiresAt: number | null };
}

async function auditOf(targetKind: string, targetId: string) {
  return db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.targetKind, targetKind), eq(adminAuditLog.targetId, targetId)));
}

async function batchDetail(admin: TestUser, batchId: string) {
  const response = await get(`${BATCHES}/${batchId}`, admin);
  expect(response.status).toBe(200);
  return (await read(response)).batch;
}

describe("admin calls for redeem codes are refused to everyone but admins", () => {
  it("answers 403 to a signed-in user and 401 to a visitor on every call, changing nothing", async () => {
    const admin = await signUpAdmin();
    const { batchId, codes } = await createBatch(admin, { planId: "starter-monthly", count: 2, months: 1 });
    const user = await signUpUser();
    const calls: [string, string, unknown?][] = [
      ["POST", CREATE, { planId: "starter-monthly", count: 1, months: 1 }],
      ["GET", BATCHES],
      ["GET", `${BATCHES}/${batchId}`],
      ["GET", `${BATCHES}/${batchId}/csv`],
      ["POST", `${BATCHES}/${batchId}/disable`, {}],
      ["POST", `/api/admin/redeemCodes/${codes[0]}/disable`, {}],
    ];
    for (const [method, path, body] of calls) {
      for (const [who, status] of [
        [user, 403],
        [null, 401],
      ] as const) {
        const response = method === "GET" ? await get(path, who) : await post(path, who, body);
        expect(response.status, `${method} ${path} as ${who ? "a user" : "a visitor"}`).toBe(status);
        if (status === 403) expect((await read(response)).error).toBe("Only admins can create redeem codes.");
      }
    }
    const batch = await batchDetail(admin, batchId);
    expect(batch.disabledAt).toBeNull();
    expect(batch.codes.map((code: { status: string }) => code.status)).toEqual(["unused", "unused"]);
    expect(await db.select().from(redeemCodeBatches).where(eq(redeemCodeBatches.createdBy, user.userId))).toEqual([]);
  });
});

describe("creating a batch", () => {
  it("makes N distinct codes with the plan, months and expiry, and audits it in the same write", async () => {
    const admin = await signUpAdmin();
    const expiresAt = Date.now() + 30 * DAY;
    const created = await createBatch(admin, { planId: "pro-monthly", count: 25, months: 3, expiresAt, note: "Podcast listeners" });
    expect(new Set(created.codes).size).toBe(25);
    const rows = await db.select().from(redeemCodes).where(eq(redeemCodes.batchId, created.batchId));
    expect(rows).toHaveLength(25);
    for (const row of rows) expect(row).toMatchObject({ planId: "pro-monthly", months: 3, redeemedAt: null, disabledAt: null });

    const batch = await batchDetail(admin, created.batchId);
    expect(batch).toMatchObject({
      planId: "pro-monthly",
      planName: "Pro",
      months: 3,
      count: 25,
      used: 0,
      expiresAt,
      note: "Podcast listeners",
      createdBy: admin.email,
    });

    const [entry, ...more] = await auditOf("redeem-batch", created.batchId);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ action: "codes.create", adminId: admin.userId, adminEmail: admin.email, before: null });
    expect(entry!.after).toMatchObject({ planId: "pro-monthly", months: 3, count: 25, expiresAt, note: "Podcast listeners" });
    expect(entry!.summary).toBe("Created 25 redeem codes for 3 months of the Pro plan (Podcast listeners).");

    const list = await read(await get(BATCHES, admin));
    expect(list.batches.find((row: { batchId: string }) => row.batchId === created.batchId)).toMatchObject({ count: 25, used: 0 });
  });

  it("refuses an expiry in the past and a bad note, naming the field", async () => {
    const admin = await signUpAdmin();
    for (const [body, field] of [
      [{ planId: "lifetime", count: 1, expiresAt: Date.now() - DAY }, "expiresAt"],
      [{ planId: "lifetime", count: 1, expiresAt: "tomorrow" }, "expiresAt"],
      [{ planId: "lifetime", count: 1, note: "x".repeat(121) }, "note"],
    ] as const) {
      const response = await post(CREATE, admin, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await read(response)).toMatchObject({ field });
    }
  });
});

describe("redeeming codes of a batch", () => {
  it("shows who used a code and when", async () => {
    const admin = await signUpAdmin();
    const { batchId, codes } = await createBatch(admin, { planId: "starter-monthly", count: 3, months: 1 });
    const user = await signUpUser({ firstName: "Rita", lastName: "Redeemer" });
    const before = Date.now();
    expect((await post(REDEEM, user, { redemptionCode: codes[1] })).status).toBe(200);
    const batch = await batchDetail(admin, batchId);
    expect(batch.used).toBe(1);
    const used = batch.codes.find((code: { code: string }) => code.code === codes[1]);
    expect(used).toMatchObject({ status: "used", redeemedBy: { email: user.email, name: "Rita Redeemer" } });
    expect(used.redeemedAt).toBeGreaterThanOrEqual(before);
    expect(batch.codes.filter((code: { status: string }) => code.status === "unused")).toHaveLength(2);
  });

  it("refuses an expired code", async () => {
    const admin = await signUpAdmin();
    const { batchId, codes } = await createBatch(admin, { planId: "starter-monthly", count: 1, months: 1, expiresAt: Date.now() + DAY });
    // The day has passed.
    await db
      .update(redeemCodeBatches)
      .set({ expiresAt: Date.now() - 1000 })
      .where(eq(redeemCodeBatches.id, batchId));
    const user = await signUpUser();
    const response = await post(REDEEM, user, { redemptionCode: codes[0] });
    expect(response.status).toBe(409);
    expect(await read(response)).toMatchObject({ error: "This code has expired." });
    expect(await creditsOf(user)).toMatchObject({ planId: "free" });
    expect((await batchDetail(admin, batchId)).codes[0]).toMatchObject({ status: "expired", redeemedBy: null });
  });

  it("refuses a disabled code, and disabling it is audited; the batch's other codes still work", async () => {
    const admin = await signUpAdmin();
    const { batchId, codes } = await createBatch(admin, { planId: "starter-monthly", count: 2, months: 1 });
    const disabled = await post(`/api/admin/redeemCodes/${codes[0]!.toLowerCase()}/disable`, admin, {});
    expect(disabled.status).toBe(200);
    expect((await read(disabled)).code).toMatchObject({ code: codes[0], status: "disabled" });

    const user = await signUpUser();
    const refused = await post(REDEEM, user, { redemptionCode: codes[0] });
    expect(refused.status).toBe(409);
    expect(await read(refused)).toMatchObject({ error: "This code is no longer valid." });
    expect(await creditsOf(user)).toMatchObject({ planId: "free" });
    expect((await post(REDEEM, user, { redemptionCode: codes[1] })).status).toBe(200);

    const [entry, ...more] = await auditOf("redeem-code", codes[0]!);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ action: "code.disable", adminEmail: admin.email, before: { disabled: false, batchId }, after: { disabled: true, batchId } });

    // Disabling it again changes nothing and records nothing.
    expect((await post(`/api/admin/redeemCodes/${codes[0]}/disable`, admin, {})).status).toBe(200);
    expect(await auditOf("redeem-code", codes[0]!)).toHaveLength(1);
    // A used code cannot be disabled.
    const used = await post(`/api/admin/redeemCodes/${codes[1]}/disable`, admin, {});
    expect(used.status).toBe(409);
    expect(await auditOf("redeem-code", codes[1]!)).toEqual([]);
  });

  it("refuses every unused code of a disabled batch; used ones stay used; audited once", async () => {
    const admin = await signUpAdmin();
    const { batchId, codes } = await createBatch(admin, { planId: "lifetime", count: 3 });
    const early = await signUpUser();
    expect((await post(REDEEM, early, { redemptionCode: codes[0] })).status).toBe(200);

    const response = await post(`${BATCHES}/${batchId}/disable`, admin, {});
    expect(response.status).toBe(200);
    const { batch: disabled } = await read(response);
    expect(disabled).toMatchObject({ used: 1, count: 3 });
    expect(disabled.disabledAt).not.toBeNull();

    const late = await signUpUser();
    for (const code of codes.slice(1)) {
      const refused = await post(REDEEM, late, { redemptionCode: code });
      expect(refused.status).toBe(409);
      expect(await read(refused)).toMatchObject({ error: "This code is no longer valid." });
    }
    expect(await creditsOf(early)).toMatchObject({ planId: "lifetime" });
    expect(await creditsOf(late)).toMatchObject({ planId: "free" });
    const batch = await batchDetail(admin, batchId);
    expect(batch.codes.map((code: { status: string }) => code.status).sort()).toEqual(["disabled", "disabled", "used"]);

    expect((await post(`${BATCHES}/${batchId}/disable`, admin, {})).status).toBe(200);
    const entries = await auditOf("redeem-batch", batchId);
    expect(entries.map((entry) => entry.action).sort()).toEqual(["codes.create", "codes.disable"]);
    expect(entries.find((entry) => entry.action === "codes.disable")).toMatchObject({
      before: { disabled: false, used: 1, unused: 2 },
      after: { disabled: true, unused: 0 },
    });
  });

  it("answers 404 for a batch or code that does not exist, 400 for a malformed code", async () => {
    const admin = await signUpAdmin();
    expect((await get(`${BATCHES}/no-such-batch`, admin)).status).toBe(404);
    expect((await post(`${BATCHES}/no-such-batch/disable`, admin, {})).status).toBe(404);
    expect((await post(`/api/admin/redeemCodes/ABCD-EFGH-JKLM-NPQR/disable`, admin, {})).status).toBe(404);
    const malformed = await post(`/api/admin/redeemCodes/not-a-code/disable`, admin, {});
    expect(malformed.status).toBe(400);
    expect(await read(malformed)).toMatchObject({ field: "code" });
  });
});

describe("the CSV of a batch", () => {
  it("lists every code with its plan, expiry and use, times in the admin's zone", async () => {
    const admin = await signUpAdmin();
    const expiresAt = Date.UTC(2099, 0, 15, 23, 30);
    const { batchId, codes } = await createBatch(admin, { planId: "starter-monthly", count: 3, months: 2, expiresAt });
    const user = await signUpUser({ firstName: "Cora", lastName: "Csv" });
    expect((await post(REDEEM, user, { redemptionCode: codes[2] })).status).toBe(200);
    await post(`/api/admin/redeemCodes/${codes[0]}/disable`, admin, {});

    const response = await get(`${BATCHES}/${batchId}/csv?timeZone=Asia/Tokyo`, admin);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="redeem-codes-starter-monthly-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv"$/);
    const parsed = Papa.parse<Record<string, string>>(await response.text(), { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual(["Code", "Plan", "Gives", "Expires", "Status", "Redeemed by", "Redeemed at"]);
    expect(parsed.data.map((row) => row.Code).sort()).toEqual([...codes].sort());
    const byCode = new Map(parsed.data.map((row) => [row.Code, row]));
    // 23:30 UTC on 15 January is 08:30 on the 16th in Tokyo.
    expect(byCode.get(codes[1]!)).toMatchObject({
      Plan: "Starter",
      Gives: "2 months of the Starter plan",
      Expires: "16 Jan 2099, 08:30",
      Status: "Not used",
      "Redeemed by": "",
      "Redeemed at": "",
    });
    expect(byCode.get(codes[0]!)).toMatchObject({ Status: "Disabled" });
    expect(byCode.get(codes[2]!)).toMatchObject({ Status: "Used", "Redeemed by": `Cora Csv <${user.email}>` });
    expect(byCode.get(codes[2]!)!["Redeemed at"]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);

    const badZone = await get(`${BATCHES}/${batchId}/csv?timeZone=Mars/Olympus`, admin);
    expect(badZone.status).toBe(400);
    expect(await read(badZone)).toMatchObject({ field: "timeZone" });
  });

  it("writes a name a spreadsheet would run as a formula as plain text (OWASP's CSV-injection rule)", async () => {
    const admin = await signUpAdmin();
    const { batchId, codes } = await createBatch(admin, { planId: "starter-monthly", count: 4, months: 1 });
    const names = [
      ['=HYPERLINK("http://evil.example","x")', "Smith"],
      ["+1", "Plus"],
      ["-2+3", "Minus"],
      ["@SUM(A1)", "At"],
    ] as const;
    for (const [index, [firstName, lastName]] of names.entries()) {
      const user = await signUpUser({ firstName, lastName });
      expect((await post(REDEEM, user, { redemptionCode: codes[index] })).status).toBe(200);
    }
    const text = await (await get(`${BATCHES}/${batchId}/csv`, admin)).text();
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    const redeemedBy = parsed.data.map((row) => row["Redeemed by"]!).sort();
    expect(redeemedBy).toHaveLength(4);
    // Each starts with ' and so is text to Excel, LibreOffice and Google Sheets.
    for (const cell of redeemedBy) expect(cell).toMatch(/^'[=+\-@]/);
    expect(redeemedBy.some((cell) => cell.startsWith("'=HYPERLINK("))).toBe(true);
  });
});
