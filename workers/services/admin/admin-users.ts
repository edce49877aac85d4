import { and, count, desc, eq, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import {
  CANNOT_BLOCK_ADMIN,
  CANNOT_BLOCK_SELF,
  LAST_ADMIN,
  NO_SUCH_USER,
  REFERENCE_REUSED,
  USERS_PAGE_SIZE,
  type AdminUserDetail,
  type AdminUserRow,
  type AdminUserSearch,
  type AuditLogPage,
} from "../../../contracts/admin/admin-users.ts";
import { d1Statement, database } from "../../db/client.ts";
import { authSessions, creditLedger, pinHistory, pinterestProfiles, plans, shopProfiles, users } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { ledgerOf } from "../../ledger/client.ts";
import { auditStatement, auditStatementWhen, listAdminAudit, type AuditActor } from "./admin-audit.ts";
import { ADMIN_GRANT_PREFIX, creditsSummary } from "../billing/credits.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * The admin console's users section (issue 20, docs/decisions/051-admin-console.md): search, a user's
 * detail, granting credits, changing the role, blocking and unblocking. Each change and its audit entry
 * are written in one D1 batch; the callers are admins (adminOnly), so nothing here is scoped to the caller.
 */

type UserRecord = typeof users.$inferSelect;

const iso = (ms: number) => new Date(ms).toISOString();

function row(user: UserRecord, planName: string | null = null): AdminUserRow {
  return {
    id: user.id,
    email: user.email,
    handle: user.handle,
    name: `${user.firstName} ${user.lastName}`.trim(),
    role: user.role,
    planId: user.planId,
    planName: planName ?? user.planId,
    planStatus: user.planStatus,
    blocked: user.blockedAt !== null,
    createdAt: iso(user.createdAt),
  };
}

/** `text` as a LIKE pattern matching it anywhere, its own % and _ taken literally. */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Accounts whose e-mail, handle or name contains `q` (all accounts when empty), newest first, a page at a time. */
export async function searchUsers(env: Env, q: string, page: number): Promise<AdminUserSearch> {
  const pattern = containing(q);
  const where: SQL | undefined = q
    ? or(
        sql`${users.email} LIKE ${pattern} ESCAPE '\\'`,
        sql`lower(${users.handle}) LIKE ${pattern} ESCAPE '\\'`,
        sql`lower(${users.firstName} || ' ' || ${users.lastName}) LIKE ${pattern} ESCAPE '\\'`,
      )
    : undefined;
  const found = await database(env.DB)
    .select({ user: users, planName: plans.name })
    .from(users)
    .leftJoin(plans, eq(plans.id, users.planId))
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(USERS_PAGE_SIZE + 1)
    .offset((page - 1) * USERS_PAGE_SIZE);
  return { users: found.slice(0, USERS_PAGE_SIZE).map((item) => row(item.user, item.planName)), page, hasMore: found.length > USERS_PAGE_SIZE };
}

async function userById(env: Env, userId: string): Promise<UserRecord> {
  const user = await database(env.DB).select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw new ServiceError(404, NO_SUCH_USER, "userId");
  return user;
}

/** Everything the detail panel shows of one account. */
export async function userDetail(env: Env, userId: string): Promise<AdminUserDetail> {
  const user = await userById(env, userId);
  const credits = await creditsSummary(env, userId);
  const db = database(env.DB);
  const own = ledgerOf(env, userId).db;
  const [[plan, profiles, shops, sessions], [ledger, pins]] = await Promise.all([
    db.batch([
      db.select({ name: plans.name }).from(plans).where(eq(plans.id, user.planId)).limit(1),
      db.select().from(pinterestProfiles).where(eq(pinterestProfiles.userId, userId)).orderBy(pinterestProfiles.username),
      db.select().from(shopProfiles).where(eq(shopProfiles.userId, userId)).orderBy(shopProfiles.shopName),
      db.select().from(authSessions).where(eq(authSessions.userId, userId)).orderBy(desc(authSessions.createdAt)).limit(10),
    ]),
    // The user's ledger and latest pins, from their UserLedger (decision 084).
    own.batch([
      own.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(desc(creditLedger.createdAt)).limit(15),
      own.select().from(pinHistory).where(eq(pinHistory.userId, userId)).orderBy(desc(pinHistory.createdAt)).limit(10),
    ]),
  ]);
  const now = Date.now();
  return {
    user: { ...row(user, plan[0]?.name ?? null), blockedAt: user.blockedAt === null ? null : iso(user.blockedAt), isEmailVerified: user.isEmailVerified },
    credits: { remaining: credits.remaining, creditsPerMonth: credits.creditsPerMonth, usedPinCredits: credits.usedPinCredits, periodEnd: credits.periodEnd },
    ledger: ledger.map((entry) => ({ id: entry.id, amount: entry.amount, reason: entry.reason, category: entry.category, createdAt: iso(entry.createdAt) })),
    pinterestProfiles: profiles.map((profile) => ({ username: profile.username, isActive: profile.isActive, status: profile.status })),
    shops: shops.map((shop) => ({ shopType: shop.shopType, shopName: shop.shopName, status: shop.status })),
    pins: pins.map((pin) => ({ id: pin.id, action: pin.action, title: pin.title, pinterestProfile: pin.pinterestProfile, createdAt: iso(pin.createdAt) })),
    signIns: sessions.map((session) => ({
      createdAt: iso(session.createdAt),
      lastUsedAt: iso(session.lastUsedAt),
      ended: session.revokedAt !== null || session.expiresAt <= now,
      userAgent: session.userAgent,
    })),
  };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * Grants credits for the current billing month: one ledger row with the admin's reason, under the form's
 * request key, with its audit entry in the same batch. The same key again grants nothing more (a double
 * click, a retry); the same key with other details is refused.
 */
export async function grantCredits(
  env: Env,
  actor: AuditActor,
  userId: string,
  grant: { amount: number; reason: string; reference: string },
): Promise<{ granted: boolean; remaining: number }> {
  const user = await userById(env, userId);
  const reference = `${ADMIN_GRANT_PREFIX}${grant.reference}`;
  const ledger = ledgerOf(env, userId);
  // The grant lives in the user's ledger and its audit entry in D1 (decision 084): the entry is named after the
  // grant, so whichever request wrote the grant, every request for it makes sure the entry exists (a retry after a
  // failure between the two finishes it), and never twice.
  const audit = (before: number) =>
    auditStatement(
      env,
      actor,
      {
        action: "credits.grant",
        targetKind: "user",
        targetId: userId,
        summary: `Granted ${plural(grant.amount, "credit")} to ${user.email}: ${grant.reason}`,
        before: { remaining: before },
        after: { remaining: before + grant.amount, amount: grant.amount, reason: grant.reason },
      },
      `credits-grant:${userId}:${grant.reference}`,
    ).onConflictDoNothing();
  const earlier = () =>
    ledger.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reference, reference)))
      .get();
  const repeated = async () => {
    const made = await earlier();
    if (!made) return null;
    if (made.amount !== grant.amount || made.reason !== grant.reason) throw new ServiceError(409, REFERENCE_REUSED, "reference");
    const remaining = (await creditsSummary(env, userId)).remaining;
    await audit(remaining - grant.amount);
    return { granted: false, remaining };
  };
  const already = await repeated();
  if (already) return already;
  const before = (await creditsSummary(env, userId)).remaining;
  const written = await ledger
    .prepare(
      `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES (?1, ?2, ?3, 'admin-grant', ?4, ?5, ?6)
       ON CONFLICT (user_id, reference) DO NOTHING RETURNING id`,
    )
    .bind(crypto.randomUUID(), userId, grant.amount, grant.reason, reference, Date.now())
    .all();
  if (written.results.length === 0) {
    // The same request at the same moment: it wrote the grant first.
    const again = await repeated();
    if (again) return again;
  }
  await audit(before);
  return { granted: true, remaining: (await creditsSummary(env, userId)).remaining };
}

/**
 * Makes an account admin or a regular user. The last admin cannot be made a regular user (not even by
 * themself): the check is part of the update's own statement, so two admins demoting each other at once
 * cannot leave none.
 */
export async function changeRole(env: Env, actor: AuditActor, userId: string, role: "user" | "admin"): Promise<{ changed: boolean; user: AdminUserRow }> {
  const user = await userById(env, userId);
  if (user.role === role) return { changed: false, user: row(user) };
  const otherAdmins = sql`(SELECT count(*) FROM ${users} WHERE ${users.role} = 'admin' AND ${users.id} <> ${userId}) > 0`;
  const condition = role === "user" ? and(eq(users.id, userId), eq(users.role, "admin"), otherAdmins) : and(eq(users.id, userId), eq(users.role, "user"));
  const stillCondition = sql`EXISTS (SELECT 1 FROM ${users} WHERE ${condition})`;
  const db = database(env.DB);
  const [, updated] = await env.DB.batch([
    auditStatementWhen(
      env,
      actor,
      {
        action: "user.role",
        targetKind: "user",
        targetId: userId,
        summary: role === "admin" ? `Made ${user.email} an admin.` : `Made ${user.email} a regular user (no longer an admin).`,
        before: { role: user.role },
        after: { role },
      },
      stillCondition,
    ),
    d1Statement(env.DB, db.update(users).set({ role, updatedAt: Date.now() }).where(condition).returning({ id: users.id })),
  ]);
  const after = await userById(env, userId);
  if (updated.results.length === 0) {
    if (after.role === role) return { changed: false, user: row(after) };
    throw new ServiceError(409, LAST_ADMIN, "role");
  }
  return { changed: true, user: row(after) };
}

/**
 * Blocks an account: in one batch, the account is marked blocked, every open sign-in of it is revoked
 * (its refresh tokens and session cookies stop working; its id tokens are refused because their session
 * is), and the audit entry is written. Its queues pause at their next run (durable-objects/scheduler/alarm.ts).
 * An admin is made a regular user first; nobody blocks themself.
 */
export async function blockUser(env: Env, actor: AuditActor, userId: string): Promise<{ changed: boolean; user: AdminUserRow }> {
  const user = await userById(env, userId);
  if (actor.id === userId) throw new ServiceError(409, CANNOT_BLOCK_SELF, "userId");
  if (user.role === "admin") throw new ServiceError(409, CANNOT_BLOCK_ADMIN, "userId");
  if (user.blockedAt !== null) return { changed: false, user: row(user) };
  const db = database(env.DB);
  const now = Date.now();
  const [{ open }] = await db
    .select({ open: count() })
    .from(authSessions)
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt), sql`${authSessions.expiresAt} > ${now}`));
  const condition = and(eq(users.id, userId), isNull(users.blockedAt), eq(users.role, "user"));
  const [, updated] = await env.DB.batch([
    auditStatementWhen(
      env,
      actor,
      {
        action: "user.block",
        targetKind: "user",
        targetId: userId,
        summary: `Blocked ${user.email}: ${plural(open, "open sign-in")} ended, posting paused.`,
        before: { blocked: false, openSignIns: open },
        after: { blocked: true, openSignIns: 0 },
      },
      sql`EXISTS (SELECT 1 FROM ${users} WHERE ${condition})`,
    ),
    d1Statement(env.DB, db.update(users).set({ blockedAt: now, updatedAt: now }).where(condition).returning({ id: users.id })),
    d1Statement(
      env.DB,
      db
        .update(authSessions)
        .set({ revokedAt: now, revokeReason: "account blocked by an admin" })
        .where(
          and(
            eq(authSessions.userId, userId),
            isNull(authSessions.revokedAt),
            sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${userId} AND ${users.blockedAt} = ${now})`,
          ),
        ),
    ),
  ]);
  const after = await userById(env, userId);
  if (updated.results.length === 0 && after.blockedAt === null) throw new ServiceError(409, CANNOT_BLOCK_ADMIN, "userId");
  return { changed: updated.results.length > 0, user: row(after) };
}

/** Unblocks an account: it may sign in again; its paused pins post again at their queue's next look. */
export async function unblockUser(env: Env, actor: AuditActor, userId: string): Promise<{ changed: boolean; user: AdminUserRow }> {
  const user = await userById(env, userId);
  if (user.blockedAt === null) return { changed: false, user: row(user) };
  const condition = and(eq(users.id, userId), isNotNull(users.blockedAt));
  const db = database(env.DB);
  const [, updated] = await env.DB.batch([
    auditStatementWhen(
      env,
      actor,
      {
        action: "user.unblock",
        targetKind: "user",
        targetId: userId,
        summary: `Unblocked ${user.email}: they can sign in again.`,
        before: { blocked: true, blockedAt: iso(user.blockedAt) },
        after: { blocked: false },
      },
      sql`EXISTS (SELECT 1 FROM ${users} WHERE ${condition})`,
    ),
    d1Statement(env.DB, db.update(users).set({ blockedAt: null, updatedAt: Date.now() }).where(condition).returning({ id: users.id })),
  ]);
  return { changed: updated.results.length > 0, user: row(await userById(env, userId)) };
}

/** A page of the audit log, newest first, optionally for one target. */
export async function auditLogPage(env: Env, query: { targetKind?: string; targetId?: string; before?: number }, pageSize: number): Promise<AuditLogPage> {
  const entries = await listAdminAudit(env, { ...query, limit: pageSize + 1 });
  const page = entries.slice(0, pageSize);
  return {
    entries: page.map((entry) => ({
      id: entry.id,
      adminEmail: entry.adminEmail,
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      summary: entry.summary,
      before: entry.before ?? null,
      after: entry.after ?? null,
      createdAt: entry.createdAt,
    })),
    nextBefore: entries.length > pageSize ? page[page.length - 1].createdAt : null,
  };
}
