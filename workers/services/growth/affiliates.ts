import { usdFromCents } from "../../../contracts/money.ts";
import { and, desc, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import type * as v from "valibot";
import type {
  AffiliateData,
  AffiliatePayoutReport,
  CommissionStatus,
  CreateAffiliateProfileBody,
  MarkAffiliatePayoutPaidBody,
} from "../../../contracts/growth/affiliate.ts";
import { database } from "../../db/client.ts";
import { affiliateClicks, affiliateCommissions, affiliateCustomers, affiliatePayouts, affiliates, users } from "../../db/schema.ts";
import {
  AFFILIATE_ID_PATTERN,
  commissionCents,
  commissionTotals,
  isBotAgent,
  lastMonths,
  nextPayoutDay,
  payableAt,
  payoutDayOnOrAfter,
  payoutDue,
  withinAttributionWindow,
} from "../../domain/affiliates.ts";
import { commissionTakenBack } from "../../domain/payment-reversals.ts";
import { addMonths, isLifetimePlan } from "../../domain/plans.ts";
import type { Env } from "../../env.ts";
import { saleOf } from "../../integrations/paypal.ts";
import { Stripe, stripeClient } from "../../integrations/stripe.ts";
import type { User } from "../accounts/accounts.ts";
import { paymentTakenBack, userOfCustomer } from "../billing/billing.ts";
import { planByStripePrice, type Plan } from "../billing/plan-lookups.ts";
import { actorOf, auditStatement, auditStatementIfChanged } from "../admin/admin-audit.ts";
import { ServiceError } from "../core/errors.ts";
import { accountsShareMailbox } from "../accounts/mailboxes.ts";
import { consumeRateLimits, type RateLimitRule } from "../accounts/rate-limit.ts";

/**
 * The affiliate programme (issue 16, docs/decisions/035): clicks on pgref
 * links, customers attributed within 30 days of their click, a commission row
 * per provider charge (from the billing webhooks, keyed on the provider's id),
 * and payouts an admin marks paid (docs/decisions/036).
 */

/** Clicks one address may report: generous for a shared office, hopeless for a script. */
export const AFFILIATE_CLICKS_PER_IP: RateLimitRule = { name: "affiliate-click:ip", limit: 30, windowMs: 60 * 60_000 };

type Db = ReturnType<typeof database>;

/** The affiliate a link's id names, or null (ids are compared in lower case). */
async function affiliateByLinkId(db: Db, affiliateID: string) {
  const id = affiliateID.trim().toLowerCase();
  if (!AFFILIATE_ID_PATTERN.test(id)) return null;
  return (await db.query.affiliates.findFirst({ where: eq(affiliates.affiliateId, id) })) ?? null;
}

/**
 * POST /api/affiliate/incrementAffiliateClicks: counts a visitor's click once
 * per affiliate. Bots, unknown ids and repeats change nothing and answer the
 * same, so the answer tells nobody which ids exist.
 */
export async function countAffiliateClick(
  env: Env,
  input: { affiliateID: string; visitorKey: string; ip: string | null; userAgent: string | null },
  now = Date.now(),
): Promise<void> {
  await consumeRateLimits(env.DB, [[AFFILIATE_CLICKS_PER_IP, input.ip ?? "unknown"]], now);
  if (isBotAgent(input.userAgent)) return;
  const db = database(env.DB);
  const affiliate = await affiliateByLinkId(db, input.affiliateID);
  if (!affiliate) return;
  await db.insert(affiliateClicks).values({ affiliateId: affiliate.affiliateId, visitorKey: input.visitorKey, clickedAt: now }).onConflictDoNothing();
}

export type AttributionSource = "signup" | "checkout";

/**
 * Records that `userId` came through `affiliateID`'s link: only when this
 * browser's click on that link is on record and at most 30 days old, never
 * for the affiliate themselves (their account, or any account whose address is
 * an alias of theirs), and once (the first attribution stays).
 * Answers whether the user is now the affiliate's customer.
 */
export async function attributeCustomer(
  env: Env,
  userId: string,
  input: { affiliateID: string | null | undefined; visitorKey: string | null; source: AttributionSource },
  now = Date.now(),
): Promise<boolean> {
  if (!input.affiliateID || !input.visitorKey) return false;
  const db = database(env.DB);
  const affiliate = await affiliateByLinkId(db, input.affiliateID);
  // An affiliate is never their own customer, nor the customer of an account at an alias of their address (decision 079).
  if (!affiliate || (await accountsShareMailbox(env, affiliate.userId, userId))) return false;
  const click = await db.query.affiliateClicks.findFirst({
    where: and(eq(affiliateClicks.affiliateId, affiliate.affiliateId), eq(affiliateClicks.visitorKey, input.visitorKey)),
  });
  if (!click || !withinAttributionWindow(click.clickedAt, now)) return false;
  await db
    .insert(affiliateCustomers)
    .values({ userId, affiliateId: affiliate.affiliateId, clickedAt: click.clickedAt, attributedAt: now, source: input.source })
    .onConflictDoNothing();
  const row = await db.query.affiliateCustomers.findFirst({ where: eq(affiliateCustomers.userId, userId) });
  return row?.affiliateId === affiliate.affiliateId;
}

/** A charge a provider reports as paid. */
export interface PaidCharge {
  provider: "stripe" | "paypal" | "shopify";
  /** The provider's id of the charge (Stripe invoice in_..., PayPal sale id): a charge earns once. */
  chargeRef: string;
  userId: string;
  plan: Plan | null;
  amountCents: number;
  currency: string;
  chargedAt: number;
}

/**
 * The commission of a paid charge, when its customer was attributed to an
 * affiliate: 25%, none on lifetime deals. Idempotent on (provider, chargeRef).
 * Answers whether a commission row exists for the charge.
 */
export async function recordCommission(env: Env, charge: PaidCharge): Promise<boolean> {
  const earned = commissionCents({ amountCents: charge.amountCents, lifetime: charge.plan ? isLifetimePlan(charge.plan) : false });
  if (earned <= 0) return false;
  const db = database(env.DB);
  const customer = await db.query.affiliateCustomers.findFirst({ where: eq(affiliateCustomers.userId, charge.userId) });
  if (!customer) return false;
  // An attribution made before the mailbox rule (decision 079) earns nothing on the affiliate's own payments either.
  const affiliate = await db.query.affiliates.findFirst({ where: eq(affiliates.affiliateId, customer.affiliateId), columns: { userId: true } });
  if (affiliate && (await accountsShareMailbox(env, affiliate.userId, charge.userId))) return false;
  await db
    .insert(affiliateCommissions)
    .values({
      provider: charge.provider,
      chargeRef: charge.chargeRef,
      affiliateId: customer.affiliateId,
      customerUserId: charge.userId,
      planId: charge.plan?.id ?? null,
      amountCents: charge.amountCents,
      commissionCents: earned,
      currency: charge.currency.toLowerCase(),
      chargedAt: charge.chargedAt,
      payableAt: payableAt(charge.chargedAt),
    })
    .onConflictDoNothing();
  // The payment may have been refunded (or lost to a dispute) before its own event reached us.
  await settleCommissionTakenBack(env, charge.provider, charge.chargeRef);
  return true;
}

/**
 * What a refund or lost dispute takes back of a commission (decision 077): a negative row naming the charge
 * (`reversesChargeRef`), the same share of the commission as of the payment. When more of the payment is
 * taken back later (a second partial refund, then a dispute) another row takes the difference, so the rows
 * of a charge always add up to the share taken back, however often this runs. The negative row is payable
 * when the commission was: one not paid yet nets with it in the same payout, one paid already is taken off
 * the next payout. Answers the commission taken back now (cents, positive).
 */
export async function settleCommissionTakenBack(env: Env, provider: PaidCharge["provider"], chargeRef: string, now = Date.now()): Promise<number> {
  const [commission, lost] = await Promise.all([
    database(env.DB).query.affiliateCommissions.findFirst({
      where: and(eq(affiliateCommissions.provider, provider), eq(affiliateCommissions.chargeRef, chargeRef)),
      columns: { commissionCents: true, reversesChargeRef: true },
    }),
    paymentTakenBack(env, provider, chargeRef),
  ]);
  if (!commission || commission.reversesChargeRef !== null || lost.takenBackCents <= 0) return 0;
  const target = commissionTakenBack(commission.commissionCents, lost.paymentCents, lost.takenBackCents);
  // One statement: a second run (or one running beside it) finds the rows written and adds nothing; a run
  // that read less taken back than another already wrote adds nothing either.
  const row = await env.DB.prepare(
    `INSERT INTO affiliate_commissions (provider, charge_ref, affiliate_id, customer_user_id, plan_id, amount_cents, commission_cents, currency, charged_at, payable_at, reverses_charge_ref)
     SELECT c.provider, 'reversal:' || c.charge_ref || ':' || ?3, c.affiliate_id, c.customer_user_id, c.plan_id, -(?3 - r.amount), -(?4 - r.commission), c.currency, ?5, c.payable_at, c.charge_ref
     FROM affiliate_commissions AS c,
          (SELECT coalesce(-sum(amount_cents), 0) AS amount, coalesce(-sum(commission_cents), 0) AS commission
           FROM affiliate_commissions WHERE provider = ?1 AND reverses_charge_ref = ?2) AS r
     WHERE c.provider = ?1 AND c.charge_ref = ?2 AND ?3 > r.amount AND ?4 > r.commission
     ON CONFLICT DO NOTHING
     RETURNING commission_cents`,
  )
    .bind(provider, chargeRef, lost.takenBackCents, target, now)
    .first<{ commission_cents: number }>();
  return row ? -row.commission_cents : 0;
}

/** A Stripe invoice's plan: the price of its last charged line. */
async function planOfInvoice(env: Env, invoice: Stripe.Invoice): Promise<Plan | null> {
  const prices = invoice.lines.data.filter((line) => line.amount > 0).map((line) => line.pricing?.price_details?.price);
  const last = prices.at(-1);
  const priceId = typeof last === "string" ? last : last?.id;
  return priceId ? planByStripePrice(env, priceId) : null;
}

/** Whether an affiliate sent this user. */
async function isAttributed(env: Env, userId: string): Promise<boolean> {
  return (await database(env.DB).query.affiliateCustomers.findFirst({ where: eq(affiliateCustomers.userId, userId), columns: { userId: true } })) !== undefined;
}

/**
 * The webhook's hook (invoice.paid): only the invoices of customers an
 * affiliate sent are read again from Stripe and recorded. The event is
 * verified, so its customer is enough to skip everyone else's.
 */
export async function recordStripeInvoicePaid(env: Env, invoice: { id?: string | null; customer?: string | { id: string } | null }): Promise<boolean> {
  const customerId = typeof invoice.customer === "string" ? invoice.customer : invoice.customer?.id;
  const userId = customerId ? await userOfCustomer(env, "stripe", customerId) : null;
  if (!invoice.id || !userId) return false;
  return recordStripeInvoiceCommission(env, invoice.id, userId);
}

/**
 * The Stripe hook (invoice.paid, and the after-checkout call): re-reads the
 * invoice from Stripe and records its commission. `expectedUserId`, when
 * given, must be the invoice's customer.
 */
export async function recordStripeInvoiceCommission(env: Env, invoiceId: string, expectedUserId?: string): Promise<boolean> {
  if (expectedUserId && !(await isAttributed(env, expectedUserId))) return false;
  const invoice = await stripeClient(env).invoices.retrieve(invoiceId);
  if (invoice.status !== "paid" || !invoice.id) return false;
  const customerId = typeof invoice.customer === "string" ? invoice.customer : invoice.customer?.id;
  const userId = customerId ? await userOfCustomer(env, "stripe", customerId) : null;
  if (!userId || (expectedUserId && userId !== expectedUserId)) return false;
  const paidAt = invoice.status_transitions?.paid_at ?? invoice.created;
  return recordCommission(env, {
    provider: "stripe",
    chargeRef: invoice.id,
    userId,
    plan: await planOfInvoice(env, invoice),
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    chargedAt: paidAt * 1000,
  });
}

/** The PayPal hook (PAYMENT.SALE.COMPLETED of a subscription): the sale's amount, keyed on the sale id. */
export async function recordPayPalSaleCommission(env: Env, userId: string, plan: Plan, sale: Record<string, unknown>): Promise<boolean> {
  const paid = saleOf(sale);
  if (!paid) return false;
  return recordCommission(env, {
    provider: "paypal",
    chargeRef: paid.id,
    userId,
    plan,
    amountCents: Math.round(paid.total * 100),
    currency: paid.currency,
    chargedAt: paid.createdAt ?? Date.now(),
  });
}

/**
 * The Shopify hook (app_subscriptions/update): Shopify bills a recurring app
 * charge at the start of each interval (after any trial) and sends no charge
 * of its own, so an ACTIVE charge whose current interval, the one ending at
 * currentPeriodEnd, has begun was billed for it. One commission per charge
 * and interval, keyed "{charge gid}@{currentPeriodEnd}".
 */
/**
 * The billing interval of a Shopify recurring charge that Shopify has charged for: Shopify bills at
 * the start of each interval (after any free trial), so an ACTIVE charge whose current interval (the
 * one ending at `currentPeriodEnd`) has begun has been paid for. Answers its reference,
 * `{charge gid}@{currentPeriodEnd}` (one per interval), and when it began; null during a trial, for a
 * charge that is not active, or one of $0.
 */
export function shopifyBilledInterval(
  plan: Pick<Plan, "billingPeriod">,
  charge: { id: string; status: string; currentPeriodEnd: string | null; amount: number },
  now: number,
): { chargeRef: string; intervalStart: number } | null {
  if (charge.status.toUpperCase() !== "ACTIVE" || !charge.currentPeriodEnd || !(charge.amount > 0)) return null;
  const periodEnd = Date.parse(charge.currentPeriodEnd);
  if (!Number.isFinite(periodEnd)) return null;
  const intervalStart = plan.billingPeriod === "year" ? addMonths(periodEnd, -12) : periodEnd - 30 * 86_400_000;
  // Still in the free trial: nothing billed yet.
  if (intervalStart > now) return null;
  return { chargeRef: `${charge.id}@${charge.currentPeriodEnd}`, intervalStart };
}

/** 25% of a Shopify billing interval that has begun, once per interval (see shopifyBilledInterval). */
export async function recordShopifyIntervalCommission(
  env: Env,
  userId: string,
  plan: Plan,
  charge: { id: string; status: string; currentPeriodEnd: string | null; amount: number; currency: string },
  now = Date.now(),
): Promise<boolean> {
  const billed = shopifyBilledInterval(plan, charge, now);
  if (!billed) return false;
  return recordCommission(env, {
    provider: "shopify",
    chargeRef: billed.chargeRef,
    userId,
    plan,
    amountCents: Math.round(charge.amount * 100),
    currency: charge.currency,
    chargedAt: billed.intervalStart,
  });
}

const NO_SUCH_SESSION = "No such checkout session";

/**
 * POST /api/affiliate/recordAffiliateSale: after checkout the browser asks for
 * its sale to be recorded, in case Stripe's webhook came first (before the
 * customer was attributed at checkout). The session is read from Stripe and
 * must be the caller's and paid; the invoice it paid is recorded as the
 * webhook would. Nothing the browser says about amounts is used.
 */
export async function recordAffiliateSale(env: Env, user: User, input: { session_id: string }): Promise<{ recorded: boolean }> {
  let session: Stripe.Checkout.Session;
  try {
    session = await stripeClient(env).checkout.sessions.retrieve(input.session_id, { expand: ["subscription"] });
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) throw new ServiceError(404, NO_SUCH_SESSION);
    throw error;
  }
  if (session.client_reference_id !== user.id) throw new ServiceError(404, NO_SUCH_SESSION);
  return { recorded: await recordCheckoutSessionCommission(env, user.id, session) };
}

/** The commission of the invoice a paid subscription checkout session paid (lifetime purchases earn none). */
export async function recordCheckoutSessionCommission(env: Env, userId: string, session: Stripe.Checkout.Session): Promise<boolean> {
  if (session.status !== "complete" || session.mode !== "subscription" || !session.subscription) return false;
  const subscription = typeof session.subscription === "string" ? await stripeClient(env).subscriptions.retrieve(session.subscription) : session.subscription;
  const invoice =
    typeof session.invoice === "string"
      ? session.invoice
      : (session.invoice?.id ?? (typeof subscription.latest_invoice === "string" ? subscription.latest_invoice : subscription.latest_invoice?.id));
  if (!invoice) return false;
  return recordStripeInvoiceCommission(env, invoice, userId);
}

/**
 * The checkout hook (activateStripeSubscription with an affiliateID): the
 * customer is attributed (within 30 days of this browser's click), then the
 * first charge is recorded in case its webhook came first.
 */
export async function affiliateCheckout(
  env: Env,
  userId: string,
  input: { affiliateID: string | null | undefined; visitorKey: string | null },
  session: Stripe.Checkout.Session,
): Promise<void> {
  if (!input.affiliateID) return;
  if (await attributeCustomer(env, userId, { ...input, source: "checkout" })) await recordCheckoutSessionCommission(env, userId, session);
}

// ---------------------------------------------------------------------------
// The affiliate's side

async function profileOf(db: Db, userId: string) {
  return (await db.query.affiliates.findFirst({ where: eq(affiliates.userId, userId) })) ?? null;
}

export const AFFILIATE_ID_TAKEN = "This affiliate id is taken. Please choose another.";

/** POST /api/affiliate/createAffiliateProfile: joins the programme (once); answers the profile. */
export async function createAffiliateProfile(env: Env, user: User, input: v.InferOutput<typeof CreateAffiliateProfileBody>) {
  const db = database(env.DB);
  const existing = await profileOf(db, user.id);
  if (existing) return { affiliateProfile: { affiliateID: existing.affiliateId, wiseTag: existing.wiseTag } };
  const fromHandle = user.handle
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, "")
    .slice(0, 32);
  const candidates = input.affiliateID
    ? [input.affiliateID]
    : [
        fromHandle.length >= 3 ? fromHandle : `pg${fromHandle}`,
        ...Array.from({ length: 3 }, () => `${fromHandle.slice(0, 30)}${Math.floor(1000 + Math.random() * 9000)}`),
      ];
  for (const affiliateId of candidates) {
    const inserted = await db
      .insert(affiliates)
      .values({ userId: user.id, affiliateId })
      .onConflictDoNothing()
      .returning({ affiliateId: affiliates.affiliateId });
    if (inserted.length) return { affiliateProfile: { affiliateID: affiliateId, wiseTag: null } };
    const mine = await profileOf(db, user.id);
    // Two tabs joining at once: the other one won.
    if (mine) return { affiliateProfile: { affiliateID: mine.affiliateId, wiseTag: mine.wiseTag } };
  }
  throw new ServiceError(409, AFFILIATE_ID_TAKEN, "affiliateID");
}

export const NOT_AN_AFFILIATE = "Join the affiliate programme first.";

/** POST /api/affiliate/saveWiseTag */
export async function saveWiseTag(env: Env, user: User, wiseTag: string) {
  const db = database(env.DB);
  const updated = await db.update(affiliates).set({ wiseTag }).where(eq(affiliates.userId, user.id)).returning({ affiliateId: affiliates.affiliateId });
  if (!updated.length) throw new ServiceError(404, NOT_AN_AFFILIATE);
  return { message: "Your Wise tag has been saved.", affiliateProfile: { affiliateID: updated[0].affiliateId, wiseTag } };
}

const monthOf = (column: unknown) => sql<string>`strftime('%Y-%m', ${column} / 1000, 'unixepoch')`;

/** GET /api/affiliate/getAffiliateData: the caller's own figures only. */
export async function affiliateData(env: Env, user: User, now = Date.now()): Promise<AffiliateData> {
  const db = database(env.DB);
  const profile = await profileOf(db, user.id);
  const empty: AffiliateData = {
    affiliateProfile: null,
    link: null,
    clicks: 0,
    signUps: 0,
    payingCustomers: 0,
    sales: 0,
    commission: { pendingCents: 0, payableCents: 0, paidCents: 0 },
    nextPayoutDate: null,
    months: lastMonths(now, 6).map((month) => ({ month, clicks: 0, signUps: 0 })),
    recentSales: [],
  };
  if (!profile) return empty;
  const id = profile.affiliateId;
  const months = lastMonths(now, 6);
  const since = Date.UTC(Number(months[0].slice(0, 4)), Number(months[0].slice(5)) - 1, 1);
  const [clicks, signUps, commissions, clickMonths, signUpMonths] = await Promise.all([
    db.select({ count: sql<number>`count(*)` }).from(affiliateClicks).where(eq(affiliateClicks.affiliateId, id)),
    db.select({ count: sql<number>`count(*)` }).from(affiliateCustomers).where(eq(affiliateCustomers.affiliateId, id)),
    db.select().from(affiliateCommissions).where(eq(affiliateCommissions.affiliateId, id)).orderBy(desc(affiliateCommissions.chargedAt)),
    db
      .select({ month: monthOf(affiliateClicks.clickedAt), count: sql<number>`count(*)` })
      .from(affiliateClicks)
      .where(and(eq(affiliateClicks.affiliateId, id), gte(affiliateClicks.clickedAt, since)))
      .groupBy(monthOf(affiliateClicks.clickedAt)),
    db
      .select({ month: monthOf(affiliateCustomers.attributedAt), count: sql<number>`count(*)` })
      .from(affiliateCustomers)
      .where(and(eq(affiliateCustomers.affiliateId, id), gte(affiliateCustomers.attributedAt, since)))
      .groupBy(monthOf(affiliateCustomers.attributedAt)),
  ]);
  const facts = commissions.map((row) => ({ commissionCents: row.commissionCents, payableAt: row.payableAt, paid: row.payoutId !== null }));
  // Refunds and lost disputes are negative rows beside their sale (decision 077): they count in the sums, not as sales.
  const sales = commissions.filter((row) => row.reversesChargeRef === null);
  const statusOf = (row: (typeof commissions)[number]): CommissionStatus => (row.payoutId !== null ? "paid" : row.payableAt <= now ? "payable" : "pending");
  return {
    affiliateProfile: { affiliateID: id, wiseTag: profile.wiseTag },
    link: `${new URL(env.APP_URL).origin}/?pgref=${encodeURIComponent(id)}`,
    clicks: clicks[0]?.count ?? 0,
    signUps: signUps[0]?.count ?? 0,
    payingCustomers: new Set(sales.map((row) => row.customerUserId)).size,
    sales: sales.length,
    commission: commissionTotals(facts, now),
    nextPayoutDate: nextPayoutDay(facts, now),
    months: months.map((month) => ({
      month,
      clicks: clickMonths.find((row) => row.month === month)?.count ?? 0,
      signUps: signUpMonths.find((row) => row.month === month)?.count ?? 0,
    })),
    recentSales: commissions.slice(0, 20).map((row) => ({
      kind: row.reversesChargeRef === null ? ("sale" as const) : ("refund" as const),
      chargedAt: row.chargedAt,
      planId: row.planId,
      amountCents: row.amountCents,
      commissionCents: row.commissionCents,
      status: statusOf(row),
      payableAt: row.payableAt,
    })),
  };
}

// ---------------------------------------------------------------------------
// Admin: payouts (docs/decisions/036)

export const ADMINS_ONLY = "Only admins can see affiliate payouts.";

function requireAdmin(user: User) {
  if (user.role !== "admin") throw new ServiceError(403, ADMINS_ONLY);
}

/** GET /api/admin/affiliatePayouts: affiliates with at least $100 payable now, largest first. */
export async function affiliatePayoutReport(env: Env, admin: User, now = Date.now()): Promise<AffiliatePayoutReport> {
  requireAdmin(admin);
  const db = database(env.DB);
  const rows = await db
    .select({
      affiliateID: affiliateCommissions.affiliateId,
      payableCents: sql<number>`sum(${affiliateCommissions.commissionCents})`,
      refundedCents: sql<number>`coalesce(-sum(CASE WHEN ${affiliateCommissions.reversesChargeRef} IS NOT NULL THEN ${affiliateCommissions.commissionCents} END), 0)`,
      sales: sql<number>`count(${affiliateCommissions.reversesChargeRef} IS NULL OR NULL)`,
      wiseTag: affiliates.wiseTag,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(affiliateCommissions)
    .innerJoin(affiliates, eq(affiliates.affiliateId, affiliateCommissions.affiliateId))
    .innerJoin(users, eq(users.id, affiliates.userId))
    .where(and(isNull(affiliateCommissions.payoutId), lte(affiliateCommissions.payableAt, now)))
    .groupBy(affiliateCommissions.affiliateId)
    .orderBy(desc(sql`sum(${affiliateCommissions.commissionCents})`));
  return {
    payBy: payoutDayOnOrAfter(now),
    payouts: rows
      .filter((row) => payoutDue(row.payableCents))
      .map((row) => ({
        affiliateID: row.affiliateID,
        email: row.email,
        name: `${row.firstName} ${row.lastName}`.trim(),
        wiseTag: row.wiseTag,
        payableCents: row.payableCents,
        refundedCents: row.refundedCents,
        sales: row.sales,
      })),
  };
}

export const PAYOUT_CHANGED = "The payable amount has changed since the report was loaded. Please reload it and check again.";

/**
 * POST /api/admin/affiliatePayouts/markPaid: the admin sent the payout shown
 * (amountCents): the payable commissions are marked paid by one payout row.
 * Refused (409, nothing written) when the amount payable now is another one
 * or under $100, so a payout is never recorded twice or for other rows.
 */
export async function markAffiliatePayoutPaid(env: Env, admin: User, input: v.InferOutput<typeof MarkAffiliatePayoutPaidBody>, now = Date.now()) {
  requireAdmin(admin);
  const db = database(env.DB);
  const affiliate = await db.query.affiliates.findFirst({ where: eq(affiliates.affiliateId, input.affiliateID) });
  if (!affiliate) throw new ServiceError(404, "No such affiliate");
  const due = await db
    .select({ provider: affiliateCommissions.provider, chargeRef: affiliateCommissions.chargeRef, commissionCents: affiliateCommissions.commissionCents })
    .from(affiliateCommissions)
    .where(and(eq(affiliateCommissions.affiliateId, affiliate.affiliateId), isNull(affiliateCommissions.payoutId), lte(affiliateCommissions.payableAt, now)));
  const total = due.reduce((sum, row) => sum + row.commissionCents, 0);
  if (total !== input.amountCents || !payoutDue(total)) throw new ServiceError(409, PAYOUT_CHANGED);
  const payoutId = crypto.randomUUID();
  const refs = due.map((row) => `${row.provider}:${row.chargeRef}`);
  const paid = (amountCents: number) => ({ payoutId, amountCents, wiseTag: affiliate.wiseTag, commissions: refs.length });
  const [, updated] = await db.batch([
    db
      .insert(affiliatePayouts)
      .values({ id: payoutId, affiliateId: affiliate.affiliateId, amountCents: total, wiseTag: affiliate.wiseTag, paidAt: now, paidBy: admin.id }),
    db
      .update(affiliateCommissions)
      .set({ payoutId })
      .where(and(isNull(affiliateCommissions.payoutId), inArray(sql`${affiliateCommissions.provider} || ':' || ${affiliateCommissions.chargeRef}`, refs)))
      .returning({ commissionCents: affiliateCommissions.commissionCents }),
    // Written only when the update above settled commissions (the audit log of issue 20).
    auditStatementIfChanged(env, actorOf(admin), {
      action: "payout.markPaid",
      targetKind: "affiliate",
      targetId: affiliate.affiliateId,
      summary: `Marked a payout of ${usdFromCents(total)} to ${affiliate.affiliateId} paid.`,
      before: { unpaidCents: total },
      after: paid(total),
    }),
  ]);
  const settled = updated.reduce((sum, row) => sum + row.commissionCents, 0);
  if (settled !== total) {
    // Another admin marked some of these rows paid at the same moment: this payout covers only what it settled.
    const audit = auditStatement(env, actorOf(admin), {
      action: "payout.adjust",
      targetKind: "affiliate",
      targetId: affiliate.affiliateId,
      summary: `The payout to ${affiliate.affiliateId} covers ${usdFromCents(settled)}, not ${usdFromCents(total)}: another admin paid the rest at the same moment.`,
      before: paid(total),
      after: settled === 0 ? null : paid(settled),
    });
    if (settled === 0) await db.batch([db.delete(affiliatePayouts).where(eq(affiliatePayouts.id, payoutId)), audit]);
    else await db.batch([db.update(affiliatePayouts).set({ amountCents: settled }).where(eq(affiliatePayouts.id, payoutId)), audit]);
    throw new ServiceError(409, PAYOUT_CHANGED);
  }
  return {
    message: `Payout of ${usdFromCents(total)} to ${affiliate.affiliateId} marked paid.`,
    payout: { id: payoutId, affiliateID: affiliate.affiliateId, amountCents: total, paidAt: now },
  };
}
