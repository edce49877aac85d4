import { Link } from "@remix-run/react";
import { storedReferralCode } from "../../lib/attribution.ts";
import { useHydrated } from "../auth/use-hydrated.ts";
import { useAuth } from "../../lib/auth.tsx";
import { FREE_PLAN_ID } from "../../../workers/domain/plans.ts";

/**
 * After sign-up (which lands on /onboarding), a visitor who came through a
 * friend's invite link is reminded of the free month waiting on /referral: the
 * code is still in this browser (30 days).
 */
export function FriendsGiftNotice() {
  const { user } = useAuth();
  // The code is in this browser's storage: read once the page is hydrated, so the server's page and the first render agree.
  const code = useHydrated() ? storedReferralCode() : null;
  if (!user || !code || code.toUpperCase() === user.referralCode || user.planId !== FREE_PLAN_ID) return null;
  return (
    <p className="notice" role="status">
      A friend gifted you a free month of Starter. <Link to={`/referral?pgreferral=${encodeURIComponent(code)}`}>Claim your free month</Link>
    </p>
  );
}
