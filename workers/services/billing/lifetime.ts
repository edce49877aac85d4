import { asc, eq } from "drizzle-orm";
import type * as v from "valibot";
import type { PaymentDetails, ProfileUpdates } from "../../../contracts/billing/billing.ts";
import type { ActivateLifetimePurchaseBody, CurrentSubscriptionAnswer, LifetimePlan, PlanInfo } from "../../../contracts/billing/plans-api.ts";
import { database } from "../../db/client.ts";
import { plans } from "../../db/schema.ts";
import { LIFETIME_PLAN_DISPLAY } from "../../db/seed-data.ts";
import { currentRecord, isLifetimePlan, isRecordLive, isRecordRevoked, newestFirst } from "../../domain/plans.ts";
import type { Env } from "../../env.ts";
import { Stripe, stripeClient } from "../../integrations/stripe.ts";
import type { User } from "../accounts/accounts.ts";
import { planRecordsOf } from "./billing.ts";
import { planById, type Plan } from "./plan-lookups.ts";
import { ServiceError } from "../core/errors.ts";
import { activateStripeSubscription, PAYMENT_UNAVAILABLE } from "./stripe-billing.ts";

/**
 * The plans the pricing and lifetime pages show, and the activation of a
 * lifetime purchase paid through Stripe Checkout (spec section 4, Lifetime
 * purchase). The payment itself is applied by the Stripe activation logic.
 */

export function planInfo(plan: Plan): PlanInfo {
  return {
    planId: plan.id,
    planName: plan.name,
    tier: plan.tier,
    billingPeriod: plan.billingPeriod,
    amount: plan.price,
    creditsPerMonth: plan.creditsPerMonth,
    freeTrialDays: plan.freeTrialDays,
    planOrder: plan.planOrder,
    stripePriceID: plan.stripePriceId,
  };
}

/** GET /api/subscriptions/getPlans: every plan, in plan order. */
export async function listPlans(env: Env): Promise<PlanInfo[]> {
  const rows = await database(env.DB).select().from(plans).orderBy(asc(plans.planOrder), asc(plans.price));
  return rows.map(planInfo);
}

/** GET /api/subscriptions/getPlan/{id} */
export async function getPlan(env: Env, id: string): Promise<PlanInfo> {
  const plan = await planById(env, id);
  if (!plan) throw new ServiceError(404, "No such plan");
  return planInfo(plan);
}

/** GET /api/subscriptions/getLifetimePlans: lifetime plans that can be bought through Stripe. */
export async function lifetimePlans(env: Env): Promise<LifetimePlan[]> {
  const rows = await database(env.DB).select().from(plans).where(eq(plans.billingPeriod, "once")).orderBy(asc(plans.planOrder));
  return rows.flatMap((plan) => {
    const display = LIFETIME_PLAN_DISPLAY[plan.id];
    if (!plan.stripePriceId) return [];
    return [
      {
        planId: plan.id,
        planName: plan.name,
        previousPrice: display?.previousPrice ?? plan.price,
        amount: plan.price,
        features: display?.features ?? [`${plan.creditsPerMonth} pin credits every month`, "Access to all features"],
        planImage: display?.planImage ?? "/favicon.svg",
        paymentPeriod: display?.paymentPeriod ?? "once",
        planDuration: display?.planDuration ?? "lifetime",
        stripePriceID: plan.stripePriceId,
        freeTrialDays: plan.freeTrialDays,
        planOrder: plan.planOrder,
      },
    ];
  });
}

/**
 * POST /api/subscriptions/activateLifetimePurchase {session_id, planId}: the
 * user came back from paying for a lifetime plan. The checkout session must be
 * this user's, a once-off payment, and for the plan named; then the Stripe
 * activation applies it (idempotent: activating again changes nothing).
 */
export async function activateLifetimePurchase(
  env: Env,
  user: User,
  input: v.InferOutput<typeof ActivateLifetimePurchaseBody>,
): Promise<{ profileUpdates: ProfileUpdates; paymentDetails: PaymentDetails }> {
  const plan = await planById(env, input.planId);
  if (!plan) throw new ServiceError(404, "No such plan");
  if (!isLifetimePlan(plan)) throw new ServiceError(400, "planId must be a lifetime plan", "planId");
  let session: Stripe.Checkout.Session;
  try {
    session = await stripeClient(env).checkout.sessions.retrieve(input.session_id);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) throw new ServiceError(404, "No such checkout session");
    if (error instanceof Stripe.errors.StripeError) {
      console.warn("Stripe unavailable: reading a lifetime checkout session", error.message);
      throw new ServiceError(502, PAYMENT_UNAVAILABLE);
    }
    throw error;
  }
  if (session.client_reference_id !== user.id) throw new ServiceError(404, "No such checkout session");
  if (session.mode !== "payment" || session.metadata?.planId !== plan.id) {
    throw new ServiceError(400, `This checkout session is not a purchase of the ${plan.name} plan.`, "session_id");
  }
  return activateStripeSubscription(env, user, { session_id: input.session_id, affiliateID: null });
}

/**
 * GET /api/subscriptions/current: the caller's record that decides their plan (the newest live one), or null;
 * and, when that record's payment was taken back (decision 077), which plan ended, why and when.
 */
export async function currentSubscriptionAnswer(env: Env, userId: string, now = Date.now()): Promise<CurrentSubscriptionAnswer> {
  const records = await planRecordsOf(env, userId);
  // The newest record was taken back: the user is told, whatever remains (a referral's free month, say).
  const [newest] = newestFirst(records);
  const takenBack =
    newest && isRecordRevoked(newest) && newest.revokedReason
      ? {
          planName: (await planById(env, newest.planId))?.name ?? newest.planId,
          reason: newest.revokedReason,
          at: new Date(newest.revokedAt ?? newest.updatedAt).toISOString(),
        }
      : null;
  const record = currentRecord(records, now);
  // A suspended (PayPal) subscription gives no plan but is still there to re-activate.
  if (!record || (!isRecordLive(record, now) && record.status !== "suspended")) return { subscription: null, takenBack };
  const planName = (await planById(env, record.planId))?.name ?? record.planId;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    subscription: {
      provider: record.provider,
      kind: record.kind,
      subscriptionID: record.kind === "subscription" && record.provider !== "code" && record.provider !== "referral" ? record.providerRef : null,
      planId: record.planId,
      planName,
      status: record.status,
      cancelAtPeriodEnd: record.cancelAtPeriodEnd,
      periodEnd: iso(record.periodEnd),
      trialEnd: iso(record.trialEnd),
    },
    takenBack,
  };
}
