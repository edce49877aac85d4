import { priceTag } from "../../../contracts/money.ts";
import { Link } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { PAYPAL_CONFIRM_SWITCH_MESSAGE, PAYPAL_PLAN_IDS, SUBSCRIPTION_SWITCH_ERROR_MESSAGE } from "../../../contracts/billing/billing-paypal-shopify.ts";
import { creditMeter } from "../../../workers/domain/credit-meter.ts";
import type { CurrentSubscription, PlanInfo } from "../../../contracts/billing/plans-api.ts";
import { planTakenBackNotice } from "../../../workers/domain/payment-reversals.ts";
import { FREE_PLAN_ID } from "../../../workers/domain/plans.ts";
import { useAuth } from "../../lib/auth.tsx";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import {
  cancelPayPalSubscription,
  cancelShopifySubscription,
  cancelSubscription,
  getCredits,
  getCurrentSubscriptionAnswer,
  longDate,
  reactivatePayPalSubscription,
  reactivateSubscription,
  REFUND_NOTE,
  revisePayPalSubscription,
  reviseSubscription,
  serverMessage,
  suspendPayPalSubscription,
} from "./billing-api.ts";
import { localDate } from "../affiliate/affiliate-api.ts";
import { useBillingConfirm } from "./confirm.tsx";
import { NoticeBox, type Notice } from "./notice.tsx";
import { planStatusText } from "./plan-status.ts";

/**
 * Manage subscription (spec section 2, account menu): the current plan, the
 * credits left this month with a bar, the next renewal, switching plan and
 * cancelling with a reason, with the messages of spec section 8. A PayPal
 * subscription can also be suspended and re-activated; its switch may need the
 * payer's approval in PayPal (202 with an approval link); a Shopify one is
 * cancelled here and switched by subscribing again. A switch says first what it
 * does (the server's preview) and cancelling asks once; a Stripe subscription
 * cancelled but not ended offers Reactivate (decision 082). The credits and the
 * subscription are read afresh each time it mounts (/pricing remounts it after a
 * payment) and after each change.
 */
/** A plan a /pricing card's Switch plan picked: the switch form opens with it chosen (`at` tells two clicks apart). */
export type SwitchRequest = { planId: string; at: number } | null;

export function ManageSubscription({ plans, switchTo = null }: { plans: PlanInfo[]; switchTo?: SwitchRequest }) {
  const { user, reloadUser } = useAuth();
  const cache = useApiCache();
  // /pricing mounts this anew when a payment changed the plan, which it cannot tell the cache: read again on mount.
  const creditsQuery = useApiQuery(["billing", "credits"], () => getCredits(), { refetchOnMount: "always" });
  const subscriptionQuery = useApiQuery(["billing", "subscription"], () => getCurrentSubscriptionAnswer(), { refetchOnMount: "always" });
  const credits = creditsQuery.data ?? null;
  const subscription = subscriptionQuery.data?.subscription;
  const takenBack = subscriptionQuery.data?.takenBack ?? null;
  const failure = [creditsQuery, subscriptionQuery].find((query) => query.error && !query.isFetching)?.error;
  const loadError = failure ? (serverMessage(failure) ?? "Your subscription could not be loaded. Please reload the page.") : null;
  const [notice, setNotice] = useState<Notice | null>(null);
  /** A PayPal switch waiting for the payer's approval in PayPal. */
  const [approvalLink, setApprovalLink] = useState<string | null>(null);
  const confirm = useBillingConfirm();

  const changed = (next: Notice, approval: string | null = null) => {
    setNotice(next);
    setApprovalLink(approval);
    if (next.kind === "success") {
      reloadUser();
      void cache.refresh(["billing", "credits"]);
      void cache.refresh(["billing", "subscription"]);
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
  // The month's total counts credits an admin granted on top of the plan's (decision 051), as the navbar does.
  const { used, total: monthTotal } = creditMeter(credits);
  const percentLeft = monthTotal > 0 ? Math.round((Math.max(0, credits.remaining) / monthTotal) * 100) : 0;
  const stripeSubscription =
    subscription && subscription.provider === "stripe" && subscription.kind === "subscription" && subscription.subscriptionID ? subscription : null;
  const running =
    subscription && subscription.kind === "subscription" && subscription.subscriptionID && subscription.status !== "canceled" ? subscription : null;
  const paypalSubscription = running?.provider === "paypal" ? running : null;
  const shopifySubscription = running?.provider === "shopify" ? running : null;
  const freeCredits = plans.find((plan) => plan.planId === FREE_PLAN_ID)?.creditsPerMonth ?? 10;
  const actions: Actions = { onDone: changed, confirm, freeCredits };

  return (
    <div className="manage">
      {notice && <NoticeBox notice={notice} />}
      {takenBack && (
        <p className="billing-notice billing-notice--info" data-testid="plan-taken-back">
          {planTakenBackNotice(takenBack.planName, takenBack.reason, localDate(Date.parse(takenBack.at)))}
        </p>
      )}
      {approvalLink && (
        <p className="manage__approval">
          <a className="button button--primary" href={approvalLink}>
            Approve the switch in PayPal
          </a>
        </p>
      )}
      <dl className="manage__facts">
        <div>
          <dt>Current plan</dt>
          <dd data-testid="current-plan">{planName}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd data-testid="plan-status">{user ? planStatusText(user, subscription) : "Free"}</dd>
        </div>
        <div>
          <dt>{renewalLabel(subscription)}</dt>
          <dd>{renewalText(subscription)}</dd>
        </div>
      </dl>

      <div className="manage__credits">
        <p id="credits-left-label">
          <strong data-testid="credits-left">{Math.max(0, credits.remaining).toLocaleString("en-US")}</strong> of {monthTotal.toLocaleString("en-US")} credits
          left this month
        </p>
        <div
          className="credit-bar"
          role="progressbar"
          aria-labelledby="credits-left-label"
          aria-valuemin={0}
          aria-valuemax={monthTotal}
          aria-valuenow={Math.max(0, credits.remaining)}
        >
          <div className="credit-bar__fill" style={{ width: `${percentLeft}%` }} />
        </div>
        <p className="muted">
          {used.toLocaleString("en-US")} used. Credits start again on {longDate(credits.periodEnd)} and do not roll over.
        </p>
      </div>

      {stripeSubscription && subscription?.status !== "canceled" && (
        <SwitchPlan subscription={stripeSubscription} plans={plans} actions={actions} switchTo={switchTo} />
      )}
      {stripeSubscription && !stripeSubscription.cancelAtPeriodEnd && (
        <CancelSubscription subscription={stripeSubscription} cancel={cancelSubscription} actions={actions} />
      )}
      {stripeSubscription?.cancelAtPeriodEnd && stripeSubscription.status !== "canceled" && <Reactivate subscription={stripeSubscription} onDone={changed} />}
      {paypalSubscription && <PayPalActions subscription={paypalSubscription} plans={plans} actions={actions} switchTo={switchTo} />}
      {paypalSubscription && !paypalSubscription.cancelAtPeriodEnd && (
        <CancelSubscription subscription={paypalSubscription} cancel={cancelPayPalSubscription} actions={actions} />
      )}
      {shopifySubscription && !shopifySubscription.cancelAtPeriodEnd && (
        <>
          <p className="muted">Your plan is billed to your Shopify store. To change plan, cancel it and pick the new plan above with Shopify.</p>
          <CancelSubscription subscription={shopifySubscription} cancel={cancelShopifySubscription} actions={actions} />
        </>
      )}
      {(paypalSubscription ?? shopifySubscription)?.cancelAtPeriodEnd && (
        <p className="muted" data-testid="cannot-reactivate">
          {paypalSubscription ? "PayPal" : "Shopify"} cannot undo a cancellation: your plan stays until{" "}
          {longDate((paypalSubscription ?? shopifySubscription)!.periodEnd ?? "")}. To go on after that, pick a plan again above once it has ended.
        </p>
      )}
      {confirm.dialog}
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
  if (subscription.status === "suspended") return "Paused until you re-activate it";
  if (!subscription.periodEnd) return "Unknown";
  if (subscription.cancelAtPeriodEnd) return `${longDate(subscription.periodEnd)} (does not renew)`;
  return longDate(subscription.periodEnd);
}

/** What the actions of Manage subscription share: how to report, how to ask first, Free's credits a month. */
interface Actions {
  onDone: (notice: Notice, approvalLink?: string | null) => void;
  confirm: ReturnType<typeof useBillingConfirm>;
  freeCredits: number;
}

function SwitchPlan({
  subscription,
  plans,
  actions,
  switchTo,
}: {
  subscription: CurrentSubscription;
  plans: PlanInfo[];
  actions: Actions;
  switchTo: SwitchRequest;
}) {
  const { onDone, confirm } = actions;
  const options = plans.filter(
    (plan) => (plan.billingPeriod === "month" || plan.billingPeriod === "year") && plan.stripePriceID && plan.planId !== subscription.planId,
  );
  const [planId, setPlanId] = useState("");
  const [busy, setBusy] = useState(false);

  async function switchPlan(planId: string) {
    const plan = options.find((candidate) => candidate.planId === planId);
    if (!plan || !subscription.subscriptionID || busy) return;
    setBusy(true);
    try {
      if (!(await confirm.askPlanChange({ planId: plan.planId }, "Switch plan"))) return;
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
    <SwitchPlanForm options={options} planId={planId} onPlanId={setPlanId} onSwitch={switchPlan} busy={busy} switching={busy} switchTo={switchTo}>
      The switch happens now; the price difference for the rest of this period is charged (or credited) at once.
    </SwitchPlanForm>
  );
}

/**
 * The Switch plan form of every provider: a choice of `options`, what switching means (children), and the button.
 * A plan's "Switch plan" button on its /pricing card (`switchTo`) chooses it here and starts the switch, which
 * asks for its confirmation as the form's button does (issue 40 point 6).
 */
function SwitchPlanForm({
  options,
  planId,
  onPlanId,
  onSwitch,
  busy,
  switching,
  switchTo,
  children,
}: {
  options: PlanInfo[];
  planId: string;
  onPlanId: (planId: string) => void;
  /** Switches to the plan, after its confirmation. */
  onSwitch: (planId: string) => void;
  /** Any action of the subscription is running: the button waits. */
  busy: boolean;
  /** The switch is running. */
  switching: boolean;
  /** A plan picked on its /pricing card: chosen here, and the choice focused. */
  switchTo: SwitchRequest;
  children: ReactNode;
}) {
  const id = useId();
  const select = useRef<HTMLSelectElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new request switches: the options and callbacks change with every render of the parent.
  useEffect(() => {
    if (!switchTo || !options.some((plan) => plan.planId === switchTo.planId)) return;
    onPlanId(switchTo.planId);
    select.current?.focus({ preventScroll: true });
    onSwitch(switchTo.planId);
  }, [switchTo]);
  return (
    <form
      className="manage__form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSwitch(planId);
      }}
    >
      <h3>Switch plan</h3>
      <label htmlFor={`${id}-plan`}>New plan</label>
      <select ref={select} id={`${id}-plan`} value={planId} onChange={(event) => onPlanId(event.target.value)} required>
        <option value="">Choose a plan</option>
        {options.map((plan) => (
          <option key={plan.planId} value={plan.planId}>
            {plan.planName} {plan.billingPeriod === "year" ? "annual" : "monthly"}: {priceTag(plan.amount)}/{plan.billingPeriod} ·{" "}
            {plan.creditsPerMonth.toLocaleString("en-US")} credits per month
          </option>
        ))}
      </select>
      <p className="muted">{children}</p>
      <button type="submit" className="button button--primary" disabled={busy || !planId}>
        {switching ? "Switching…" : "Switch plan"}
      </button>
    </form>
  );
}

function CancelSubscription({
  subscription,
  cancel,
  actions,
}: {
  subscription: CurrentSubscription;
  cancel: (subscriptionID: string, cancelReason: string) => Promise<unknown>;
  actions: Actions;
}) {
  const { onDone, confirm, freeCredits } = actions;
  const until = subscription.periodEnd ? longDate(subscription.periodEnd) : "the end of this period";
  const id = useId();
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim() || !subscription.subscriptionID) return;
    const goOn = await confirm.ask({
      title: `Cancel your ${subscription.planName} subscription?`,
      text: `You keep ${subscription.planName} until ${until}; then you move to Free with ${freeCredits} credits a month.`,
      confirmLabel: "Cancel subscription",
      keepLabel: "Keep my subscription",
    });
    if (!goOn) return;
    setBusy(true);
    try {
      await cancel(subscription.subscriptionID, reason.trim());
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
        You keep {subscription.planName} until {until}; then you move to Free with {freeCredits} credits a month.
      </p>
      <button type="submit" className="button button--ghost manage__cancel" disabled={busy || !reason.trim()}>
        {busy ? "Cancelling…" : "Cancel subscription"}
      </button>
    </form>
  );
}

/** PayPal: switch plan (may need approval in PayPal), suspend an active subscription, re-activate a suspended one. */
function PayPalActions({
  subscription,
  plans,
  actions,
  switchTo,
}: {
  subscription: CurrentSubscription;
  plans: PlanInfo[];
  actions: Actions;
  switchTo: SwitchRequest;
}) {
  const { onDone, confirm } = actions;
  const subscriptionID = subscription.subscriptionID ?? "";
  const active = (subscription.status === "active" || subscription.status === "trialing") && !subscription.cancelAtPeriodEnd;
  const options = plans.filter((plan) => PAYPAL_PLAN_IDS[plan.planId] && plan.planId !== subscription.planId);
  const [planId, setPlanId] = useState("");
  const [busy, setBusy] = useState<"switch" | "suspend" | "reactivate" | null>(null);

  async function run(action: "suspend" | "reactivate") {
    setBusy(action);
    try {
      const answer = action === "suspend" ? await suspendPayPalSubscription(subscriptionID) : await reactivatePayPalSubscription(subscriptionID);
      onDone({ kind: "success", text: answer.message });
    } catch (error) {
      const text = action === "suspend" ? "There was an error suspending your subscription." : "There was an error re-activating your subscription.";
      onDone({ kind: "error", text, detail: serverMessage(error) });
    } finally {
      setBusy(null);
    }
  }

  async function switchPlan(planId: string) {
    const plan = options.find((candidate) => candidate.planId === planId);
    if (!plan || busy !== null) return;
    setBusy("switch");
    try {
      if (!(await confirm.askPlanChange({ planId: plan.planId }, "Switch plan"))) return;
      const answer = await revisePayPalSubscription(subscriptionID, plan, PAYPAL_PLAN_IDS[plan.planId]);
      if (answer.approvalLink) onDone({ kind: "info", text: PAYPAL_CONFIRM_SWITCH_MESSAGE }, answer.approvalLink);
      else onDone({ kind: "success", text: "Your subscription has been switched" });
      setPlanId("");
    } catch (error) {
      onDone({ kind: "error", text: SUBSCRIPTION_SWITCH_ERROR_MESSAGE, detail: serverMessage(error) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      {active && options.length > 0 && (
        <SwitchPlanForm
          options={options}
          planId={planId}
          onPlanId={setPlanId}
          onSwitch={switchPlan}
          busy={busy !== null}
          switching={busy === "switch"}
          switchTo={switchTo}
        >
          A dearer plan needs your approval in PayPal; the change shows here about 5 minutes after you approve it.
        </SwitchPlanForm>
      )}
      <div className="manage__actions">
        {active && (
          <button type="button" className="button button--ghost" onClick={() => run("suspend")} disabled={busy !== null}>
            {busy === "suspend" ? "Suspending…" : "Suspend subscription"}
          </button>
        )}
        {subscription.status === "suspended" && (
          <button type="button" className="button button--primary" onClick={() => run("reactivate")} disabled={busy !== null}>
            {busy === "reactivate" ? "Re-activating…" : "Re-activate subscription"}
          </button>
        )}
      </div>
      {active && <p className="muted">While suspended, PayPal does not bill you and you are on the Free plan's credits.</p>}
    </>
  );
}

/** A Stripe subscription cancelled at the end of its period, which has not ended: it can go on as before (spec section 4, reactivate). */
function Reactivate({ subscription, onDone }: { subscription: CurrentSubscription; onDone: (notice: Notice) => void }) {
  const [busy, setBusy] = useState(false);
  async function reactivate() {
    if (!subscription.subscriptionID) return;
    setBusy(true);
    try {
      const answer = await reactivateSubscription(subscription.subscriptionID);
      onDone({ kind: "success", text: answer.message });
    } catch (error) {
      onDone({ kind: "error", text: "There was an error re-activating your subscription.", detail: serverMessage(error) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="manage__form">
      <h3>Reactivate subscription</h3>
      <p className="muted">
        Your {subscription.planName} plan ends on {subscription.periodEnd ? longDate(subscription.periodEnd) : "the end of this period"}. Reactivate it to keep
        it: it renews then as before, and nothing is charged now.
      </p>
      <button type="button" className="button button--primary" onClick={reactivate} disabled={busy}>
        {busy ? "Re-activating…" : "Reactivate subscription"}
      </button>
    </div>
  );
}
