import { amountIn } from "../../../contracts/money.ts";
import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { billingEmails, users } from "../../db/schema.ts";
import { FREE_PLAN_ID } from "../../domain/plans.ts";
import type { Env } from "../../env.ts";
import { sendEmail } from "../../integrations/email.ts";
import { planById } from "./plan-lookups.ts";
import { cancellationEmail, receiptEmail } from "../accounts/emails.ts";
import { profilesQuery, schedulingSettingsOf } from "../pinterest/pinterest-connection.ts";

/**
 * Billing e-mails (issue 37, decision 082): a receipt after every payment and a confirmation after every
 * cancellation, each exactly once. An e-mail is claimed in `billing_emails` under the provider's name for the
 * payment (an invoice, a sale, a billed interval) or the cancellation before it is sent, so a webhook delivered
 * twice, or the same payment seen by a webhook and by the cron, never sends a second one. It is sent at once; one
 * that could not go (the e-mail service down) stays unsent and the cron sends it (sendPendingBillingEmails).
 */

type Provider = "stripe" | "paypal" | "shopify";

export interface ReceiptDetails {
  kind: "receipt";
  provider: Provider;
  planId: string;
  /** In currency units. */
  amount: number;
  currency: string;
  paidAt: number;
  /** The end of the period paid for; null for a plan paid for good. */
  paidUntil: number | null;
  /** The provider's id of the payment (an invoice, a checkout session, a sale, a charge's interval). */
  paymentReference: string;
}

export interface CancellationDetails {
  kind: "cancellation";
  provider: Provider;
  planId: string;
  /** When the plan stops; at or before the cancellation when it stopped at once. */
  endsAt: number | null;
  cancelledAt: number;
}

type Details = ReceiptDetails | CancellationDetails;

/** A receipt for one payment, sent once per payment. Payments of nothing (a free trial's invoice) get none. */
export async function sendReceiptOnce(env: Env, userId: string, details: Omit<ReceiptDetails, "kind">, now = Date.now()): Promise<void> {
  if (!(details.amount > 0)) return;
  await sendOnce(env, `receipt:${details.provider}:${details.paymentReference}`, userId, { kind: "receipt", ...details }, now);
}

/**
 * A confirmation for one cancellation, sent once per cancellation. `stamp` tells apart two cancellations of one
 * subscription (Stripe's canceled_at: a cancellation undone and made again); empty where there can be only one.
 */
export async function sendCancellationOnce(
  env: Env,
  userId: string,
  ref: { provider: Provider; subscription: string; stamp: string },
  details: Omit<CancellationDetails, "kind" | "provider">,
  now = Date.now(),
) {
  await sendOnce(
    env,
    `cancellation:${ref.provider}:${ref.subscription}:${ref.stamp}`,
    userId,
    { kind: "cancellation", provider: ref.provider, ...details },
    now,
  );
}

async function sendOnce(env: Env, reference: string, userId: string, details: Details, now: number): Promise<void> {
  const claimed = await database(env.DB)
    .insert(billingEmails)
    .values({ reference, userId, kind: details.kind, details: JSON.stringify(details), createdAt: now })
    .onConflictDoNothing()
    .returning({ reference: billingEmails.reference });
  if (claimed.length > 0) await deliver(env, { reference, userId, details }, now);
}

/** Left for the cron this long before it tries again: the first try happens at once, in the request. */
const RETRY_AFTER_MS = 60_000;
/** Given up after this long (logged): a receipt days late helps nobody more than the one on the account page. */
const GIVE_UP_AFTER_MS = 3 * 86_400_000;

/** Cron: sends the billing e-mails that could not go at once, oldest first, a few per run. */
export async function sendPendingBillingEmails(env: Env, now = Date.now()): Promise<{ sent: number; failed: number }> {
  const pending = await database(env.DB)
    .select()
    .from(billingEmails)
    .where(and(isNull(billingEmails.sentAt), lt(billingEmails.createdAt, now - RETRY_AFTER_MS), gt(billingEmails.createdAt, now - GIVE_UP_AFTER_MS)))
    .orderBy(asc(billingEmails.createdAt))
    .limit(25);
  let sent = 0;
  for (const row of pending) {
    if (await deliver(env, { reference: row.reference, userId: row.userId, details: JSON.parse(row.details) as Details }, now)) sent += 1;
  }
  return { sent, failed: pending.length - sent };
}

/** Sends one claimed e-mail; answers whether it went (a failure is logged and left for the cron; a suppressed address settles it unsent). */
async function deliver(env: Env, row: { reference: string; userId: string; details: Details }, now: number): Promise<boolean> {
  const db = database(env.DB);
  try {
    const [user, plan, free, zone] = await Promise.all([
      db.query.users.findFirst({ where: eq(users.id, row.userId), columns: { email: true, firstName: true } }),
      planById(env, row.details.planId),
      planById(env, FREE_PLAN_ID),
      timeZoneOf(env, row.userId),
    ]);
    if (!user || !plan) throw new Error(`no ${user ? "plan" : "user"} for billing e-mail ${row.reference}`);
    const date = (ms: number) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: zone }).format(new Date(ms));
    const link = new URL("/pricing#manage", env.APP_URL).toString();
    const { details } = row;
    const email =
      details.kind === "receipt"
        ? receiptEmail(
            user.email,
            user.firstName,
            {
              planName: plan.name,
              billing: plan.billingPeriod === "year" ? "annual" : plan.billingPeriod === "once" ? "one payment, for good" : "monthly",
              creditsPerMonth: plan.creditsPerMonth,
              amount: amountIn(details.amount, details.currency),
              paidOn: date(details.paidAt),
              paidUntil: details.paidUntil === null ? null : date(details.paidUntil),
              paidWith: details.provider === "stripe" ? "a card (Stripe)" : details.provider === "paypal" ? "PayPal" : "your Shopify store",
              paymentReference: details.paymentReference,
            },
            link,
          )
        : cancellationEmail(
            user.email,
            user.firstName,
            {
              planName: plan.name,
              endsOn: details.endsAt !== null && details.endsAt > details.cancelledAt ? date(details.endsAt) : null,
              freeCreditsPerMonth: free?.creditsPerMonth ?? 10,
              canReactivate: details.provider === "stripe",
            },
            link,
          );
    const delivery = await sendEmail(env, email);
    // An address that bounced or complained (decision 097) settles the e-mail unsent: the cron does not try again.
    if (!delivery.sent)
      console.warn("A billing e-mail was not sent: the address is suppressed", { reference: row.reference, reason: delivery.suppressed.reason });
    await db
      .update(billingEmails)
      .set({ sentAt: now, attempts: sql`${billingEmails.attempts} + 1` })
      .where(eq(billingEmails.reference, row.reference));
    return delivery.sent;
  } catch (error) {
    console.error("A billing e-mail could not be sent now; the cron tries again", {
      reference: row.reference,
      error: error instanceof Error ? error.message : String(error),
    });
    await db
      .update(billingEmails)
      .set({ attempts: sql`${billingEmails.attempts} + 1` })
      .where(eq(billingEmails.reference, row.reference));
    return false;
  }
}

/** The user's time zone: the one their active Pinterest profile schedules in (scheduling settings), else UTC. */
async function timeZoneOf(env: Env, userId: string): Promise<string> {
  const profiles = await profilesQuery(env, userId);
  const profile = profiles.find((candidate) => candidate.isActive) ?? profiles[0];
  return profile ? schedulingSettingsOf(profile).timezone.value : "UTC";
}
