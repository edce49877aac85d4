import { and, eq, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_BLOCKED } from "../../../workers/services/accounts/accounts.ts";
import { CANNOT_BLOCK_ADMIN, CANNOT_BLOCK_SELF, LAST_ADMIN, REFERENCE_REUSED } from "../../../contracts/admin/admin-users.ts";
import { database } from "../../../workers/db/client.ts";
import { adminAuditLog, creditLedger, users } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { app as router } from "../../../workers/router.ts";
import { bearer, json, signUpUser, uniqueEmail, type TestUser } from "../accounts/accounts-support.ts";
import { fillPath, ROUTES, servedRoutes } from "../core/campaign-routes.ts";
import { app, read, testEnv } from "../support.ts";

const db = database(testEnv.DB);

let admin: TestUser;
let maya: TestUser;
beforeAll(async () => {
  admin = await signUpUser({ firstName: "Ada", lastName: "Admin" });
  await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
  maya = await signUpUser({ firstName: "Maya", lastName: "Quistgaard", email: uniqueEmail("maya.q") });
});

const get = (path: string, user: TestUser) => app(path, { headers: bearer(user.tokens) });
const post = (path: string, user: TestUser, body: unknown = {}) => app(path, json(body, bearer(user.tokens)));
const auditOf = (targetId: string) => db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, targetId)).orderBy(adminAuditLog.createdAt);
const remaining = async (user: TestUser) => (await read(await get("/api/user/credits", user))).remaining as number;

describe("every admin call is for admins only", () => {
  it("walks Hono's route table: each /api/admin route answers 401 signed out and 403 to a signed-in non-admin, and changes nothing", async () => {
    const adminRoutes = servedRoutes(router.routes).filter((key) => key.split(" ")[1].startsWith("/api/admin/"));
    // Not only this section's: the payout report and the content editor are walked too (and any added later).
    expect(adminRoutes).toEqual(
      expect.arrayContaining(["GET /api/admin/users", "POST /api/admin/users/:userId/block", "GET /api/admin/affiliatePayouts", "GET /api/admin/content"]),
    );
    const regular = await signUpUser();
    for (const key of adminRoutes) {
      const [method, template] = key.split(" ");
      const example = ROUTES[key] ?? {};
      const params = { ...example.params, userId: maya.userId };
      const path = `${fillPath(template, params)}${example.query ? `?${new URLSearchParams(example.query)}` : ""}`;
      const body = method === "GET" || method === "HEAD" || example.body === "multipart" ? undefined : JSON.stringify(example.body ?? {});
      const send = (headers: Record<string, string>) => app(path, { method, headers: { "content-type": "application/json", ...headers }, body });
      const signedOut = await send({});
      expect(signedOut.status, `${key} signed out`).toBe(401);
      const nonAdmin = await send(bearer(regular.tokens));
      expect(nonAdmin.status, `${key} as a non-admin`).toBe(403);
    }
    expect(await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, maya.userId))).toEqual([]);
    expect((await db.select().from(users).where(eq(users.id, maya.userId)).get())?.blockedAt).toBeNull();
  });
});

describe("finding users", () => {
  it("searches by e-mail, handle or name, a page at a time", async () => {
    const byEmail = await read(await get(`/api/admin/users?q=${encodeURIComponent("MAYA.Q")}`, admin));
    expect(byEmail.users.map((u: { id: string }) => u.id)).toContain(maya.userId);
    const byHandle = await read(await get(`/api/admin/users?q=${encodeURIComponent(maya.handle)}`, admin));
    expect(byHandle.users[0]).toMatchObject({
      id: maya.userId,
      email: maya.email,
      handle: maya.handle,
      name: "Maya Quistgaard",
      planName: "Free",
      role: "user",
      blocked: false,
    });
    const byName = await read(await get(`/api/admin/users?q=${encodeURIComponent("maya quist")}`, admin));
    expect(byName.users.map((u: { id: string }) => u.id)).toEqual([maya.userId]);
    // % and _ are taken as themselves, not as wildcards.
    expect((await read(await get(`/api/admin/users?q=${encodeURIComponent("%")}`, admin))).users).toEqual([]);

    for (let i = 0; i < 21; i += 1) await signUpUser({ firstName: "Pagey", lastName: `Number${i}` });
    const first = await read(await get("/api/admin/users?q=pagey", admin));
    const second = await read(await get("/api/admin/users?q=pagey&page=2", admin));
    expect(first).toMatchObject({ page: 1, hasMore: true });
    expect(first.users).toHaveLength(20);
    expect(second).toMatchObject({ page: 2, hasMore: false });
    expect(second.users).toHaveLength(1);
    expect(new Set([...first.users, ...second.users].map((u: { id: string }) => u.id)).size).toBe(21);
  });

  it("refuses a bad page naming the field, and answers 404 for an unknown account", async () => {
    const bad = await get("/api/admin/users?page=0", admin);
    expect(bad.status).toBe(400);
    expect((await read(bad)).field).toBe("page");
    expect((await get("/api/admin/users/no-such-user", admin)).status).toBe(404);
  });

  it("shows a user's plan, credits, ledger, connections and sign-ins", async () => {
    const detail = await read(await get(`/api/admin/users/${maya.userId}`, admin));
    expect(detail.user).toMatchObject({ id: maya.userId, email: maya.email, planName: "Free", blocked: false });
    expect(detail.credits.remaining).toBe(await remaining(maya));
    expect(detail.ledger.length).toBeGreaterThan(0);
    expect(detail.pinterestProfiles).toEqual([]);
    expect(detail.shops).toEqual([]);
    expect(detail.signIns.length).toBeGreaterThan(0);
    expect(detail.signIns[0]).toMatchObject({ ended: false });
  });
});

describe("granting credits", () => {
  it("adds a ledger entry with the admin's reason, once per request key, with one audit entry holding before and after", async () => {
    const user = await signUpUser();
    const before = await remaining(user);
    const grant = { amount: 25, reason: "Refund for pins that failed on Pinterest's side", reference: "grant-form-7f3a9c21" };
    const first = await post(`/api/admin/users/${user.userId}/credits`, admin, grant);
    expect(first.status).toBe(200);
    expect(await read(first)).toEqual({ granted: true, remaining: before + 25 });
    // A double click: the same request again grants nothing more.
    expect(await read(await post(`/api/admin/users/${user.userId}/credits`, admin, grant))).toEqual({ granted: false, remaining: before + 25 });
    expect(await remaining(user)).toBe(before + 25);

    const rows = await ledgerOf(testEnv, user.userId)
      .db.select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, user.userId), eq(creditLedger.category, "admin-grant")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 25, reason: grant.reason });

    const audit = await auditOf(user.userId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      adminId: admin.userId,
      adminEmail: admin.email,
      action: "credits.grant",
      targetKind: "user",
      before: { remaining: before },
      after: { remaining: before + 25, amount: 25, reason: grant.reason },
    });
    expect(audit[0].summary).toContain("Granted 25 credits to");

    // The same key with other details is refused, not taken for the first grant.
    const reused = await post(`/api/admin/users/${user.userId}/credits`, admin, { ...grant, amount: 250 });
    expect(reused.status).toBe(409);
    expect((await read(reused)).error).toBe(REFERENCE_REUSED);
    // A second grant (a new form) adds to the first; the plan's monthly grant is not reduced by either.
    await post(`/api/admin/users/${user.userId}/credits`, admin, { amount: 5, reason: "Goodwill", reference: "grant-form-2b8d0e44" });
    expect(await remaining(user)).toBe(before + 30);
    expect(await auditOf(user.userId)).toHaveLength(2);
  });

  it("grants once when the same request arrives twice at the same moment (a double click)", async () => {
    const user = await signUpUser();
    const before = await remaining(user);
    const grant = { amount: 7, reason: "Double click", reference: "grant-form-double-01" };
    const answers = await Promise.all([1, 2, 3].map(() => post(`/api/admin/users/${user.userId}/credits`, admin, grant)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(answers.map(read));
    expect(bodies.filter((body) => body.granted)).toHaveLength(1);
    expect(await remaining(user)).toBe(before + 7);
    expect(
      await ledgerOf(testEnv, user.userId)
        .db.select()
        .from(creditLedger)
        .where(and(eq(creditLedger.userId, user.userId), eq(creditLedger.category, "admin-grant"))),
    ).toHaveLength(1);
    expect(await auditOf(user.userId)).toHaveLength(1);
  });

  it("refuses a grant that is not a whole positive number, naming the field, and writes nothing", async () => {
    const user = await signUpUser();
    for (const [body, field] of [
      [{ amount: 0, reason: "x", reference: "grant-form-zero0000" }, "amount"],
      [{ amount: -5, reason: "x", reference: "grant-form-minus000" }, "amount"],
      [{ amount: 1.5, reason: "x", reference: "grant-form-half0000" }, "amount"],
      [{ amount: 5, reason: "  ", reference: "grant-form-empty000" }, "reason"],
      [{ amount: 5, reason: "ok" }, "reference"],
    ] as const) {
      const response = await post(`/api/admin/users/${user.userId}/credits`, admin, body);
      expect(response.status).toBe(400);
      expect((await read(response)).field).toBe(field);
    }
    expect(await auditOf(user.userId)).toEqual([]);
  });
});

describe("changing the role", () => {
  it("makes a user admin and back, each change with its audit entry; the last admin cannot step down", async () => {
    const user = await signUpUser();
    const promoted = await post(`/api/admin/users/${user.userId}/role`, admin, { role: "admin" });
    expect(await read(promoted)).toMatchObject({ changed: true, user: { role: "admin" } });
    // The new admin can now use the console.
    expect((await get("/api/admin/users", user)).status).toBe(200);
    const demoted = await post(`/api/admin/users/${user.userId}/role`, admin, { role: "user" });
    expect(await read(demoted)).toMatchObject({ changed: true, user: { role: "user" } });
    expect((await get("/api/admin/users", user)).status).toBe(403);

    const audit = await auditOf(user.userId);
    expect(audit.map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ["user.role", { role: "user" }, { role: "admin" }],
      ["user.role", { role: "admin" }, { role: "user" }],
    ]);

    // Alone as admin: stepping down is refused and nothing is recorded.
    await db
      .update(users)
      .set({ role: "user" })
      .where(and(eq(users.role, "admin"), ne(users.id, admin.userId)));
    const alone = await post(`/api/admin/users/${admin.userId}/role`, admin, { role: "user" });
    expect(alone.status).toBe(409);
    expect((await read(alone)).error).toBe(LAST_ADMIN);
    expect((await db.select().from(users).where(eq(users.id, admin.userId)).get())?.role).toBe("admin");
    expect(await auditOf(admin.userId)).toEqual([]);

    expect((await post(`/api/admin/users/${user.userId}/role`, admin, { role: "owner" })).status).toBe(400);
  });
});

describe("blocking", () => {
  it("ends a blocked user's sessions at once: refresh, bearer token and cookie refused, login refused with a plain message", async () => {
    const user = await signUpUser();
    expect((await get("/api/user", user)).status).toBe(200);

    const blocked = await post(`/api/admin/users/${user.userId}/block`, admin);
    expect(await read(blocked)).toMatchObject({ changed: true, user: { blocked: true } });

    expect((await get("/api/user", user)).status).toBe(403);
    expect((await app("/api/user", { headers: { cookie: user.cookie } })).status).toBe(401);
    const refresh = await app("/api/auth/token", json({ grant_type: "refresh_token", refresh_token: user.tokens.refreshToken }));
    expect(refresh.status).toBe(401);
    const login = await app("/api/login", json({ email: user.email, password: user.password }));
    expect(login.status).toBe(403);
    expect((await read(login)).error).toBe(ACCOUNT_BLOCKED);
    // A wrong password still says only that: the block is not told to someone without the password.
    const wrong = await app("/api/login", json({ email: user.email, password: "Not-The-Password-1" }));
    expect(wrong.status).toBe(401);

    // Blocking again changes nothing and records nothing more.
    expect(await read(await post(`/api/admin/users/${user.userId}/block`, admin))).toMatchObject({ changed: false });
    const audit = await auditOf(user.userId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "user.block", before: { blocked: false, openSignIns: 1 }, after: { blocked: true, openSignIns: 0 } });
  });

  it("unblocking restores login (the old sessions stay ended), with its audit entry", async () => {
    const user = await signUpUser();
    await post(`/api/admin/users/${user.userId}/block`, admin);
    const unblocked = await post(`/api/admin/users/${user.userId}/unblock`, admin);
    expect(await read(unblocked)).toMatchObject({ changed: true, user: { blocked: false } });
    expect((await get("/api/user", user)).status).toBe(403);
    const login = await app("/api/login", json({ email: user.email, password: user.password }));
    expect(login.status).toBe(200);
    const tokens = await read(login);
    expect((await app("/api/user", { headers: bearer(tokens) })).status).toBe(200);

    const audit = await auditOf(user.userId);
    expect(audit.map((entry) => entry.action)).toEqual(["user.block", "user.unblock"]);
    expect(audit[1]).toMatchObject({ before: { blocked: true }, after: { blocked: false } });
  });

  it("never blocks an admin or oneself", async () => {
    const other = await signUpUser();
    await post(`/api/admin/users/${other.userId}/role`, admin, { role: "admin" });
    const adminBlocked = await post(`/api/admin/users/${other.userId}/block`, admin);
    expect(adminBlocked.status).toBe(409);
    expect((await read(adminBlocked)).error).toBe(CANNOT_BLOCK_ADMIN);
    const self = await post(`/api/admin/users/${admin.userId}/block`, admin);
    expect(self.status).toBe(409);
    expect((await read(self)).error).toBe(CANNOT_BLOCK_SELF);
    expect((await get("/api/user", other)).status).toBe(200);
  });
});

describe("the audit log", () => {
  it("lists entries newest first, for one target when asked, a page at a time", async () => {
    const user = await signUpUser();
    for (let i = 1; i <= 27; i += 1) {
      await post(`/api/admin/users/${user.userId}/credits`, admin, { amount: i, reason: `Grant ${i}`, reference: `grant-form-page-${i}` });
    }
    const first = await read(await get(`/api/admin/auditLog?targetKind=user&targetId=${user.userId}`, admin));
    expect(first.entries).toHaveLength(25);
    expect(first.entries[0]).toMatchObject({ action: "credits.grant", adminEmail: admin.email, after: { amount: 27 } });
    expect(first.entries.every((entry: { targetId: string }) => entry.targetId === user.userId)).toBe(true);
    expect(first.nextBefore).toEqual(expect.any(Number));
    const second = await read(await get(`/api/admin/auditLog?targetKind=user&targetId=${user.userId}&before=${first.nextBefore}`, admin));
    expect(second.entries.map((entry: { after: { amount: number } }) => entry.after.amount)).toEqual([2, 1]);
    expect(second.nextBefore).toBeNull();

    const everything = await read(await get("/api/admin/auditLog", admin));
    expect(everything.entries[0].targetId).toBe(user.userId);
    expect((await get("/api/admin/auditLog?before=soon", admin)).status).toBe(400);
  });
});
