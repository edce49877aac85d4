import type { AffiliateData, AffiliatePayoutReport, AffiliateProfile } from "../../../contracts/growth/affiliate.ts";
import { apiJson } from "../../lib/api-client.ts";

/** The calls of /affiliate and of the admin page's payout section (issue 16). */
export const getAffiliateData = () => apiJson<AffiliateData>("/api/affiliate/getAffiliateData");
export const createAffiliateProfile = (affiliateID: string | undefined) =>
  apiJson<{ affiliateProfile: AffiliateProfile }>("/api/affiliate/createAffiliateProfile", { json: affiliateID ? { affiliateID } : {} });
export const saveWiseTag = (wiseTag: string) =>
  apiJson<{ message: string; affiliateProfile: AffiliateProfile }>("/api/affiliate/saveWiseTag", { json: { wiseTag } });
export const getPayoutReport = () => apiJson<AffiliatePayoutReport>("/api/admin/affiliatePayouts");
export const markPayoutPaid = (affiliateID: string, amountCents: number) =>
  apiJson<{ message: string }>("/api/admin/affiliatePayouts/markPaid", { json: { affiliateID, amountCents } });

/** A moment as a date in the browser's time zone: 5 December 2026. */
export function localDate(ms: number): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" }).format(new Date(ms));
}

/**
 * A payout day (the 5th, kept as midnight UTC) as the calendar date it is,
 * the same date wherever the affiliate lives.
 */
export function payoutDate(ms: number): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(ms));
}

/** "2026-11" as "November 2026". */
export function monthName(month: string): string {
  const [year, index] = month.split("-").map(Number);
  return new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(year, index - 1, 1)));
}
