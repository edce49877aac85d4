import * as v from "valibot";

/** The affiliate programme's calls (spec section 7, Referral, affiliate; issue 16). */

/** An affiliate id as a link carries it (pgref): any text; ids that match no affiliate are ignored. */
const linkAffiliateId = v.pipe(
  v.string("affiliateID is required"),
  v.trim(),
  v.nonEmpty("affiliateID is required"),
  v.maxLength(100, "affiliateID is too long"),
);

/** POST /api/affiliate/incrementAffiliateClicks */
export const IncrementAffiliateClicksBody = v.object({ affiliateID: linkAffiliateId });

/** POST /api/affiliate/setUserAffiliateID */
export const SetUserAffiliateIdBody = v.object({ affiliateID: linkAffiliateId });

/** POST /api/affiliate/recordAffiliateSale: the checkout session the caller came back from. */
export const RecordAffiliateSaleBody = v.object({
  session_id: v.pipe(v.string("session_id is required"), v.trim(), v.nonEmpty("session_id is required"), v.maxLength(255, "session_id is too long")),
});

/** A Wise tag: @ and 2-40 letters, digits, dots, dashes or underscores (the @ may be left out). */
export const WISE_TAG_MESSAGE = "wiseTag must be a Wise tag such as @janedoe";
export const WiseTag = v.pipe(
  v.string("wiseTag is required"),
  v.trim(),
  v.nonEmpty("wiseTag is required"),
  v.regex(/^@?[A-Za-z0-9._-]{2,40}$/, WISE_TAG_MESSAGE),
  v.transform((tag) => (tag.startsWith("@") ? tag : `@${tag}`)),
);

/** POST /api/affiliate/saveWiseTag */
export const SaveWiseTagBody = v.object({ wiseTag: WiseTag });

/** The affiliate id someone picks: 3-40 lower-case letters, digits, - or _, starting with a letter or digit. */
export const AFFILIATE_ID_MESSAGE = "affiliateID must be 3-40 lower-case letters, digits, - or _";
export const NewAffiliateId = v.pipe(
  v.string("affiliateID must be text"),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^[a-z0-9][a-z0-9_-]{2,39}$/, AFFILIATE_ID_MESSAGE),
);

/** POST /api/affiliate/createAffiliateProfile: joins the programme; without an id, one is made from the handle. */
export const CreateAffiliateProfileBody = v.object({ affiliateID: v.optional(NewAffiliateId) });

/** POST /api/admin/affiliatePayouts/markPaid: the payout of the amount the report showed. */
export const MarkAffiliatePayoutPaidBody = v.object({
  affiliateID: NewAffiliateId,
  amountCents: v.pipe(v.number("amountCents must be a number"), v.integer("amountCents must be whole cents"), v.minValue(1, "amountCents must be positive")),
});

export interface AffiliateProfile {
  affiliateID: string;
  wiseTag: string | null;
}

export type CommissionStatus = "pending" | "payable" | "paid";

export interface AffiliateSale {
  /** A sale, or a refund (or lost dispute) taking back a sale's commission: negative amounts (decision 077). */
  kind: "sale" | "refund";
  /** ms since the epoch: when it was charged, or refunded */
  chargedAt: number;
  planId: string | null;
  amountCents: number;
  commissionCents: number;
  status: CommissionStatus;
  /** when the hold ends (ms) */
  payableAt: number;
}

/** GET /api/affiliate/getAffiliateData */
export interface AffiliateData {
  /** Null until the user joins the programme. */
  affiliateProfile: AffiliateProfile | null;
  /** The link to share (with pgref). */
  link: string | null;
  clicks: number;
  signUps: number;
  payingCustomers: number;
  sales: number;
  commission: { pendingCents: number; payableCents: number; paidCents: number };
  /** The next payout day (ms, the 5th at 00:00 UTC), or null until $100 will be payable. */
  nextPayoutDate: number | null;
  /** Clicks and sign-ups per month (UTC), oldest first, the last 6 months. */
  months: { month: string; clicks: number; signUps: number }[];
  /** The latest sales, newest first (up to 20). */
  recentSales: AffiliateSale[];
}

/** GET /api/admin/affiliatePayouts: affiliates owed a payout now. */
export interface AffiliatePayoutRow {
  affiliateID: string;
  email: string;
  name: string;
  wiseTag: string | null;
  /** Net: refunds and lost disputes taken off (decision 077). */
  payableCents: number;
  /** The commission refunds and lost disputes took off this payout (positive cents). */
  refundedCents: number;
  sales: number;
}

export interface AffiliatePayoutReport {
  payouts: AffiliatePayoutRow[];
  /** The payout day these are due by (ms). */
  payBy: number;
}
