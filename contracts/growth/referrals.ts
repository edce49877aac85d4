import * as v from "valibot";
import type { ProfileUpdates } from "../billing/billing.ts";
import { body, Email } from "../fields.ts";

/** The referral programme's calls (spec section 7, Referral). */

export const INVITE_SENT_MESSAGE = "Gift sent successfully!";
export const INVITE_FAILED_MESSAGE = "Failed to send email. Please try again.";
export const REFERRAL_RECORDED_MESSAGE = "Referral recorded successfully";
export const REFERRAL_NOT_RECORDED_MESSAGE = "Unable to record referral";

/** A referral code as users.referralCode holds it (8 letters and digits); read case-insensitively. */
export const ReferralCode = (field: string) =>
  v.pipe(
    v.string(`${field} is required`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.toUpperCase(),
    v.regex(/^[A-Z0-9]{6,16}$/, `${field} must be a referral code of 6 to 16 letters and digits`),
  );

/** GET /api/referrals/getReferralProfile/{code} */
export const ReferralCodeParam = v.object({ code: ReferralCode("code") });

/** POST /api/referrals/sendReferralInvite */
export const SendReferralInviteBody = body({ email: Email, referralCode: ReferralCode("referralCode") });

/** POST /api/referrals/recordReferral */
export const RecordReferralBody = body({ referralCode: ReferralCode("referralCode") });

/** GET /api/referrals/getReferralCode */
export interface ReferralCodeAnswer {
  referralCode: string;
}

/** GET /api/referrals/getReferralProfile/{code}: what the public /referral page may show of a referrer. */
export interface ReferralProfile {
  referralCode: string;
  firstName: string;
  /** Referred users who went on to pay: the referrer earned 16.99 for each. */
  referredSales: number;
}

/** POST /api/referrals/recordReferral */
export interface RecordReferralAnswer {
  message: typeof REFERRAL_RECORDED_MESSAGE;
  referrerFirstName: string;
  planId: string;
  planName: string;
  /** ISO: when the free month ends. */
  freeUntil: string;
  profileUpdates: ProfileUpdates;
}
