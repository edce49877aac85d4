import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { PlanInfo } from "../../../contracts/plans-api.ts";
import { planButtonLabel } from "../../../workers/domain/plans.ts";
import { useAuth } from "../../lib/auth.tsx";
import { activateSubscription, getPlans, PAYMENT_PARAMS, REFUND_NOTE, serverMessage, startSubscription } from "./billing-api.ts";
import { SHOPIFY_CONNECTED_PARAM, SHOPIFY_ERROR_PARAM } from "../../../contracts/shopify-shop.ts";
import { shopifyOutcome } from "../../lib/shops/shopify-connect.ts";
import { PaymentMethodPicker, startProviderPayment, useProviderReturn, usePaymentMethod } from "./payment-methods.tsx";
import { ManageSubscription } from "./manage-subscription.tsx";
import { NoticeBox, type Notice } from "./notice.tsx";
import { ParityAmount, ParityNote, useEdgeParity } from "./parity.tsx";

type Interval = "month" | "year";

const SUBSCRIPTION_TIERS = new Set(["starter", "pro", "growth", "agency"]);
/** The plan a signed-out visitor picked: started once they are back from login or sign-up. */
const START_PARAM = "startPlan";

/**
 * /pricing (spec sections 2 and 4): the plan cards with a monthly/annual
 * switch, Stripe Checkout on a plan's button, the activation when Checkout
 * sends the user back, and Manage subscription (#manage) for signed-in users.
 */
export function PricingPage() {
  const { user, reloadUser } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const [plans, setPlans] = useState<PlanInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [interval, setInterval] = useState<Interval>(searchParams.get("interval") === "year" ? "year" : "month");
  const [busyPlan, setBusyPlan] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [manageVersion, setManageVersion] = useState(0);
  const handledReturn = useRef(false);
  const handledStart = useRef(false);
  const parity = useEdgeParity();
  const payment = usePaymentMethod(searchParams.get("payWith"), Boolean(user));
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
  useProviderReturn({ user, searchParams, setSearchParams, handledReturn, setNotice, onActivated: () => {
    reloadUser();
    setManageVersion((version) => version + 1);
  } });

  useEffect(() => {
    getPlans()
      .then(setPlans)
      .catch((error) => setLoadError(serverMessage(error) ?? "The plans could not be loaded. Please reload the page."));
  }, []);

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
    activateSubscription(sessionId, readAffiliate())
      .then(({ paymentDetails }) => {
        setNotice({ kind: "success", text: `Your subscription is active: welcome to the ${paymentDetails.planName} plan!` });
        reloadUser();
        setManageVersion((version) => version + 1);
      })
      .catch((error) => setNotice({ kind: "error", text: "There was an error activating your subscription.", detail: serverMessage(error) }))
      .finally(clean);
  }, [searchParams, setSearchParams, user, reloadUser]);

  async function choose(plan: PlanInfo) {
    if (!user) {
      const back = `/pricing?${START_PARAM}=${encodeURIComponent(plan.planId)}${payment.method === "card" ? "" : `&payWith=${payment.method}`}`;
      navigate(`/login?redirectTo=${encodeURIComponent(back)}`);
      return;
    }
    setBusyPlan(plan.planId);
    setNotice(null);
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
  useEffect(() => {
    const wanted = searchParams.get(START_PARAM);
    if (!wanted || !user || !plans || handledStart.current) return;
    handledStart.current = true;
    setSearchParams(
      (params) => {
        params.delete(START_PARAM);
        return params;
      },
      { replace: true },
    );
    const plan = plans.find((candidate) => candidate.planId === wanted);
    if (plan) void choose(plan);
    // choose only reads state that this effect's dependencies cover.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchParams, user, plans]);

  useEffect(() => {
    if (location.hash === "#manage") document.getElementById("manage")?.scrollIntoView();
  }, [location.hash]);

  const cards = (plans ?? []).filter((plan) => SUBSCRIPTION_TIERS.has(plan.tier) && plan.billingPeriod === interval);

  return (
    <main className="page billing-page">
      <header className="billing-page__header">
        <h1>Plans and pricing</h1>
        <p className="muted">Every plan gives you pin credits each month. Credits do not roll over to the next month.</p>
        {/* Parity is charged whatever the payment method: Stripe's coupon, PayPal's plan override, Shopify's charge. */}
        <ParityNote parity={parity} />
      </header>

      {notice && <NoticeBox notice={notice} />}

      <fieldset className="billing-switch">
        <legend className="visually-hidden">Billing period</legend>
        {(["month", "year"] as const).map((value) => (
          <label key={value} className={`billing-switch__option${interval === value ? " billing-switch__option--on" : ""}`}>
            <input type="radio" name="interval" value={value} checked={interval === value} onChange={() => setInterval(value)} />
            {value === "month" ? "Monthly" : "Annual"}
          </label>
        ))}
      </fieldset>

      <PaymentMethodPicker payment={payment} />

      {loadError && (
        <p className="billing-notice billing-notice--error" role="alert">
          {loadError}
        </p>
      )}
      {!plans && !loadError && <p className="muted">Loading plans…</p>}

      <ul className="plan-grid" aria-label={interval === "month" ? "Monthly plans" : "Annual plans"}>
        {cards.map((plan) => (
          <li key={plan.planId} className="plan-card">
            <h2 className="plan-card__name">{plan.planName}</h2>
            <PlanPrice amount={plan.amount} period={plan.billingPeriod === "year" ? "year" : "month"} parity={parity} />
            <ul className="plan-card__features">
              <li>
                <strong>{plan.creditsPerMonth.toLocaleString("en-US")}</strong> credits per month
              </li>
              <li>Access to all features</li>
              <li>{plan.planOrder <= 2 ? "Email support" : "Priority support"}</li>
              {plan.tier !== "agency" && plan.freeTrialDays > 0 && <li>{plan.freeTrialDays}-day free trial for new subscribers</li>}
            </ul>
            <button
              type="button"
              className="button button--primary plan-card__button"
              onClick={() => choose(plan)}
              disabled={busyPlan !== null}
              aria-label={`${planButtonLabel(plan, user)}: ${plan.planName} ${interval === "month" ? "monthly" : "annual"}`}
            >
              {busyPlan === plan.planId ? "Opening checkout…" : planButtonLabel(plan, user)}
            </button>
          </li>
        ))}
      </ul>

      <p className="billing-page__more">
        Prefer to pay once? See the <Link to="/lifetime">Lifetime plan</Link>. Have a code? <Link to="/redeem-code">Redeem it here</Link>.
      </p>
      <p className="billing-refunds">{REFUND_NOTE}</p>

      <section id="manage" className="billing-manage" aria-labelledby="manage-title">
        <h2 id="manage-title">Manage subscription</h2>
        {user ? (
          <ManageSubscription key={manageVersion} plans={plans ?? []} />
        ) : (
          <p>
            <Link to="/login?redirectTo=%2Fpricing%23manage">Log in</Link> to manage your subscription.
          </p>
        )}
      </section>
    </main>
  );
}

/** The affiliate id a referral link stored, if any (sent with the activation). */
function readAffiliate(): string | null {
  try {
    return window.localStorage.getItem("affiliateID");
  } catch {
    return null;
  }
}

/**
 * A plan's price, with the visitor's pricing parity (GET /api/pricingParity):
 * the full price struck through and what every payment method charges.
 */
function PlanPrice({ amount, period, parity }: { amount: number; period: "month" | "year" | "once"; parity: ReturnType<typeof useEdgeParity> }) {
  const suffix = period === "once" ? " once" : `/${period}`;
  return (
    <p className="plan-card__price">
      <ParityAmount amount={amount} parity={parity} />
      <span className="muted">{suffix}</span>
    </p>
  );
}
