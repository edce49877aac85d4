import { Link } from "@remix-run/react";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import type { CreditsSummary } from "../../../contracts/credits.ts";
import type { CurrentSubscription, PlanInfo } from "../../../contracts/plans-api.ts";
import { useAuth } from "../../lib/auth.tsx";
import { cancelSubscription, getCredits, getCurrentSubscription, longDate, money, REFUND_NOTE, reviseSubscription, serverMessage } from "./billing-api.ts";
import { NoticeBox, type Notice } from "./notice.tsx";

/**
 * Manage subscription (spec section 2, account menu): the current plan, the
 * credits left this month with a bar, the next renewal, switching plan and
 * cancelling with a reason, with the messages of spec section 8.
 */
export function ManageSubscription({ plans }: { plans: PlanInfo[] }) {
  const { user, reloadUser } = useAuth();
  const [credits, setCredits] = useState<CreditsSummary | null>(null);
  const [subscription, setSubscription] = useState<CurrentSubscription | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const load = useCallback(() => {
    Promise.all([getCredits(), getCurrentSubscription()])
      .then(([summary, current]) => {
        setCredits(summary);
        setSubscription(current);
        setLoadError(null);
      })
      .catch((error) => setLoadError(serverMessage(error) ?? "Your subscription could not be loaded. Please reload the page."));
  }, []);
  useEffect(load, [load]);

  const changed = (next: Notice) => {
    setNotice(next);
    if (next.kind === "success") {
      reloadUser();
      load();
    }
  };

  if (loadError) {
    return (
      <p className="billing-notice billing-notice--error" role="alert">
        {loadError}
      </p>
    );
  }
  if (!credits || subscription === undefined) return <p className="muted">Loading your subscription…</p>;

  const planName = subscription?.planName ?? plans.find((plan) => plan.planId === credits.planId)?.planName ?? "Free";
  const used = Math.max(0, credits.creditsPerMonth - credits.remaining);
  const percentLeft = credits.creditsPerMonth > 0 ? Math.round((Math.max(0, credits.remaining) / credits.creditsPerMonth) * 100) : 0;
  const stripeSubscription = subscription && subscription.provider === "stripe" && subscription.kind === "subscription" && subscription.subscriptionID ? subscription : null;

  return (
    <div className="manage">
      {notice && <NoticeBox notice={notice} />}
      <dl className="manage__facts">
        <div>
          <dt>Current plan</dt>
          <dd data-testid="current-plan">{planName}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-testid="plan-status">{user?.planStatus ?? "Inactive"}</dd>
        </div>
        <div>
          <dt>{renewalLabel(subscription)}</dt>
          <dd>{renewalText(subscription)}</dd>
        </div>
      </dl>

      <div className="manage__credits">
        <p id="credits-left-label">
          <strong data-testid="credits-left">{Math.max(0, credits.remaining).toLocaleString("en-US")}</strong> of{" "}
          {credits.creditsPerMonth.toLocaleString("en-US")} credits left this month
        </p>
        <div
          className="credit-bar"
          role="progressbar"
          aria-labelledby="credits-left-label"
          aria-valuemin={0}
          aria-valuemax={credits.creditsPerMonth}
          aria-valuenow={Math.max(0, credits.remaining)}
        >
          <div className="credit-bar__fill" style={{ width: `${percentLeft}%` }} />
        </div>
        <p className="muted">
          {used.toLocaleString("en-US")} used. Credits start again on {longDate(credits.periodEnd)} and do not roll over.
        </p>
      </div>

      {stripeSubscription && subscription?.status !== "canceled" && (
        <SwitchPlan subscription={stripeSubscription} plans={plans} onDone={changed} />
      )}
      {stripeSubscription && !stripeSubscription.cancelAtPeriodEnd && <CancelSubscription subscription={stripeSubscription} onDone={changed} />}
      {!subscription && (
        <p>
          You are on the Free plan. Pick a plan above, get the <Link to="/lifetime">Lifetime plan</Link> or <Link to="/redeem-code">redeem a code</Link>.
        </p>
      )}
      <p className="billing-refunds">{REFUND_NOTE}</p>
    </div>
  );
}

function renewalLabel(subscription: CurrentSubscription | null): string {
  if (!subscription || subscription.kind === "lifetime") return "Renewal";
  return subscription.cancelAtPeriodEnd ? "Plan ends" : "Next renewal";
}

function renewalText(subscription: CurrentSubscription | null): string {
  if (!subscription) return "None (Free plan)";
  if (subscription.kind === "lifetime") return "Never: you paid once";
  if (!subscription.periodEnd) return "Unknown";
  if (subscription.cancelAtPeriodEnd) return `${longDate(subscription.periodEnd)} (does not renew)`;
  return longDate(subscription.periodEnd);
}

function SwitchPlan({ subscription, plans, onDone }: { subscription: CurrentSubscription; plans: PlanInfo[]; onDone: (notice: Notice) => void }) {
  const id = useId();
  const options = plans.filter((plan) => (plan.billingPeriod === "month" || plan.billingPeriod === "year") && plan.stripePriceID && plan.planId !== subscription.planId);
  const [planId, setPlanId] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const plan = options.find((candidate) => candidate.planId === planId);
    if (!plan || !subscription.subscriptionID) return;
    setBusy(true);
    try {
      await reviseSubscription(subscription.subscriptionID, plan);
      onDone({ kind: "success", text: "Your subscription has been switched" });
      setPlanId("");
    } catch (error) {
      onDone({ kind: "error", text: "Error switching plan", detail: serverMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  if (options.length === 0) return null;
  return (
    <form className="manage__form" onSubmit={submit}>
      <h3>Switch plan</h3>
      <label htmlFor={`${id}-plan`}>New plan</label>
      <select id={`${id}-plan`} value={planId} onChange={(event) => setPlanId(event.target.value)} required>
        <option value="">Choose a plan</option>
        {options.map((plan) => (
          <option key={plan.planId} value={plan.planId}>
            {plan.planName} {plan.billingPeriod === "year" ? "annual" : "monthly"}: {money(plan.amount)}/{plan.billingPeriod} · {plan.creditsPerMonth.toLocaleString("en-US")} credits per month
          </option>
        ))}
      </select>
      <p className="muted">The switch happens now; the price difference for the rest of this period is charged (or credited) at once.</p>
      <button type="submit" className="button button--primary" disabled={busy || !planId}>
        {busy ? "Switching…" : "Switch plan"}
      </button>
    </form>
  );
}

function CancelSubscription({ subscription, onDone }: { subscription: CurrentSubscription; onDone: (notice: Notice) => void }) {
  const id = useId();
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim() || !subscription.subscriptionID) return;
    setBusy(true);
    try {
      await cancelSubscription(subscription.subscriptionID, reason.trim());
      onDone({ kind: "success", text: "Your subscription has been canceled." });
    } catch (error) {
      onDone({ kind: "error", text: "There was an error cancelling your subscription.", detail: serverMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="manage__form" onSubmit={submit}>
      <h3>Cancel subscription</h3>
      <label htmlFor={`${id}-reason`}>Why are you cancelling?</label>
      <textarea id={`${id}-reason`} value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={1000} rows={3} />
      <p className="muted">
        Your plan stays active until {subscription.periodEnd ? longDate(subscription.periodEnd) : "the end of this period"}, then you move to Free.
      </p>
      <button type="submit" className="button button--ghost manage__cancel" disabled={busy || !reason.trim()}>
        {busy ? "Cancelling…" : "Cancel subscription"}
      </button>
    </form>
  );
}
