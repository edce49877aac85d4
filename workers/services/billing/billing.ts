import { and, desc, eq, sql } from "drizzle-orm";
import type { ProfileUpdates } from "../../../contracts/billing/billing.ts";
import { database } from "../../db/client.ts";
import { billingCustomers, paymentReversals, planRevocations, subscriptions, users, webhookEvents } from "../../db/schema.ts";
import { takenBackCents } from "../../domain/payment-reversals.ts";
import { changePeriodStart, currentRecord, isRecordRevoked, planStateOf, type PlanRecord } from "../../domain/plans.ts";
import type { Env } from "../../env.ts";
import { sendCancellationOnce } from "./billing-emails.ts";
import { grantCurrentMonth, takeBackPaidGrants } from "./credits.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * Plan state, whatever the payment provider (docs/decisions/013-billing.md).
 * Providers report subscriptions and purchases as plan records; the user's
 * planId, planStatus and cancelSubscriptionDate are always derived from all of
 * their records, so reports arriving late, twice or out of order end in the
 * same state. Every change grants the current month's credits.
 */
export type PlanRecordRow = typeof subscriptions.$inferSelect;
type Provider = PlanRecordRow["provider"];

/** What a provider reports about one subscription or purchase. */
export interface PlanRecordInput extends PlanRecord {
  provider: Provider;
  providerRef: string;
  trialEnd: number | null;
  cancelReason?: string | null;
  affiliateId?: string | null;
  /** When the provider recorded the cancellation (Stripe's canceled_at): tells two cancellations of one subscription apart. */
  cancelledAt?: number | null;
}

/** One of the user's records, or null: never another user's. */
export async function findPlanRecord(env: Env, userId: string, provider: Provider, providerRef: string): Promise<PlanRecordRow | null> {
  const row = await database(env.DB).query.subscriptions.findFirst({
    where: and(eq(subscriptions.userId, userId), eq(subscriptions.provider, provider), eq(subscriptions.providerRef, providerRef)),
  });
  return row ?? null;
}

export async function planRecordsOf(env: Env, userId: string): Promise<PlanRecordRow[]> {
  return database(env.DB).select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.startedAt)).limit(50);
}

/**
 * The periods of a record taken back (decision 077), from plan_revocations: the latest one, its reason and when
 * it was first taken back. A provider's report never sets them; the refund may come before the record does.
 */
function revocationOf(provider: Provider, providerRef: string) {
  const of = sql`${planRevocations.provider} = ${provider} AND ${planRevocations.providerRef} = ${providerRef}`;
  return {
    revokedPeriodStart: sql<number | null>`(SELECT max(${planRevocations.periodStart}) FROM ${planRevocations} WHERE ${of})`,
    revokedReason: sql<
      "refunded" | "disputed" | null
    >`(SELECT ${planRevocations.reason} FROM ${planRevocations} WHERE ${of} ORDER BY ${planRevocations.periodStart} DESC LIMIT 1)`,
    revokedAt: sql<number | null>`(SELECT min(${planRevocations.createdAt}) FROM ${planRevocations} WHERE ${of})`,
  };
}

/**
 * Records what a provider reports about a subscription or purchase, then
 * derives the user's plan from all their records. A record never moves to
 * another user, and an ended (canceled) one never comes back to life.
 */
export async function savePlanRecord(env: Env, userId: string, report: PlanRecordInput, now = Date.now()): Promise<ProfileUpdates> {
  const db = database(env.DB);
  const { cancelledAt, ...input } = report;
  const known = await findPlanRecord(env, userId, input.provider, input.providerRef);
  const revocation = revocationOf(input.provider, input.providerRef);
  const [saved] = await db
    .insert(subscriptions)
    .values({
      id: crypto.randomUUID(),
      userId,
      ...input,
      changePeriodStart: changePeriodStart(known, input),
      cancelReason: input.cancelReason ?? null,
      affiliateId: input.affiliateId ?? null,
      ...revocation,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [subscriptions.provider, subscriptions.providerRef],
      set: {
        planId: sql`excluded.plan_id`,
        status: sql`excluded.status`,
        periodStart: sql`excluded.period_start`,
        periodEnd: sql`excluded.period_end`,
        cancelAtPeriodEnd: sql`excluded.cancel_at_period_end`,
        endedAt: sql`excluded.ended_at`,
        trialEnd: sql`excluded.trial_end`,
        changePeriodStart: sql`excluded.change_period_start`,
        cancelReason: sql`coalesce(excluded.cancel_reason, ${subscriptions.cancelReason})`,
        affiliateId: sql`coalesce(${subscriptions.affiliateId}, excluded.affiliate_id)`,
        revokedPeriodStart: sql`excluded.revoked_period_start`,
        revokedReason: sql`excluded.revoked_reason`,
        revokedAt: sql`excluded.revoked_at`,
        updatedAt: sql`excluded.updated_at`,
      },
      setWhere: sql`${subscriptions.userId} = excluded.user_id AND NOT (${subscriptions.status} = 'canceled' AND excluded.status <> 'canceled')`,
    })
    .returning({
      userId: subscriptions.userId,
      planId: subscriptions.planId,
      periodStart: subscriptions.periodStart,
      revokedPeriodStart: subscriptions.revokedPeriodStart,
      revokedReason: subscriptions.revokedReason,
    });
  const updates = await refreshUserPlan(env, userId, now);
  // Its payment was taken back (the refund's event may have come first): its month counts no paid credits of it.
  if (saved && saved.userId === userId && isRecordRevoked(saved)) await takeBackPaidGrants(env, userId, saved.planId, takenBackWhy(saved.revokedReason), now);
  if (isCancellation(known, input) && (await findPlanRecord(env, userId, input.provider, input.providerRef))) {
    // Every cancellation is confirmed by e-mail once, whoever reported it first (our API or the provider's webhook).
    await sendCancellationOnce(
      env,
      userId,
      { provider: input.provider as "stripe" | "paypal" | "shopify", subscription: input.providerRef, stamp: cancelledAt ? String(cancelledAt) : "" },
      { planId: input.planId, endsAt: input.cancelAtPeriodEnd ? input.periodEnd : (input.endedAt ?? now), cancelledAt: cancelledAt ?? now },
      now,
    );
  }
  return updates;
}

/** A paid subscription reported cancelled (at its period's end, or at once) that we knew running. */
function isCancellation(known: PlanRecordRow | null, input: Omit<PlanRecordInput, "cancelledAt">): boolean {
  const cancelled = (record: { status: string; cancelAtPeriodEnd: boolean }) => record.status === "canceled" || record.cancelAtPeriodEnd;
  const paid = input.kind === "subscription" && (input.provider === "stripe" || input.provider === "paypal" || input.provider === "shopify");
  return paid && cancelled(input) && !(known && cancelled(known));
}

/** Why a plan's grant was taken back, as the ledger's reason says it. */
export function takenBackWhy(reason: "refunded" | "disputed" | null): string {
  return reason === "disputed" ? "the payment was disputed" : "the payment was refunded";
}

/**
 * Takes back the period a payment bought (decision 077): the record gives no plan while its current period
 * starts at or before `periodStart`. Kept in plan_revocations (the record may not be there yet: savePlanRecord
 * copies it in) and copied into the record now. Once per payment. Answers the record's owner and plan, when
 * the record is ours already.
 */
export async function revokePlanPeriod(
  env: Env,
  revocation: { provider: Provider; providerRef: string; paymentRef: string; periodStart: number; reason: "refunded" | "disputed" },
): Promise<{ userId: string; planId: string } | null> {
  const db = database(env.DB);
  const [, updated] = await db.batch([
    db.insert(planRevocations).values(revocation).onConflictDoNothing(),
    db
      .update(subscriptions)
      .set(revocationOf(revocation.provider, revocation.providerRef))
      .where(and(eq(subscriptions.provider, revocation.provider), eq(subscriptions.providerRef, revocation.providerRef)))
      .returning({ userId: subscriptions.userId, planId: subscriptions.planId }),
  ]);
  return updated[0] ?? null;
}

/** What a payment lost so far (decision 077): its reversals added up (at most the payment), and what it was. */
export async function paymentTakenBack(
  env: Env,
  provider: "stripe" | "paypal" | "shopify",
  paymentRef: string,
): Promise<{ takenBackCents: number; paymentCents: number; disputed: boolean }> {
  const [row] = await database(env.DB)
    .select({
      sum: sql<number>`coalesce(sum(${paymentReversals.amountCents}), 0)`,
      payment: sql<number>`coalesce(max(${paymentReversals.paymentCents}), 0)`,
      disputes: sql<number>`coalesce(sum(${paymentReversals.kind} = 'dispute'), 0)`,
    })
    .from(paymentReversals)
    .where(and(eq(paymentReversals.provider, provider), eq(paymentReversals.paymentRef, paymentRef)));
  const payment = row?.payment ?? 0;
  return { takenBackCents: takenBackCents(payment, [row?.sum ?? 0]), paymentCents: payment, disputed: (row?.disputes ?? 0) > 0 };
}

/** Derives the user's plan fields from their records, saves them and grants this month's credits. */
export async function refreshUserPlan(env: Env, userId: string, now = Date.now()): Promise<ProfileUpdates> {
  const db = database(env.DB);
  const [records, user] = await Promise.all([
    planRecordsOf(env, userId),
    db.query.users.findFirst({ where: eq(users.id, userId), columns: { usedFreeTrial: true } }),
  ]);
  const state = planStateOf(currentRecord(records, now), now);
  // A trial is for first-time subscribers: any paid subscription, with or without a trial, uses it.
  // Months granted by a redeem code are not a subscription the user started: they leave the trial unused.
  const usedFreeTrial = (user?.usedFreeTrial ?? false) || records.some((record) => record.kind === "subscription" && record.provider !== "code");
  await db
    .update(users)
    .set({ planId: state.planId, planStatus: state.planStatus, cancelSubscriptionDate: state.cancelSubscriptionDate, usedFreeTrial, updatedAt: now })
    .where(eq(users.id, userId));
  await grantCurrentMonth(env, userId, now);
  return {
    planId: state.planId,
    planStatus: state.planStatus,
    cancelSubscriptionDate: state.cancelSubscriptionDate === null ? null : new Date(state.cancelSubscriptionDate).toISOString(),
    usedFreeTrial,
  };
}

/** The user's customer id at a provider, or null. */
export async function customerRefOf(env: Env, userId: string, provider: "stripe"): Promise<string | null> {
  const row = await database(env.DB).query.billingCustomers.findFirst({
    where: and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, provider)),
  });
  return row?.customerRef ?? null;
}

/** Whose customer this is at a provider, or null. */
export async function userOfCustomer(env: Env, provider: "stripe", customerRef: string): Promise<string | null> {
  const row = await database(env.DB).query.billingCustomers.findFirst({
    where: and(eq(billingCustomers.provider, provider), eq(billingCustomers.customerRef, customerRef)),
  });
  return row?.userId ?? null;
}

/** Remembers the user's customer id; the first one saved wins (answered). */
export async function saveCustomerRef(env: Env, userId: string, provider: "stripe", customerRef: string): Promise<string> {
  await database(env.DB).insert(billingCustomers).values({ userId, provider, customerRef }).onConflictDoNothing();
  return (await customerRefOf(env, userId, provider)) ?? customerRef;
}

/**
 * The page of this site a provider sends the browser back to: `returnUrl` (default `fallbackPath`)
 * without its hash and without the query parameters in `drop` (the provider and the caller add
 * their own). Another site's page, or no URL at all, is a 400 naming returnUrl.
 */
export function returnPageOf(env: Env, returnUrl: string | undefined, fallbackPath: string, drop: readonly string[]): URL {
  const app = new URL(env.APP_URL);
  let url: URL;
  try {
    url = new URL(returnUrl ?? fallbackPath, app);
  } catch {
    throw new ServiceError(400, "returnUrl must be a page of this site", "returnUrl");
  }
  if (url.origin !== app.origin) throw new ServiceError(400, "returnUrl must be a page of this site", "returnUrl");
  url.hash = "";
  for (const name of drop) url.searchParams.delete(name);
  return url;
}

// ---------------------------------------------------------------------------
// Parity offered (docs/decisions/015-pricing-parity.md): PayPal and Shopify charge the price our
// server asked for when the subscription was started, but anyone holding the store's token (or our
// public PayPal client id) could ask those providers for another price. The parity percentages a
// user was offered at a start are kept at the end of their billing_customers row
// ("... parity:0,40"); a charge is accepted only at the plan's price less one of them.

const PARITY_SUFFIX = / parity:[0-9,]*$/;

/** The parity percentages a customer row records; full price (0) is always among them. */
export function offeredParitiesOf(customerRef: string | null | undefined): Set<number> {
  const listed = customerRef?.match(PARITY_SUFFIX)?.[0].slice(" parity:".length) ?? "";
  const offered = new Set([0]);
  for (const part of listed.split(",")) if (/^[0-9]{1,2}$/.test(part)) offered.add(Number(part));
  return offered;
}

/** A customer row's text without its parity suffix. */
export function withoutOfferedParities(customerRef: string): string {
  return customerRef.replace(PARITY_SUFFIX, "");
}

/** `customerRef` (without suffix) recording `offered` and `percent` too. */
export function withOfferedParity(customerRef: string, offered: Set<number>, percent: number): string {
  const all = [...new Set([...offered, percent])].filter((value) => value > 0).sort((a, b) => a - b);
  return all.length ? `${withoutOfferedParities(customerRef)} parity:${all.join(",")}` : withoutOfferedParities(customerRef);
}

/** Claims a webhook event for applying: false when it was applied (or is being applied) already. */
export async function claimWebhookEvent(env: Env, provider: string, eventId: string, type: string): Promise<boolean> {
  const claimed = await database(env.DB)
    .insert(webhookEvents)
    .values({ provider, eventId, type })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return claimed.length > 0;
}

/** Gives a claimed event back after applying it failed, so the provider's retry applies it. */
export async function releaseWebhookEvent(env: Env, provider: string, eventId: string): Promise<void> {
  await database(env.DB)
    .delete(webhookEvents)
    .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, eventId)));
}
