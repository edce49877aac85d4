import { sql } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { emailSuppressions } from "../../db/schema.ts";

/**
 * The addresses no e-mail goes to (decision 097): a hard bounce or a spam complaint that Resend reported
 * (`email-events.ts`). sendEmail looks every recipient up here first.
 */

export type SuppressionReason = "hard_bounce" | "complaint";

export interface Suppression {
  reason: SuppressionReason;
  /** Milliseconds since the epoch. */
  since: number;
}

const DAY = 86_400_000;
/**
 * A hard bounce stops mail to the address for this long, then the cron forgets it (table-retention.ts): a
 * mailbox that did not exist may exist later, and an address a stranger typed is not kept for ever. A
 * complaint is kept for good: the person said no.
 */
export const HARD_BOUNCE_KEPT_MS = 180 * DAY;

/** The form an address is kept and looked up in: trimmed and lower-cased. */
export function normalisedAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** What a person is told when we cannot e-mail their address. */
export const SUPPRESSED_MESSAGES: Record<SuppressionReason, string> = {
  hard_bounce: "We can't send e-mail to this address: an earlier message bounced.",
  complaint: "We can't send e-mail to this address: an earlier message was reported as spam.",
};

/**
 * For an address someone else typed (a gift, a reviewer invite): the same refusal without saying whether its
 * owner reported us as spam.
 */
export const SUPPRESSED_TYPED_ADDRESS = "We can't send e-mail to this address: earlier messages to it could not be delivered.";

/** The address's suppression in force at `now`, or null. */
export async function suppressionOf(db: D1Database, address: string, now = Date.now()): Promise<Suppression | null> {
  const row = await database(db)
    .select({ reason: emailSuppressions.reason, since: emailSuppressions.suppressedAt })
    .from(emailSuppressions)
    .where(
      sql`${emailSuppressions.address} = ${normalisedAddress(address)} AND (${emailSuppressions.expiresAt} IS NULL OR ${emailSuppressions.expiresAt} > ${now})`,
    )
    .get();
  return row ?? null;
}

/**
 * Stops mail to the address. A complaint is kept for good and is never weakened by a later bounce; a new hard
 * bounce starts its 180 days again.
 */
export async function suppressAddress(
  db: D1Database,
  address: string,
  reason: SuppressionReason,
  facts: { detail: string; eventId: string | null; at: number },
): Promise<void> {
  const expiresAt = reason === "complaint" ? null : facts.at + HARD_BOUNCE_KEPT_MS;
  await database(db)
    .insert(emailSuppressions)
    .values({ address: normalisedAddress(address), reason, detail: facts.detail.slice(0, 500), eventId: facts.eventId, suppressedAt: facts.at, expiresAt })
    .onConflictDoUpdate({
      target: emailSuppressions.address,
      // An expired hard bounce not yet pruned is replaced outright; a complaint in force stays as it is.
      set: {
        reason: sql`CASE WHEN ${emailSuppressions.reason} = 'complaint' THEN 'complaint' ELSE excluded.reason END`,
        detail: sql`CASE WHEN ${emailSuppressions.reason} = 'complaint' AND excluded.reason <> 'complaint' THEN ${emailSuppressions.detail} ELSE excluded.detail END`,
        eventId: sql`CASE WHEN ${emailSuppressions.reason} = 'complaint' AND excluded.reason <> 'complaint' THEN ${emailSuppressions.eventId} ELSE excluded.event_id END`,
        suppressedAt: sql`CASE WHEN ${emailSuppressions.reason} = 'complaint' AND excluded.reason <> 'complaint' THEN ${emailSuppressions.suppressedAt} ELSE excluded.suppressed_at END`,
        expiresAt: sql`CASE WHEN ${emailSuppressions.reason} = 'complaint' OR excluded.reason = 'complaint' THEN NULL ELSE excluded.expires_at END`,
      },
    });
}
