import * as v from "valibot";
import type { ProfileUpdates } from "./billing.ts";
import { body, PlanId, plainLine, TimeZoneName } from "../fields.ts";

/** Plans, lifetime purchases and redeem codes (spec section 7, Subscriptions and payments). */

/** A plan as GET /api/subscriptions/getPlans and /getPlan/{id} answer it. */
export interface PlanInfo {
  planId: string;
  planName: string;
  tier: string;
  /** "none" (Free), "month", "year" or "once" (Lifetime). */
  billingPeriod: string;
  /** USD */
  amount: number;
  creditsPerMonth: number;
  freeTrialDays: number;
  planOrder: number;
  stripePriceID: string | null;
}

/** A lifetime plan (spec section 3, Lifetime plan). */
export interface LifetimePlan {
  planId: string;
  planName: string;
  previousPrice: number;
  amount: number;
  features: string[];
  planImage: string;
  paymentPeriod: string;
  planDuration: string;
  stripePriceID: string;
  freeTrialDays: number;
  planOrder: number;
}

/** GET /api/subscriptions/getPlan/{id} */
export const PlanIdParam = v.object({ id: PlanId("id") });

/** POST /api/subscriptions/activateLifetimePurchase -> {profileUpdates, paymentDetails} */
export const ActivateLifetimePurchaseBody = body({
  session_id: v.pipe(
    v.string("session_id is required"),
    v.trim(),
    v.nonEmpty("session_id is required"),
    v.maxLength(255, "session_id is too long"),
    v.regex(/^cs_[A-Za-z0-9_]+$/, "session_id must be a Stripe checkout session id (cs_...)"),
  ),
  planId: PlanId("planId"),
});

/** Redeem codes look like ABCD-EFGH-JKLM-NPQR; spaces, dashes and case are forgiven. */
export const REDEEM_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function normalizeRedeemCode(text: string): string {
  const compact = text.toUpperCase().replace(/[\s-]+/g, "");
  return compact.length === 16 ? compact.match(/.{4}/g)!.join("-") : compact;
}

const RedemptionCode = v.pipe(
  v.string("redemptionCode is required"),
  v.trim(),
  v.nonEmpty("redemptionCode is required"),
  v.maxLength(64, "redemptionCode is too long"),
  v.transform(normalizeRedeemCode),
  v.regex(new RegExp(`^([${REDEEM_CODE_ALPHABET}]{4}-){3}[${REDEEM_CODE_ALPHABET}]{4}$`), "This is not a valid code. Codes look like ABCD-EFGH-JKLM-NPQR."),
);

/** POST /api/subscriptions/redeemPurchaseCode -> {message, profileUpdates, planId, planName, months} */
export const RedeemPurchaseCodeBody = body({ redemptionCode: RedemptionCode });

/**
 * GET /api/subscriptions/planChangePreview?planId=lifetime (or ?redemptionCode=...)&timeZone=Europe/Paris: what
 * taking that plan (or redeeming that code) would do to the caller's current plan and this month's credits, before
 * any payment. One of planId and redemptionCode.
 */
export const PlanChangePreviewQuery = v.object({
  planId: v.optional(PlanId("planId")),
  redemptionCode: v.optional(RedemptionCode),
  timeZone: v.optional(TimeZoneName),
});

/** What a plan change would do (decision 082), computed on the server by the rules that will apply. */
export interface PlanChangePreview {
  planId: string;
  planName: string;
  creditsPerMonth: number;
  /** The plan the caller has now, and how it reads. */
  current: { planId: string; planName: string; creditsPerMonth: number; kind: "free" | "subscription" | "lifetime" | "redeemed" | "gift" };
  /** Credits used this month that still count after the change, and what would be left this month. */
  usedThisMonth: number;
  remainingThisMonth: number;
  /** All of it in plain words, dates in the caller's time zone. */
  message: string;
  /** Whether to ask before going on: the change ends or replaces a plan, or credits used this month carry over. */
  confirm: boolean;
}

/** POST /api/admin/redeemCodes -> {codes, batchId} (admins only) */
export const CreateRedeemCodesBody = body({
  planId: PlanId("planId"),
  count: v.pipe(
    v.number("count must be a number"),
    v.integer("count must be a whole number"),
    v.minValue(1, "count must be at least 1"),
    v.maxValue(500, "count must be at most 500"),
  ),
  months: v.optional(
    v.nullable(
      v.pipe(
        v.number("months must be a number"),
        v.integer("months must be a whole number"),
        v.minValue(1, "months must be at least 1"),
        v.maxValue(60, "months must be at most 60"),
      ),
    ),
  ),
  /** The last moment (ms since 1970) the codes can be redeemed; none: no end. */
  expiresAt: v.optional(
    v.nullable(v.pipe(v.number("expiresAt must be a time"), v.integer("expiresAt must be a time"), v.minValue(0, "expiresAt must be a time"))),
  ),
  /** What the batch is for, for the admins (e.g. "Black Friday giveaway"). */
  note: v.optional(v.pipe(v.string("note must be text"), plainLine, v.trim(), v.maxLength(120, "note is too long"))),
});

export interface RedeemResult {
  message: string;
  planId: string;
  planName: string;
  /** Months the code gave; null: the plan for good. */
  months: number | null;
  profileUpdates: ProfileUpdates;
}

export const REDEEM_ERROR_MESSAGE = "There was an error redeeming your code.";
/** The spec gives no text for these (the page shows the server's text): decision 053. */
export const CODE_DISABLED_MESSAGE = "This code is no longer valid.";
export const CODE_EXPIRED_MESSAGE = "This code has expired.";
/**
 * A code that does not exist and a code someone else used answer the same (404), so guessing learns nothing
 * about which codes were ever made (decision 083). Only the person who redeemed a code is told so.
 */
export const CODE_NOT_VALID_MESSAGE = "This code is not valid: it does not exist or has already been used. Please check it and try again.";
export const CODE_ALREADY_YOURS_MESSAGE = "You have already redeemed this code.";
export const CODE_ATTEMPTS_MESSAGE = (minutes: string) => `You have tried too many codes that are not valid. Please try again in ${minutes}.`;

/** GET /api/subscriptions/current: the plan record that decides the caller's plan, or null on Free. */
/** A plan that ended because its payment was taken back: refunded in full, or lost to a dispute (decision 077). */
export interface PlanTakenBack {
  planName: string;
  reason: "refunded" | "disputed";
  /** ISO: when it was taken back. */
  at: string;
}

/** GET /api/subscriptions/current */
export interface CurrentSubscriptionAnswer {
  subscription: CurrentSubscription | null;
  /** Set while the record deciding the plan is one taken back (null otherwise). */
  takenBack: PlanTakenBack | null;
}

export interface CurrentSubscription {
  provider: "stripe" | "paypal" | "shopify" | "code" | "referral";
  kind: "subscription" | "lifetime";
  /** The provider's subscription id (Stripe sub_...); null for a purchase, a code or a referral's free month. */
  subscriptionID: string | null;
  planId: string;
  planName: string;
  /** The provider's status, e.g. active, trialing, past_due, canceled. */
  status: string;
  cancelAtPeriodEnd: boolean;
  /** ISO; null for a lifetime plan. */
  periodEnd: string | null;
  trialEnd: string | null;
}
