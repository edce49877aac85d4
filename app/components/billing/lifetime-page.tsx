import { priceTag } from "../../../contracts/money.ts";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { LifetimePlan } from "../../../contracts/billing/plans-api.ts";
import { useAuth } from "../../lib/auth.tsx";
import { useHydrated } from "../auth/use-hydrated.ts";
import type { PricingParity } from "../../../workers/domain/pricing-parity.ts";
import { activateLifetime, PAYMENT_PARAMS, serverMessage, startLifetimePayment } from "./billing-api.ts";
import { useBillingConfirm } from "./confirm.tsx";
import { NoticeBox, type Notice } from "./notice.tsx";
import { ParityAmount, ParityNote } from "./parity.tsx";

/** What the /lifetime loader gives (app/routes/lifetime.tsx): the plans of GET /api/subscriptions/getLifetimePlans and the visitor's parity. */
export interface LifetimePageData {
  plans: LifetimePlan[];
  parity: PricingParity | null;
}

/** Where a signed-out visitor's Get Lifetime leads: log in (or sign up from there), then back here. */
const LOGIN_TO_BUY = `/login?redirectTo=${encodeURIComponent("/lifetime")}`;

/** Spec section 9: the lifetime success message shows for 10 s. */
const SUCCESS_MS = 10_000;

/** The test configuration opens the payment page in a new tab (spec section 4, Lifetime purchase). */
function isTestConfiguration(appEnv: string): boolean {
  return appEnv === "test" || appEnv === "development";
}

/**
 * /lifetime: the lifetime plans and Get Lifetime (spec section 4, Lifetime
 * purchase). Back from payment with paymentMessage=success and a matching
 * session and plan, the purchase is activated and the URL cleaned;
 * paymentMessage=cancel says 'Payment cancelled'.
 *
 * Rendered on the server with its plans and the visitor's parity (issue 17):
 * without JavaScript a signed-out visitor's Get Lifetime is a link to log in.
 * Which plan the user owns is marked after hydration (the HTML depends on the
 * parity country and the signed-in state only).
 */
export function LifetimePage() {
  const { user, env, reloadUser } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const { plans, parity } = useLoaderData() as LifetimePageData;
  const hydrated = useHydrated();
  const [busyPlan, setBusyPlan] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const handled = useRef(false);
  const confirm = useBillingConfirm();

  useEffect(() => {
    const paymentMessage = searchParams.get("paymentMessage");
    if (!paymentMessage || handled.current || !user) return;
    handled.current = true;
    const sessionId = searchParams.get("session_id");
    const planId = searchParams.get("planId");
    const clean = () =>
      setSearchParams(
        (params) => {
          for (const name of PAYMENT_PARAMS) params.delete(name);
          return params;
        },
        { replace: true },
      );
    if (paymentMessage === "cancel") {
      setNotice({ kind: "info", text: "Payment cancelled" });
      clean();
      return;
    }
    if (paymentMessage !== "success" || !sessionId || !planId) return clean();
    setNotice({ kind: "info", text: "Activating your purchase…" });
    activateLifetime(sessionId, planId)
      .then(({ paymentDetails }) => {
        setNotice({ kind: "success", text: `Thank you! Your ${paymentDetails.planName} plan is now active.` });
        reloadUser();
        window.setTimeout(() => setNotice((current) => (current?.kind === "success" ? null : current)), SUCCESS_MS);
      })
      .catch((error) => setNotice({ kind: "error", text: "There was an error activating your subscription.", detail: serverMessage(error) }))
      .finally(clean);
  }, [searchParams, setSearchParams, user, reloadUser]);

  async function getLifetime(plan: LifetimePlan) {
    if (!user) return;
    setBusyPlan(plan.planId);
    setNotice(null);
    let tab: Window | null = null;
    try {
      // Before paying: what happens to the current plan and this month's credits (decision 082).
      if (!(await confirm.askPlanChange({ planId: plan.planId }, "Continue to payment"))) {
        setBusyPlan(null);
        return;
      }
      // A tab opened after the server answers would be blocked as a popup: open it while the click (or the
      // confirmation's) still counts, point it at the payment page later.
      tab = isTestConfiguration(env.appEnv) ? window.open("", "_blank") : null;
      const { redirectUrl } = await startLifetimePayment(plan, "/lifetime");
      if (tab) {
        tab.location.href = redirectUrl;
        setBusyPlan(null);
      } else {
        window.location.assign(redirectUrl);
      }
    } catch (error) {
      tab?.close();
      setNotice({ kind: "error", text: "Error making payment", detail: serverMessage(error) });
      setBusyPlan(null);
    }
  }

  const owned = hydrated && user?.planId && user.planStatus === "Active" ? user.planId : null;

  return (
    <main className="page billing-page">
      <header className="billing-page__header">
        <h1>Lifetime plan</h1>
        <p className="muted">Pay once and keep your monthly pin credits for good.</p>
        <ParityNote parity={parity} />
      </header>
      {notice && <NoticeBox notice={notice} />}
      {plans.length === 0 && (
        <p>
          No lifetime plan is on offer right now. See our <Link to="/pricing">monthly and annual plans</Link>.
        </p>
      )}
      <ul className="plan-grid plan-grid--lifetime" aria-label="Lifetime plans">
        {plans.map((plan) => (
          <li key={plan.planId} className="plan-card plan-card--lifetime">
            <img className="plan-card__image" src={plan.planImage} alt="" width={56} height={56} />
            <h2 className="plan-card__name">{plan.planName}</h2>
            <p className="plan-card__price">
              {/* With pricing parity, the full price is the one struck through (checkout charges the adjusted one). */}
              {!parity && plan.previousPrice > plan.amount && (
                <>
                  {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the struck-through price is named in words ("Was $99"), as on /pricing. */}
                  <s className="plan-card__original" aria-label={`Was ${priceTag(plan.previousPrice)}`}>
                    {priceTag(plan.previousPrice)}
                  </s>{" "}
                </>
              )}
              <ParityAmount amount={plan.amount} parity={parity} />
              <span className="muted"> one payment</span>
            </p>
            <ul className="plan-card__features">
              {plan.features.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
            {owned === plan.planId ? (
              <p className="plan-card__owned">You have this plan.</p>
            ) : !user ? (
              <Link className="button button--primary plan-card__button" to={LOGIN_TO_BUY}>
                Get Lifetime
              </Link>
            ) : (
              <button type="button" className="button button--primary plan-card__button" disabled={busyPlan !== null} onClick={() => getLifetime(plan)}>
                {busyPlan === plan.planId ? "Opening payment…" : "Get Lifetime"}
              </button>
            )}
          </li>
        ))}
      </ul>
      <p className="billing-refunds">Refunds are not offered: the Lifetime plan is a one-off payment.</p>
      {confirm.dialog}
    </main>
  );
}
