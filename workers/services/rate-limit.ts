import { sql } from "drizzle-orm";
import { database } from "../db/client.ts";
import { rateLimits } from "../db/schema.ts";

export interface RateLimitRule {
  /** What is limited, e.g. "login:email". */
  name: string;
  limit: number;
  windowMs: number;
}

/** The limits of spec'd abuse-prone actions, per e-mail and per client address. */
export const RATE_LIMITS = {
  loginPerEmail: { name: "login:email", limit: 10, windowMs: 15 * 60_000 },
  loginPerIp: { name: "login:ip", limit: 50, windowMs: 15 * 60_000 },
  signupPerIp: { name: "signup:ip", limit: 10, windowMs: 60 * 60_000 },
  forgotPasswordPerEmail: { name: "forgot:email", limit: 3, windowMs: 60 * 60_000 },
  forgotPasswordPerIp: { name: "forgot:ip", limit: 20, windowMs: 60 * 60_000 },
  verificationPerUser: { name: "verify-send:user", limit: 5, windowMs: 60 * 60_000 },
  verificationPerIp: { name: "verify-send:ip", limit: 20, windowMs: 60 * 60_000 },
  newsletterPerIp: { name: "newsletter:ip", limit: 10, windowMs: 60 * 60_000 },
  googlePerIp: { name: "google:ip", limit: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

export class RateLimited extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(`Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
    this.name = "RateLimited";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Counts one attempt against each rule (atomically, one statement each) and
 * throws RateLimited when any is over its limit. Nothing else has happened yet
 * when it throws, so a limited request sends and changes nothing.
 */
export async function consumeRateLimits(d1: D1Database, checks: [RateLimitRule, string | null | undefined][], now = Date.now()) {
  const db = database(d1);
  const statements = checks
    .filter(([, key]) => key)
    .map(([rule, key]) => {
      const resetAt = now + rule.windowMs;
      return db
        .insert(rateLimits)
        .values({ bucket: `${rule.name}:${key!.toLowerCase()}`, count: 1, resetAt })
        .onConflictDoUpdate({
          target: rateLimits.bucket,
          set: {
            count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
            resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${resetAt} ELSE ${rateLimits.resetAt} END`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
    });
  if (statements.length === 0) return;
  const results = (await db.batch(statements as [(typeof statements)[0], ...typeof statements])) as { count: number; resetAt: number }[][];
  let retryAfterMs = 0;
  results.forEach(([row], i) => {
    if (row && row.count > checks.filter(([, key]) => key)[i][0].limit) retryAfterMs = Math.max(retryAfterMs, row.resetAt - now);
  });
  if (retryAfterMs > 0) throw new RateLimited(Math.ceil(retryAfterMs / 1000));
}

/** Forgets expired windows (run by the cron sweep). */
export async function purgeExpiredRateLimits(d1: D1Database, now = Date.now()) {
  await database(d1).delete(rateLimits).where(sql`${rateLimits.resetAt} <= ${now}`);
}
