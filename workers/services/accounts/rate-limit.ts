import { sql } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { rateLimits } from "../../db/schema.ts";

export interface RateLimitRule {
  /** What is limited, e.g. "login:email". */
  name: string;
  limit: number;
  windowMs: number;
}

/** The limits of spec'd abuse-prone actions, per e-mail and per client address. */
export const RATE_LIMITS = {
  /** Sign-in attempts from one address, whatever their outcome. */
  loginPerIp: { name: "login:ip", limit: 50, windowMs: 15 * 60_000 },
  /** Failed sign-ins for one e-mail from one address. */
  loginFailuresPerEmailAndIp: { name: "login-fail:email-ip", limit: 5, windowMs: 15 * 60_000 },
  /** Failed sign-ins for one e-mail from browsers it never signed in from: these alone are held back. */
  loginFailuresPerEmailUnknownDevice: { name: "login-fail:email-new-device", limit: 10, windowMs: 15 * 60_000 },
  /** Failed sign-ins from one known device (a stolen device cookie cannot guess on). */
  loginFailuresPerDevice: { name: "login-fail:device", limit: 10, windowMs: 15 * 60_000 },
  signupPerIp: { name: "signup:ip", limit: 10, windowMs: 60 * 60_000 },
  forgotPasswordPerEmail: { name: "forgot:email", limit: 3, windowMs: 60 * 60_000 },
  /** E-mails to an account's owner saying someone tried to sign up with their address (decision 083). */
  signupExistingPerEmail: { name: "signup-existing:email", limit: 3, windowMs: 60 * 60_000 },
  forgotPasswordPerIp: { name: "forgot:ip", limit: 20, windowMs: 60 * 60_000 },
  verificationPerUser: { name: "verify-send:user", limit: 5, windowMs: 60 * 60_000 },
  verificationPerIp: { name: "verify-send:ip", limit: 20, windowMs: 60 * 60_000 },
  newsletterPerIp: { name: "newsletter:ip", limit: 10, windowMs: 60 * 60_000 },
  googlePerIp: { name: "google:ip", limit: 30, windowMs: 15 * 60_000 },
  /** Gift invites a user sends (an e-mail to an address they type): enough for friends, too few for spam. */
  referralInvitesPerUser: { name: "referral-invite:user", limit: 10, windowMs: 24 * 60 * 60_000 },
  /** E-mails one sender has us send to addresses they typed, of every kind (decision 080). */
  typedMailPerSender: { name: "typed-mail:sender", limit: 20, windowMs: 24 * 60 * 60_000 },
  /** E-mails one mailbox receives at addresses somebody typed, from every sender and of every kind (decision 080). */
  typedMailPerRecipient: { name: "typed-mail:recipient", limit: 5, windowMs: 24 * 60 * 60_000 },
  /** Contact-page messages from one address: plenty for a person, too few to flood the support inbox. */
  feedbackPerIp: { name: "feedback:ip", limit: 5, windowMs: 60 * 60_000 },
  /**
   * Redeem codes tried that turned out unknown or used (decision 083): a person mistypes a few; guessing codes takes
   * thousands. Per account and per client address, so neither new accounts nor new addresses buy more guesses alone.
   */
  redeemFailuresPerUser: { name: "redeem-fail:user", limit: 10, windowMs: 60 * 60_000 },
  redeemFailuresPerIp: { name: "redeem-fail:ip", limit: 30, windowMs: 60 * 60_000 },
  /** Calls of the WordPress plugin with one access key (docs/decisions/054): a blog publishing all day stays far below. */
  wordpressPerKey: { name: "wordpress:key", limit: 120, windowMs: 60 * 60_000 },
} satisfies Record<string, RateLimitRule>;

export class RateLimited extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message?: (minutes: string) => string) {
    const count = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    const minutes = `${count} minute${count === 1 ? "" : "s"}`;
    super(message ? message(minutes) : `Too many attempts. Please try again in ${minutes}.`);
    this.name = "RateLimited";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

type Check = [RateLimitRule, string | null | undefined];

const bucketOf = (rule: RateLimitRule, key: string) => `${rule.name}:${key.toLowerCase()}`;

/**
 * For each check, in order, the seconds until its rule is under its limit
 * again (0: it is now), without counting anything.
 */
export async function waitsBeforeTrying(d1: D1Database, checks: Check[], now = Date.now()): Promise<number[]> {
  const buckets = checks.map(([rule, key]) => (key ? bucketOf(rule, key) : null));
  const keyed = buckets.filter((bucket): bucket is string => bucket !== null);
  if (keyed.length === 0) return checks.map(() => 0);
  const rows = await d1
    .prepare(`SELECT bucket, count, reset_at FROM rate_limits WHERE bucket IN (SELECT value FROM json_each(?1)) AND reset_at > ?2`)
    .bind(JSON.stringify(keyed), now)
    .all<{ bucket: string; count: number; reset_at: number }>();
  return checks.map(([rule], i) => {
    const row = rows.results.find((candidate) => candidate.bucket === buckets[i]);
    return row && row.count >= rule.limit ? Math.ceil((row.reset_at - now) / 1000) : 0;
  });
}

/**
 * How long until every rule is under its limit again (0: it is now), without
 * counting anything: for limits that count failures, looked at before trying.
 */
export async function waitBeforeTrying(d1: D1Database, checks: Check[], now = Date.now()): Promise<number> {
  return Math.max(0, ...(await waitsBeforeTrying(d1, checks, now)));
}

/**
 * Counts one attempt against each rule (atomically, one statement each) and
 * throws RateLimited when any is over its limit. Nothing else has happened yet
 * when it throws, so a limited request sends and changes nothing.
 */
export async function consumeRateLimits(d1: D1Database, checks: Check[], now = Date.now()) {
  const db = database(d1);
  const statements = checks
    .filter(([, key]) => key)
    .map(([rule, key]) => {
      const resetAt = now + rule.windowMs;
      return db
        .insert(rateLimits)
        .values({ bucket: bucketOf(rule, key!), count: 1, resetAt })
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

/** The most expired windows one cron run forgets: a bounded write, whatever has piled up; the next runs take the rest. */
export const RATE_LIMIT_PURGE_BATCH = 5_000;

/** Forgets expired windows, at most RATE_LIMIT_PURGE_BATCH of them (run by the cron sweep every 5 minutes). Answers how many. */
export async function purgeExpiredRateLimits(d1: D1Database, now = Date.now(), batch = RATE_LIMIT_PURGE_BATCH): Promise<number> {
  const result = await d1
    .prepare("DELETE FROM rate_limits WHERE bucket IN (SELECT bucket FROM rate_limits WHERE reset_at <= ?1 ORDER BY reset_at LIMIT ?2)")
    .bind(now, batch)
    .run();
  return result.meta.changes ?? 0;
}
