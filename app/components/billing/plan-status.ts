import { useEffect, useState } from "react";
import type { CurrentSubscription } from "../../../contracts/billing/plans-api.ts";
import { planStatusLabel, type PlanHolder } from "../../../workers/domain/plans.ts";
import { getCurrentSubscription, longDate } from "./billing-api.ts";

/**
 * The signed-in user's plan record that decides their plan (GET /api/subscriptions/current), read again whenever
 * `key` changes (what the plan depends on); undefined until known (again, after `key` changed), null without one (or when it could not be read:
 * the pages then offer what they would to a user without one, and the server still decides).
 */
export function useCurrentSubscription(key: string | null): CurrentSubscription | null | undefined {
  const [subscription, setSubscription] = useState<CurrentSubscription | null | undefined>(undefined);
  useEffect(() => {
    if (!key) return setSubscription(null);
    // What the plan depends on changed: the record read before may be another plan's (Free's null while a
    // checkout just made Starter the plan), so it is not known until read again.
    setSubscription(undefined);
    let current = true;
    getCurrentSubscription().then(
      (found) => current && setSubscription(found),
      () => current && setSubscription(null),
    );
    return () => {
      current = false;
    };
  }, [key]);
  return subscription;
}

/**
 * How the user's plan status reads on Manage subscription and /profile (issue 37): months given by a redeem code
 * or a friend's referral end without renewing, which the stored status calls Cancelled; they read "Redeemed · ends
 * 2 January 2027" (or "Gifted · ..."), never "Cancelled". A suspended PayPal subscription reads "Suspended".
 * Null while the running subscription is not known yet and the words depend on it. Dates in the browser's zone.
 */
export function planStatusText(user: PlanHolder, subscription: CurrentSubscription | null | undefined, now = Date.now()): string | null {
  if (subscription?.status === "suspended") return "Suspended";
  const label = planStatusLabel(user, now);
  if (label !== "Cancelled") return label;
  if (subscription === undefined) return null;
  const granted = subscription && subscription.kind === "subscription" && (subscription.provider === "code" || subscription.provider === "referral");
  if (granted && subscription.periodEnd) return `${subscription.provider === "code" ? "Redeemed" : "Gifted"} · ends ${longDate(subscription.periodEnd)}`;
  return label;
}
