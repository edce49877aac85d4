import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../../../workers/auth/password-hash.ts";
import {
  ADMIN_GRANT_ACTOR,
  adminGrantLookup,
  adminGrantRefusal,
  adminGrantStatements,
  inlineStatements,
  LOCAL_ADMIN,
  localAdminStatements,
  type SqlStatement,
} from "../../../workers/db/admin-accounts.ts";
import { database } from "../../../workers/db/client.ts";
import { adminAuditLog, users } from "../../../workers/db/schema.ts";
import { bearer, json, signUpUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

/** The SQL of `npm run admin:grant` (scripts/admin-grant.ts) and of the local admin account, run against D1. */

const db = database(testEnv.DB);
const runAll = (statements: SqlStatement[]) => testEnv.DB.batch(statements.map(({ sql, params }) => testEnv.DB.prepare(sql).bind(...params)));
const lookUp = async (email: string) => {
  const { sql, params } = adminGrantLookup(email);
  return (
    (await testEnv.DB.prepare(sql)
      .bind(...params)
      .first<{ id: string; role: string; blocked_at: number | null }>()) ?? undefined
  );
};

describe("npm run admin:grant", () => {
  it("makes an existing account admin with one audit entry naming the script; run again, it changes and records nothing", async () => {
    const user = await signUpUser();
    expect(adminGrantRefusal(user.email, await lookUp(user.email.toUpperCase()))).toBeNull();
    await runAll(adminGrantStatements(` ${user.email.toUpperCase()} `, Date.now()));
    expect((await lookUp(user.email))?.role).toBe("admin");
    // The new admin's existing sign-in now opens the console.
    expect((await app("/api/admin/users", { headers: bearer(user.tokens) })).status).toBe(200);

    const entries = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, user.userId));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      adminId: null,
      adminEmail: ADMIN_GRANT_ACTOR,
      action: "user.role",
      targetKind: "user",
      before: { role: "user" },
      after: { role: "admin" },
    });
    expect(entries[0].summary).toBe(`Made ${user.email} an admin with npm run admin:grant.`);

    expect(adminGrantRefusal(user.email, await lookUp(user.email))).toEqual({ message: `${user.email} is already an admin: nothing changed.`, failed: false });
    await runAll(adminGrantStatements(user.email, Date.now()));
    expect(await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, user.userId))).toHaveLength(1);
  });

  it("refuses an unknown e-mail and a blocked account, and the statements change neither", async () => {
    expect(adminGrantRefusal("nobody@example.com", await lookUp("nobody@example.com"))?.failed).toBe(true);
    const user = await signUpUser();
    await db.update(users).set({ blockedAt: Date.now() }).where(eq(users.id, user.userId));
    expect(adminGrantRefusal(user.email, await lookUp(user.email))).toMatchObject({ failed: true, message: expect.stringContaining("is blocked") });
    await runAll(adminGrantStatements(user.email, Date.now()));
    expect((await lookUp(user.email))?.role).toBe("user");
    expect(await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, user.userId))).toEqual([]);
  });

  it("inlines values for wrangler as SQL literals, quotes escaped", () => {
    const text = inlineStatements(adminGrantStatements("o'brien@example.com", 1_700_000_000_000, "audit-1"));
    expect(text).toContain("email = 'o''brien@example.com'");
    expect(text).toContain("SELECT 'audit-1', NULL, 'admin:grant script'");
    expect(text).not.toMatch(/\?\d/);
  });
});

describe("the local seed's admin account", () => {
  it("signs in with the documented e-mail and password and is an admin", async () => {
    await runAll(localAdminStatements(await hashPassword(LOCAL_ADMIN.password), Date.now()));
    // Seeding again changes nothing.
    await runAll(localAdminStatements(await hashPassword("Another-Password-99"), Date.now()));
    const login = await app("/api/login", json({ email: LOCAL_ADMIN.email, password: LOCAL_ADMIN.password }));
    expect(login.status).toBe(200);
    const tokens = await read(login);
    expect((await app("/api/admin/users", { headers: bearer(tokens) })).status).toBe(200);
  });
});
