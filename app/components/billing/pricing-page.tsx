import { Form, Link, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { AfterHydration } from "../auth/after-hydration.tsx";
import type { CurrentSubscription, PlanInfo } from "../../../contracts/billing/plans-api.ts";
import { loginToStart, START_PLAN_PARAM } from "../../lib/plan-links.ts";
import { FREE_PLAN_ID, planCardAction, type PlanCardAction, trialDaysFor } from "../../../workers/domain/plans.ts";
import { storedAffiliateId } from "../../lib/attribution.ts";
import { useAuth } from "../../lib/auth.tsx";
import type { PricingParity } from "../../../workers/domain/pricing-parity.ts";
import { activateSubscription, PAYMENT_PARAMS, REFUND_NOTE, serverMessage, startSubscription } from "./billing-api.ts";
import { SHOPIFY_CONNECTED_PARAM, SHOPIFY_ERROR_PARAM } from "../../../contracts/shops/shopify-params.ts";
import { shopifyOutcome } from "../../lib/shops/shopify-connect.ts";
import { PaymentMethodPicker, startProviderPayment, useProviderReturn, usePaymentMethod } from "./payment-methods.tsx";
import { useBillingConfirm } from "./confirm.tsx";
import { useCurrentSubscription } from "./plan-status.ts";
import { NoticeBox, type Notice } from "./notice.tsx";
import { ParityAmount, ParityNote } from "./parity.tsx";
import { lazyWithTimeout } from "../lazy-part.tsx";

/** Signed-in users only: its code loads after the page is interactive, not with the page (issue 17's JavaScript budget). */
const ManageSubscription = lazyWithTimeout(() => import("./manage-subscription.tsx").then((module) => ({ default: module.ManageSubscription })));

/** What the /pricing loader gives (app/routes/pricing.tsx): the same plans as GET /api/subscriptions/getPlans, and the visitor's parity. */
export interface PricingPageData {
  plans: PlanInfo[] | null;
  loadError: string | null;
  parity: PricingParity | null;
}

type Interval = "month" | "year";

const SUBSCRIPTION_TIERS = new Set(["starter", "pro", "growth", "agency"]);

/** A provider subscription still running: another plan is a switch of it, not a second subscription. */
function isRunning(subscription: CurrentSubscription | null | undefined): boolean {
  return Boolean(subscription && subscription.kind === "subscription" && subscription.subscriptionID && subscription.status !== "canceled");
}

/**
 * /pricing (spec sections 2 and 4): the plan cards with a monthly/annual
 * switch, Stripe Checkout on a plan's button, the activation when Checkout
 * sends the user back, and Manage subscription (#manage) for signed-in users.
 * Free has its card; the user's own plan is marked and never offered to start
 * again, and while a subscription runs the other plans are switched to from
 * Manage subscription (issue 13).
 *
 * Rendered on the server with its plans and the visitor's parity (issue 17), so it
 * reads and works without JavaScript: the period switch is a GET form, a signed-out
 * visitor's plan buttons are links to log in with the plan chosen. Its HTML depends
 * on the parity country and on whether someone is signed in, never on who: what
 * depends on the user's own plan is filled in after hydration.
 */
export function PricingPage() {
  const { user, reloadUser } = useAuth();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { plans, loadError, parity } = useLoaderData() as PricingPageData;
  const [interval, setInterval] = useState<Interval>(searchParams.get("interval") === "year" ? "year" : "month");
  const [busyPlan, setBusyPlan] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [manageVersion, setManageVersion] = useState(0);
  /** The plan a card's Switch plan picked for the form in Manage subscription. */
  const [switchTo, setSwitchTo] = useState<{ planId: string; at: number } | null>(null);
  const handledReturn = useRef(false);
  const handledStart = useRef(false);
  const payment = usePaymentMethod(searchParams.get("payWith"), Boolean(user));
  const confirm = useBillingConfirm();
  // Back from connecting a Shopify store to pay with: say how it went, clean the URL.
  useEffect(() => {
    const outcome = shopifyOutcome(searchParams.toString());
    if (!outcome.connected && !outcome.error) return;
    setNotice(
      outcome.connected
        ? { kind: "success", text: `Your Shopify store ${outcome.connected} is connected. Choose a plan to pay with Shopify.` }
        : { kind: "error", text: outcome.error ?? "We were unable to connect your Shopify store. Please try again." },
    );
    setSearchParams(
      (params) => {
        params.delete(SHOPIFY_CONNECTED_PARAM);
        params.delete(SHOPIFY_ERROR_PARAM);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [searchParams, setSearchParams]);
  // Back from PayPal (subscription_id) or Shopify (charge_id): activate, say so, clean the URL.
  useProviderReturn({
    user,
    searchParams,
    setSearchParams,
    handledReturn,
    setNotice,
    onActivated: () => {
      reloadUser();
      setManageVersion((version) => version + 1);
    },
  });

  // Again whenever the plan changes (an activation, a switch, a cancel: they reload the user).
  const subscription = useCurrentSubscription(user ? `${user.userId}|${user.planId}|${user.planStatus}|${manageVersion}` : null);

  // Back from Checkout: activate (success) or say it was cancelled; then clean the URL.
  useEffect(() => {
    const paymentMessage = searchParams.get("paymentMessage");
    if (!paymentMessage || handledReturn.current || !user || searchParams.get("provider")) return;
    handledReturn.current = true;
    const sessionId = searchParams.get("session_id");
    const clean = () =>
      setSearchParams(
        (params) => {
          for (const name of PAYMENT_PARAMS) params.delete(name);
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    if (paymentMessage === "cancel") {
      setNotice({ kind: "info", text: "Payment cancelled" });
      clean();
      return;
    }
    // A success without a Stripe session is another provider's return (PayPal): not ours to handle or clean.
    if (paymentMessage !== "success" || !sessionId) return;
    setNotice({ kind: "info", text: "Activating your subscription…" });
    activateSubscription(sessionId, storedAffiliateId())
      .then(({ paymentDetails }) => {
        setNotice({ kind: "success", text: `Your subscription is active: welcome to the ${paymentDetails.planName} plan!` });
        reloadUser();
        setManageVersion((version) => version + 1);
      })
      .catch((error) => setNotice({ kind: "error", text: "There was an error activating your subscription.", detail: serverMessage(error) }))
      .finally(clean);
  }, [searchParams, setSearchParams, user, reloadUser]);

  async function choose(plan: PlanInfo) {
    if (!user) return;
    setBusyPlan(plan.planId);
    setNotice(null);
    // Before any payment: what happens to the current plan and this month's credits (decision 082).
    try {
      if (!(await confirm.askPlanChange({ planId: plan.planId }, "Continue to payment"))) {
        setBusyPlan(null);
        return;
      }
    } catch (error) {
      setNotice({ kind: "error", text: "Error making payment", detail: serverMessage(error) });
      setBusyPlan(null);
      return;
    }
    if (payment.method !== "card") {
      const failed = await startProviderPayment(payment, plan.planId);
      if (failed) {
        setNotice(failed);
        setBusyPlan(null);
      }
      return;
    }
    try {
      const { redirectUrl } = await startSubscription(plan.planId, "/pricing");
      window.location.assign(redirectUrl);
    } catch (error) {
      setNotice({ kind: "error", text: "Error making payment", detail: serverMessage(error) });
      setBusyPlan(null);
    }
  }

  // Back from login or sign-up with the plan the visitor picked: start its checkout.
  // biome-ignore lint/correctness/useExhaustiveDependencies: choose only reads state that this effect's dependencies cover.
  useEffect(() => {
    const wanted = searchParams.get(START_PLAN_PARAM);
    if (!wanted || !user || !plans || handledStart.current) return;
    handledStart.current = true;
    setSearchParams(
      (params) => {
        params.delete(START_PLAN_PARAM);
        return params;
      },
      { replace: true },
    );
    const plan = plans.find((candidate) => candidate.planId === wanted);
    if (plan) void choose(plan);
  }, [searchParams, user, plans]);

  useEffect(() => {
    if (location.hash === "#manage") document.getElementById("manage")?.scrollIntoView();
  }, [location.hash]);

  const cards = (plans ?? []).filter((plan) => plan.planId === FREE_PLAN_ID || (SUBSCRIPTION_TIERS.has(plan.tier) && plan.billingPeriod === interval));
  const running = isRunning(subscription);
  // Months given by a redeem code or a friend's referral end without renewing: their plan can be bought to keep it.
  const onGrantedMonths = subscription?.kind === "subscription" && (subscription.provider === "code" || subscription.provider === "referral");
  const now = Date.now();

  function switchPlan(plan: PlanInfo) {
    setSwitchTo({ planId: plan.planId, at: Date.now() });
    document.getElementById("manage")?.scrollIntoView({ behavior: "smooth" });
  }

  return (
    <main className="page billing-page">
      <header className="billing-page__header">
        <h1>Plans and pricing</h1>
        <p className="muted">Every plan gives you pin credits each month. Credits do not roll over to the next month.</p>
        {/* Parity is charged whatever the payment method: Stripe's coupon, PayPal's plan override, Shopify's charge. */}
        <ParityNote parity={parity} />
      </header>

      {notice && <NoticeBox notice={notice} />}

      {/* A GET form, so that without JavaScript the period is chosen by submitting it (the server renders ?interval=year). */}
      <Form method="get" className="billing-switch-form" preventScrollReset>
        <fieldset className="billing-switch">
          <legend className="visually-hidden">Billing period</legend>
          {(["month", "year"] as const).map((value) => (
            <label key={value} className={`billing-switch__option${interval === value ? " billing-switch__option--on" : ""}`}>
              <input type="radio" name="interval" value={value} checked={interval === value} onChange={() => setInterval(value)} />
              {value === "month" ? "Monthly" : "Annual"}
            </label>
          ))}
        </fieldset>
        <noscript>
          <button type="submit" className="button button--ghost billing-switch__submit">
            Show these prices
          </button>
        </noscript>
      </Form>

      <PaymentMethodPicker payment={payment} />

      {loadError && (
        <p className="billing-notice billing-notice--error" role="alert">
          {loadError}
        </p>
      )}

      <ul className="plan-grid" aria-label={interval === "month" ? "Monthly plans" : "Annual plans"}>
        {cards.map((plan) => {
          // A signed-in user's own plan is known only once their subscription is (after hydration): the HTML never depends on who is signed in.
          const offered = planCardAction(plan, user, running, now);
          const current = offered.kind === "current" && subscription !== undefined;
          const action: typeof offered = current && onGrantedMonths ? { kind: "start", label: "Start Plan" } : offered;
          const isFree = plan.planId === FREE_PLAN_ID;
          return (
            <li key={plan.planId} className={current ? "plan-card plan-card--current" : "plan-card"} aria-labelledby={`plan-${plan.planId}`}>
              {current ? <p className="plan-card__badge">Your plan</p> : null}
              <h2 className="plan-card__name" id={`plan-${plan.planId}`}>
                {plan.planName}
                {current ? <span className="visually-hidden"> (your plan)</span> : null}
              </h2>
              <PlanPrice amount={plan.amount} period={isFree ? "free" : plan.billingPeriod === "year" ? "year" : "month"} parity={parity} />
              <ul className="plan-card__features">
                <li>
                  <strong>{plan.creditsPerMonth.toLocaleString("en-US")}</strong> credits per month
                </li>
                <li>Access to all features</li>
                {plan.planOrder >= 1 ? <li>{plan.planOrder <= 2 ? "Email support" : "Priority support"}</li> : null}
                {/* The button's rule (spec section 4): no trial line for someone who has used theirs, once their plan is known. */}
                {trialDaysFor(plan, user && subscription !== undefined ? user : null) > 0 && <li>{plan.freeTrialDays}-day free trial for new subscribers</li>}
              </ul>
              {/* Until the running subscription is known, a signed-in user's cards wait rather than offer a checkout the server may refuse. */}
              <PlanCardButton
                action={user && subscription === undefined ? null : action}
                startHref={user ? null : loginToStart(plan.planId, payment.method)}
                plan={plan}
                periodName={isFree ? "" : interval === "month" ? " monthly" : " annual"}
                busy={busyPlan}
                onStart={() => choose(plan)}
                onSwitch={() => switchPlan(plan)}
              />
            </li>
          );
        })}
      </ul>

      <p className="billing-page__more">
        Prefer to pay once? See the <Link to="/lifetime">Lifetime plan</Link>. Have a code? <Link to="/redeem-code">Redeem it here</Link>.
      </p>
      <p className="billing-refunds">{REFUND_NOTE}</p>
      {confirm.dialog}

      <section id="manage" className="billing-manage" aria-labelledby="manage-title">
        <h2 id="manage-title">Manage subscription</h2>
        {user ? (
          <AfterHydration fallback={<p className="muted">Loading your subscription…</p>}>
            <ManageSubscription key={manageVersion} plans={plans ?? []} switchTo={switchTo} />
          </AfterHydration>
        ) : (
          <p>
            <Link to="/login?redirectTo=%2Fpricing%23manage">Log in</Link> to manage your subscription.
          </p>
        )}
      </section>
    </main>
  );
}

/** What a plan card offers (planCardAction); null while it is not known yet. */
function PlanCardButton({
  action,
  startHref,
  plan,
  periodName,
  busy,
  onStart,
  onSwitch,
}: {
  action: PlanCardAction | null;
  /** For a signed-out visitor: where starting the plan leads (log in, then back to start it), a link that works without JavaScript. */
  startHref: string | null;
  plan: PlanInfo;
  /** " monthly", " annual", or nothing for Free. */
  periodName: string;
  busy: string | null;
  onStart(): void;
  onSwitch(): void;
}) {
  if (!action) return <p className="plan-card__note muted">Checking your plan…</p>;
  switch (action.kind) {
    case "current":
      return plan.planId === FREE_PLAN_ID ? (
        <p className="plan-card__note plan-card__owned">You are on this plan.</p>
      ) : (
        <p className="plan-card__note">
          <span className="plan-card__owned">You are on this plan.</span> <Link to="#manage">Manage subscription</Link>
        </p>
      );
    case "fallback":
      return <p className="plan-card__note muted">Yours again when a paid plan ends.</p>;
    case "signup":
      return (
        <Link className="button button--ghost plan-card__button" to="/signup">
          Sign up free
        </Link>
      );
    case "switch":
      return (
        <button type="button" className="button button--ghost plan-card__button" onClick={onSwitch} aria-label={`Switch plan: ${plan.planName}${periodName}`}>
          Switch plan
        </button>
      );
    case "start":
      if (startHref) {
        return (
          <Link className="button button--primary plan-card__button" to={startHref} aria-label={`${action.label}: ${plan.planName}${periodName}`}>
            {action.label}
          </Link>
        );
      }
      return (
        <button
          type="button"
          className="button button--primary plan-card__button"
          onClick={onStart}
          disabled={busy !== null}
          aria-label={`${action.label}: ${plan.planName}${periodName}`}
        >
          {busy === plan.planId ? "Opening checkout…" : action.label}
        </button>
      );
  }
}

/**
 * A plan's price, with the visitor's pricing parity (from the loader: the country the edge saw):
 * the full price struck through and what every payment method charges.
 */
function PlanPrice({ amount, period, parity }: { amount: number; period: "month" | "year" | "once" | "free"; parity: PricingParity | null }) {
  if (period === "free") {
    return (
      <p className="plan-card__price">
        <span className="plan-card__amount">$0</span>
        <span className="muted">forever</span>
      </p>
    );
  }
  const suffix = period === "once" ? " once" : `/${period}`;
  return (
    <p className="plan-card__price">
      <ParityAmount amount={amount} parity={parity} />
      <span className="muted">{suffix}</span>
    </p>
  );
}
