import type { Env } from "../../env.ts";

/**
 * D1 tables that grow per request and serve nobody once their time is past (issue 38, decision 084): the cron
 * forgets their old rows a bounded batch at a time, oldest first, each through an index on its time
 * (migrations 0043 and 0044). What a user still sees or needs is kept; see each rule.
 */
const DAY = 86_400_000;

interface Rule {
  table: string;
  /** The row's key for the DELETE (rowid: every table here is a rowid table). */
  when: string;
  /** How long after that time the row is kept. */
  keepMs: number;
  why: string;
}

export const TABLE_RULES: Rule[] = [
  // OAuth round trips last minutes; a day after expiry nothing can use them.
  { table: "pinterest_oauth_states", when: "expires_at", keepMs: DAY, why: "a sign-in round trip, expired" },
  { table: "etsy_oauth_states", when: "expires_at", keepMs: DAY, why: "a sign-in round trip, expired" },
  { table: "shopify_oauth_states", when: "expires_at", keepMs: DAY, why: "a sign-in round trip, expired" },
  { table: "password_resets", when: "expires_at", keepMs: DAY, why: "a reset link, expired" },
  // Ended sign-ins stay 30 days in the account's and the admin's list of sign-ins; their refresh tokens go with them.
  { table: "auth_sessions", when: "expires_at", keepMs: 30 * DAY, why: "a sign-in that expired" },
  { table: "auth_sessions", when: "revoked_at", keepMs: 30 * DAY, why: "a sign-in that was ended" },
  // Providers retry a delivery for at most 3 days (Stripe, PayPal) or 48 hours (Shopify): 90 days is ample.
  { table: "webhook_events", when: "created_at", keepMs: 90 * DAY, why: "a delivery's id, kept against retries" },
  { table: "billing_emails", when: "sent_at", keepMs: 90 * DAY, why: "a billing e-mail sent, kept against a repeated event" },
  { table: "trend_alert_runs", when: "claimed_at", keepMs: 90 * DAY, why: "a digest's claim for its period" },
  // A hard bounce stops mail for 180 days (its expires_at); a complaint has none and is kept for good (decision 097).
  { table: "email_suppressions", when: "expires_at", keepMs: 0, why: "a hard bounce past its 180 days" },
  // The digests a user was sent, for 13 months (as the pin history).
  { table: "trend_alert_emails", when: "sent_at", keepMs: 396 * DAY, why: "a trend digest sent" },
];

/** Rows forgotten per rule per run (a few thousand a run keeps each statement short). */
export const TABLE_PRUNE_BATCH = 2_000;

/** Forgets what the rules say is past, a batch per rule. Answers the rows deleted by table. */
export async function pruneGrowingTables(env: Env, now = Date.now(), batch = TABLE_PRUNE_BATCH): Promise<Record<string, number>> {
  const statements = TABLE_RULES.map((rule) =>
    env.DB.prepare(
      `DELETE FROM ${rule.table} WHERE rowid IN (SELECT rowid FROM ${rule.table} WHERE ${rule.when} IS NOT NULL AND ${rule.when} < ?1 ORDER BY ${rule.when} LIMIT ?2)`,
    ).bind(now - rule.keepMs, batch),
  );
  const results = await env.DB.batch(statements);
  const deleted: Record<string, number> = {};
  TABLE_RULES.forEach((rule, i) => {
    deleted[rule.table] = (deleted[rule.table] ?? 0) + (results[i].meta.changes ?? 0);
  });
  return deleted;
}
