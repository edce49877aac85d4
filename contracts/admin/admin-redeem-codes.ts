import * as v from "valibot";
import { TimeZoneName } from "../fields.ts";
import { REDEEM_CODE_ALPHABET, normalizeRedeemCode } from "../billing/plans-api.ts";

/** The admin's redeem-code batches (issue 20, decision 053). Creating a batch: CreateRedeemCodesBody in plans-api.ts. */

export const REDEEM_CODES_ADMINS_ONLY = "Only admins can create redeem codes.";

export const RedeemBatchIdParam = v.object({
  batchId: v.pipe(v.string("batchId is required"), v.regex(/^[A-Za-z0-9-]{1,64}$/, "batchId must name a batch of codes")),
});

export const RedeemCodeParam = v.object({
  code: v.pipe(
    v.string("code is required"),
    v.maxLength(64, "code is too long"),
    v.transform(normalizeRedeemCode),
    v.regex(new RegExp(`^([${REDEEM_CODE_ALPHABET}]{4}-){3}[${REDEEM_CODE_ALPHABET}]{4}$`), "code must be a redeem code such as ABCD-EFGH-JKLM-NPQR"),
  ),
});

/** GET /api/admin/redeemCodeBatches/:batchId/csv?timeZone=Europe/Paris: times in the CSV are in the admin's zone. */
export const RedeemCsvQuery = v.object({ timeZone: v.optional(TimeZoneName) });

/** A batch as the admin's list shows it. Times are ms since 1970 (the page shows them in the admin's zone). */
export interface RedeemBatchSummary {
  batchId: string;
  planId: string;
  planName: string;
  /** Months each code gives; null: the plan for good. */
  months: number | null;
  note: string;
  count: number;
  used: number;
  /** Codes disabled one by one (or all, with the batch). */
  disabledCodes: number;
  expiresAt: number | null;
  disabledAt: number | null;
  createdAt: number;
  createdBy: string | null;
}

export interface RedeemCodeRow {
  code: string;
  status: "unused" | "used" | "disabled" | "expired";
  redeemedAt: number | null;
  /** Who redeemed it: their e-mail and name (null when unused, or the account is gone). */
  redeemedBy: { email: string; name: string } | null;
  disabledAt: number | null;
}

export interface RedeemBatchDetail extends RedeemBatchSummary {
  codes: RedeemCodeRow[];
}
