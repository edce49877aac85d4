import { and, count, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type * as v from "valibot";
import {
  INVITE_FAILED_MESSAGE,
  INVITE_SENT_MESSAGE,
  REFERRAL_NOT_RECORDED_MESSAGE,
  REFERRAL_RECORDED_MESSAGE,
  type RecordReferralAnswer,
  type RecordReferralBody,
  type ReferralProfile,
  type SendReferralInviteBody,
} from "../../../contracts/growth/referrals.ts";
import { database } from "../../db/client.ts";
import { freeMonthMailboxes, referrals, users } from "../../db/schema.ts";
import { sameMailbox } from "../../domain/mailboxes.ts";
import { addMonths } from "../../domain/plans.ts";
import { CLAIM_REFUSAL_TEXT, claimRefusal, FREE_MONTH_MONTHS, FREE_MONTH_PLAN_ID, REFERRER_CREDIT_CENTS } from "../../domain/referrals.ts";
import type { Env } from "../../env.ts";
import { ProviderError } from "../../integrations/http.ts";
import { stripeClient } from "../../integrations/stripe.ts";
import type { User } from "../accounts/accounts.ts";
import { customerRefOf, paymentTakenBack, planRecordsOf, savePlanRecord } from "../billing/billing.ts";
import { planById } from "../billing/plan-lookups.ts";
import { isTakenBackInFull } from "../../domain/payment-reversals.ts";
import { referralInviteEmail } from "../accounts/emails.ts";
import { ServiceError } from "../core/errors.ts";
import { mailboxKey } from "../accounts/mailboxes.ts";
import { tickOnboardingStep } from "../accounts/onboarding.ts";
import { RATE_LIMITS } from "../accounts/rate-limit.ts";
import { sendToTypedAddress, type KindLimit } from "../accounts/typed-address-mail.ts";

/**
 * The referral programme (spec sections 2, 7 and 9; docs/decisions/037 and
 * 038). Every user has a referral code from sign-up (users.referralCode). A
 * friend who claims it gets one month of Starter, once, if they never held a
 * plan; when they first pay, the referrer gets $16.99 off their next payment
 * as a Stripe customer balance credit, once per referred user.
 */

/** The /referral link that carries a code. */
export function inviteLink(env: Pick<Env, "APP_URL">, referralCode: string): string {
  return new URL(`/referral?pgreferral=${encodeURIComponent(referralCode)}`, env.APP_URL).toString();
}

/** GET /api/referrals/getReferralProfile/{code}: the referrer's first name and paid referrals, nothing private. */
export async function referralProfile(env: Env, code: string): Promise<ReferralProfile> {
  const db = database(env.DB);
  const referrer = await db.query.users.findFirst({ where: eq(users.referralCode, code), columns: { id: true, firstName: true, referralCode: true } });
  if (!referrer) throw new ServiceError(404, "This invite link is not valid. Ask your friend to send it again.");
  const [row] = await db
    .select({ sales: count() })
    .from(referrals)
    .where(and(eq(referrals.referrerId, referrer.id), isNotNull(referrals.firstPaidAt)));
  return { referralCode: referrer.referralCode, firstName: referrer.firstName, referredSales: row?.sales ?? 0 };
}

/**
 * POST /api/referrals/sendReferralInvite: e-mails the caller's invite link to
 * a friend, through the gate of mail to typed addresses (decision 080: per
 * sender, per recipient mailbox, and gifts' own daily limit); a sent gift
 * ticks the onboarding step "Gift a month to a friend".
 */
export async function sendReferralInvite(env: Env, user: User, input: v.InferOutput<typeof SendReferralInviteBody>): Promise<{ message: string }> {
  if (input.referralCode !== user.referralCode) throw new ServiceError(400, "referralCode must be your own referral code", "referralCode");
  if (sameMailbox(input.email, user.email)) throw new ServiceError(400, "Send the gift to a friend's address, not your own.", "email");
  const fromName = `${user.firstName} ${user.lastName}`.trim() || user.firstName;
  try {
    await sendToTypedAddress(env, user, referralInviteEmail(input.email, fromName, inviteLink(env, user.referralCode)), GIFT_LIMIT);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.warn("A referral invite could not be sent", error.message);
    throw new ServiceError(502, INVITE_FAILED_MESSAGE);
  }
  await tickOnboardingStep(env.DB, user, "inviteFriend");
  return { message: INVITE_SENT_MESSAGE };
}

/** Gifts have a daily limit of their own, under the one shared by all mail to typed addresses. */
const GIFT_LIMIT: KindLimit = {
  rule: RATE_LIMITS.referralInvitesPerUser,
  refusal: (wait) => `You have sent a lot of gifts today. Please try again in ${wait}.`,
};

function notRecorded(status: 403 | 404 | 409, reason: string): ServiceError {
  return new ServiceError(status, REFERRAL_NOT_RECORDED_MESSAGE, undefined, { reason });
}

/**
 * POST /api/referrals/recordReferral: the caller was referred by the code's
 * owner and claims the free month of Starter. Once per person (the referral
 * row's primary key is the referred user) and once per mailbox, ever (decision
 * 079: free_month_mailboxes outlives the account); only with a verified
 * address; never with one's own code, nor the code of an account at an alias of
 * one's own address; never for an account that held any plan (paid, lifetime,
 * redeemed or trialled). The month is a plan record of provider "referral",
 * like a redeem code's.
 */
export async function recordReferral(env: Env, user: User, input: v.InferOutput<typeof RecordReferralBody>, now = Date.now()): Promise<RecordReferralAnswer> {
  const db = database(env.DB);
  const referrer = await db.query.users.findFirst({ where: eq(users.referralCode, input.referralCode), columns: { id: true, firstName: true, email: true } });
  if (!referrer) throw notRecorded(404, "This invite link is not valid. Ask your friend to send it again.");
  const mailbox = await mailboxKey(env, user.email);
  const [existing, records, plan, mailboxClaim] = await Promise.all([
    db.query.referrals.findFirst({ where: eq(referrals.referredUserId, user.id), columns: { referredUserId: true } }),
    planRecordsOf(env, user.id),
    planById(env, FREE_MONTH_PLAN_ID),
    db.query.freeMonthMailboxes.findFirst({ where: eq(freeMonthMailboxes.mailboxKey, mailbox) }),
  ]);
  if (!plan) throw new Error(`The free month's plan ${FREE_MONTH_PLAN_ID} is not seeded`);
  const refusal = claimRefusal({
    isOwnCode: referrer.id === user.id,
    alreadyReferred: Boolean(existing),
    hasPlanHistory: records.length > 0,
    emailVerified: user.isEmailVerified,
    isOwnMailbox: sameMailbox(referrer.email, user.email),
    mailboxClaimed: Boolean(mailboxClaim),
  });
  if (refusal) throw notRecorded(refusal === "email-not-verified" ? 403 : 409, CLAIM_REFUSAL_TEXT[refusal]);
  // The claim, mailbox first: of two simultaneous claims from one inbox only one inserts its row.
  const mailboxClaimed = await db
    .insert(freeMonthMailboxes)
    .values({ mailboxKey: mailbox, claimedAt: now })
    .onConflictDoNothing()
    .returning({ key: freeMonthMailboxes.mailboxKey });
  if (mailboxClaimed.length === 0) throw notRecorded(409, CLAIM_REFUSAL_TEXT["mailbox-already-claimed"]);
  const giveBack = () =>
    db.batch([
      db.delete(referrals).where(eq(referrals.referredUserId, user.id)),
      db.delete(freeMonthMailboxes).where(eq(freeMonthMailboxes.mailboxKey, mailbox)),
    ]);
  const claimed = await db
    .insert(referrals)
    .values({ referredUserId: user.id, referrerId: referrer.id, referralCode: input.referralCode, recordedAt: now, mailboxRecorded: true })
    .onConflictDoNothing()
    .returning({ id: referrals.referredUserId });
  if (claimed.length === 0) {
    await db.delete(freeMonthMailboxes).where(eq(freeMonthMailboxes.mailboxKey, mailbox));
    throw notRecorded(409, CLAIM_REFUSAL_TEXT["already-referred"]);
  }
  const periodEnd = addMonths(now, FREE_MONTH_MONTHS);
  try {
    const profileUpdates = await savePlanRecord(
      env,
      user.id,
      {
        provider: "referral",
        providerRef: user.id,
        kind: "subscription",
        planId: plan.id,
        status: "active",
        startedAt: now,
        periodStart: now,
        // The month does not renew: it runs to its end like a cancelled subscription.
        periodEnd,
        cancelAtPeriodEnd: true,
        endedAt: null,
        trialEnd: null,
      },
      now,
    );
    return {
      message: REFERRAL_RECORDED_MESSAGE,
      referrerFirstName: referrer.firstName,
      planId: plan.id,
      planName: plan.name,
      freeUntil: new Date(periodEnd).toISOString(),
      profileUpdates,
    };
  } catch (error) {
    // Nothing half-written: the claim is given back so the user can try again.
    await giveBack();
    throw error;
  }
}

/**
 * The billing webhooks call this on a payment event of a user (one call per
 * hook). `confirmPayment` re-reads the payment from the provider and answers
 * its reference when money was taken (not a $0 trial invoice), else null; it
 * is called only for a referred user whose first payment is not known yet, so
 * other users' payments cost no extra provider call. The first payment of a
 * referred user earns their referrer the credit; later ones change nothing.
 * Safe to call again for the same payment (webhook retries): the Stripe call
 * carries an idempotency key naming the referred user, and a credited referral
 * is never credited again. A Stripe failure is thrown, so the webhook is
 * retried.
 */
export async function rewardReferrerOfPayer(env: Env, payerId: string, confirmPayment: () => Promise<string | null>, now = Date.now()): Promise<void> {
  const db = database(env.DB);
  const row = await db.query.referrals.findFirst({ where: eq(referrals.referredUserId, payerId) });
  if (!row || row.creditedAt !== null) return;
  if (row.firstPaidAt === null) {
    const paymentRef = await confirmPayment();
    // A payment already refunded in full, or lost to a dispute, is not one that sticks (decision 077).
    if (!paymentRef || (await isReferralPaymentTakenBack(env, paymentRef))) return;
    await db
      .update(referrals)
      .set({ firstPaidAt: now, paymentRef })
      .where(and(eq(referrals.referredUserId, payerId), isNull(referrals.firstPaidAt)));
  }
  // A referrer who closed their account earns nothing.
  if (!row.referrerId) return;
  const customer = await customerRefOf(env, row.referrerId, "stripe");
  // No Stripe customer yet: the credit waits until they start a checkout (creditPendingReferrals).
  if (!customer) return;
  await creditReferrer(env, payerId, customer, now);
  // Taken back while we were crediting (its refund's event ran beside this one): the credit goes back too.
  const credited = await db.query.referrals.findFirst({ where: eq(referrals.referredUserId, payerId), columns: { paymentRef: true } });
  if (credited?.paymentRef && (await isReferralPaymentTakenBack(env, credited.paymentRef)))
    await takeBackReferralCredit(env, payerId, credited.paymentRef, now);
}

/**
 * A referral's payment reference as the provider's payment (commission key): Stripe's invoice or checkout
 * session id as it is, PayPal's and Shopify's after their prefix ("paypal:{sale id}", "shopify:{interval}").
 */
export function paymentOfReferralRef(paymentRef: string): { provider: "stripe" | "paypal" | "shopify"; paymentRef: string } {
  for (const provider of ["paypal", "shopify"] as const) {
    if (paymentRef.startsWith(`${provider}:`)) return { provider, paymentRef: paymentRef.slice(provider.length + 1) };
  }
  return { provider: "stripe", paymentRef };
}

/** The referral's payment reference of a provider's payment (the inverse of paymentOfReferralRef). */
export function referralRefOfPayment(provider: "stripe" | "paypal" | "shopify", paymentRef: string): string {
  return provider === "stripe" ? paymentRef : `${provider}:${paymentRef}`;
}

async function isReferralPaymentTakenBack(env: Env, referralPaymentRef: string): Promise<boolean> {
  const { provider, paymentRef } = paymentOfReferralRef(referralPaymentRef);
  const lost = await paymentTakenBack(env, provider, paymentRef);
  return isTakenBackInFull(lost.paymentCents, lost.takenBackCents);
}

/**
 * The payment that earned a referrer's credit was refunded in full or lost to a dispute (decision 077): the
 * $16.99 goes back on the referrer's Stripe customer (a positive balance transaction, with an idempotency key
 * naming the payment), and the referral no longer counts as a referred sale. A later first payment of the
 * referred user that sticks earns the credit again. Only the payment that earned it takes it back; a credit
 * still waiting for the referrer's Stripe customer is simply dropped. A Stripe failure is thrown (the webhook
 * is retried; the key keeps the retry from taking it back twice). Answers whether a credit went back now.
 */
export async function takeBackReferralCredit(env: Env, referredUserId: string, referralPaymentRef: string, now = Date.now()): Promise<boolean> {
  const db = database(env.DB);
  const row = await db.query.referrals.findFirst({ where: eq(referrals.referredUserId, referredUserId) });
  if (!row || row.paymentRef !== referralPaymentRef) return false;
  let reversalTxnId: string | null = null;
  if (row.creditTxnId && row.referrerId) {
    const customer = await customerRefOf(env, row.referrerId, "stripe");
    if (customer) {
      const transaction = await stripeClient(env).customers.createBalanceTransaction(
        customer,
        {
          amount: REFERRER_CREDIT_CENTS,
          currency: "usd",
          description: "Referral credit taken back: your friend's payment was returned to them",
          metadata: { referredUserId, takenBack: referralPaymentRef },
        },
        { idempotencyKey: `referral-credit-reversal-${referredUserId}-${referralPaymentRef}` },
      );
      reversalTxnId = transaction.id;
    }
  }
  const reversed = await db
    .update(referrals)
    .set({ firstPaidAt: null, paymentRef: null, creditTxnId: null, creditedAt: null, reversedAt: now, reversedPaymentRef: referralPaymentRef, reversalTxnId })
    .where(and(eq(referrals.referredUserId, referredUserId), eq(referrals.paymentRef, referralPaymentRef)))
    .returning({ id: referrals.referredUserId });
  return reversed.length > 0 && reversalTxnId !== null;
}

/**
 * Credits that waited for the referrer to have a Stripe customer. Called when
 * the referrer starts a checkout, so the credit is there for that first
 * invoice.
 */
export async function creditPendingReferrals(env: Env, referrerId: string, customerId: string, now = Date.now()): Promise<number> {
  const pending = await database(env.DB)
    .select({ referredUserId: referrals.referredUserId })
    .from(referrals)
    .where(and(eq(referrals.referrerId, referrerId), isNotNull(referrals.firstPaidAt), isNull(referrals.creditedAt)));
  for (const { referredUserId } of pending) await creditReferrer(env, referredUserId, customerId, now);
  return pending.length;
}

/**
 * One referred user's $16.99 as a Stripe customer balance credit (negative amount: credit toward the next invoices).
 * The key names the referred user; a credit earned again after one was taken back (decision 077) names its payment too.
 */
async function creditReferrer(env: Env, referredUserId: string, customerId: string, now: number) {
  const row = await database(env.DB).query.referrals.findFirst({
    where: eq(referrals.referredUserId, referredUserId),
    columns: { paymentRef: true, reversedAt: true },
  });
  if (!row?.paymentRef) return;
  const transaction = await stripeClient(env).customers.createBalanceTransaction(
    customerId,
    {
      amount: -REFERRER_CREDIT_CENTS,
      currency: "usd",
      description: "Referral credit: a friend you invited subscribed",
      metadata: { referredUserId },
    },
    { idempotencyKey: row.reversedAt === null ? `referral-credit-${referredUserId}` : `referral-credit-${referredUserId}-${row.paymentRef}` },
  );
  await database(env.DB)
    .update(referrals)
    .set({ creditTxnId: transaction.id, creditedAt: now })
    .where(and(eq(referrals.referredUserId, referredUserId), isNull(referrals.creditedAt), eq(referrals.paymentRef, row.paymentRef)));
}

/** How many older claims one cron run records; a few runs take any backlog. */
export const CLAIMED_MAILBOX_BATCH = 200;

/**
 * Records the mailbox of claims made before migration 0040 in free_month_mailboxes (decision 079), a batch per
 * cron run, so an alias of an inbox that had its month before the rule cannot have another. Claims whose account
 * is gone took their address with them and cannot be recorded. Answers how many were recorded.
 */
export async function recordClaimedMailboxes(env: Env, now = Date.now()): Promise<number> {
  const db = database(env.DB);
  const claims = await db
    .select({ userId: referrals.referredUserId, email: users.email, recordedAt: referrals.recordedAt })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.referredUserId))
    .where(eq(referrals.mailboxRecorded, false))
    .limit(CLAIMED_MAILBOX_BATCH);
  if (claims.length === 0) return 0;
  const rows = await Promise.all(
    claims.map(async (claim) => ({ userId: claim.userId, mailboxKey: await mailboxKey(env, claim.email), claimedAt: claim.recordedAt || now })),
  );
  // D1 binds at most 100 values a statement: 45 rows of two, or 45 ids. One batch, one transaction.
  const chunks = Array.from({ length: Math.ceil(rows.length / 45) }, (_, i) => rows.slice(i * 45, i * 45 + 45));
  const statements = chunks.flatMap((chunk) => [
    db
      .insert(freeMonthMailboxes)
      .values(chunk.map(({ mailboxKey: key, claimedAt }) => ({ mailboxKey: key, claimedAt })))
      .onConflictDoNothing(),
    db
      .update(referrals)
      .set({ mailboxRecorded: true })
      .where(
        inArray(
          referrals.referredUserId,
          chunk.map((row) => row.userId),
        ),
      ),
  ]);
  await db.batch(statements as [(typeof statements)[0], ...typeof statements]);
  return claims.length;
}
