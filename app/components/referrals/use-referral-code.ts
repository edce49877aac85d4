import { loadReferralCode } from "../../lib/referrals.ts";
import { useApiQuery } from "../../lib/query.ts";

/** The signed-in user's referral code (null when signed out, while it loads, or if it could not be had). */
export function useReferralCode(user: { referralCode?: string | null } | null): string | null {
  const known = user?.referralCode ?? null;
  // loadReferralCode retries as the spec says and answers null when it gives up: the data layer adds no retry of its own.
  const read = useApiQuery(["referrals", "code"], () => loadReferralCode(null), {
    enabled: user !== null && !known,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return known ?? (user ? (read.data ?? null) : null);
}
