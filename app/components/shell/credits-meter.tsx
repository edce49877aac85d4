import { Link } from "@remix-run/react";
import type { CreditsSummary } from "../../../contracts/billing/credits.ts";
import { UPGRADE_URL } from "../../../contracts/billing/credits.ts";
import { creditCount, creditMeter, type CreditMeter } from "../../../workers/domain/credit-meter.ts";
import { useCredits } from "../../lib/credits.ts";

/**
 * The month's pin credits in sight (issue 13): a small count in the navbar's
 * account area, and a panel on /generate with a gentle warning near the end of
 * the month's credits and the upgrade link once they are used up. Both read
 * the same store (app/lib/credits.ts), refreshed after every charge.
 */

/** What the count says to a screen reader (and the e2e tests). */
export function creditsSentence(meter: CreditMeter): string {
  return `${creditCount(meter.used)} of ${creditCount(meter.total)} pin credits used this month`;
}

/** The day credits start again, in the user's own time zone. */
function restartDay(summary: CreditsSummary): string {
  return new Date(summary.periodEnd).toLocaleDateString("en-GB", { day: "numeric", month: "long" });
}

/** The navbar's count: used/month, linking to the plan (or to the plans once credits are used up). */
export function NavCredits() {
  const summary = useCredits();
  if (!summary) return null;
  const meter = creditMeter(summary);
  const standing = meter.standing === "out" ? ". Upgrade your plan for more" : meter.standing === "low" ? ". Running low" : "";
  return (
    <Link className={`credits-pill credits-pill--${meter.standing}`} to={meter.standing === "out" ? UPGRADE_URL : "/pricing#manage"} data-testid="nav-credits">
      <CoinIcon />
      <span aria-hidden="true">
        {creditCount(meter.used)}/{creditCount(meter.total)}
        <span className="credits-pill__word"> credits</span>
      </span>
      <span className="visually-hidden">
        {creditsSentence(meter)}
        {standing}
      </span>
    </Link>
  );
}

/** /generate's panel: used of the month's credits with a bar, when they start again, and the warning or upgrade link. */
export function CreditsPanel() {
  const summary = useCredits();
  if (!summary) return null;
  const meter = creditMeter(summary);
  const percentUsed = meter.total > 0 ? Math.min(100, Math.round((meter.used / meter.total) * 100)) : 100;
  return (
    <section className={`credits-panel credits-panel--${meter.standing}`} aria-labelledby="credits-panel-text">
      <p className="credits-panel__text" id="credits-panel-text">
        <strong>{creditsSentence(meter)}</strong>
        <span className="credits-panel__restart"> · Credits start again on {restartDay(summary)}.</span>
      </p>
      <div
        className="credits-panel__bar"
        role="progressbar"
        aria-labelledby="credits-panel-text"
        aria-valuemin={0}
        aria-valuemax={meter.total}
        aria-valuenow={meter.used}
      >
        <span className="credits-panel__fill" style={{ width: `${percentUsed}%` }} />
      </div>
      <div role="status" className="credits-panel__note">
        {meter.standing === "low" ? (
          <p>
            Only {creditCount(meter.remaining)} {meter.remaining === 1 ? "credit" : "credits"} left this month. <Link to={UPGRADE_URL}>Upgrade your plan</Link>{" "}
            for more.
          </p>
        ) : meter.standing === "out" ? (
          <p>
            You have used this month&apos;s pin credits. <Link to={UPGRADE_URL}>Upgrade your plan</Link> to download and schedule more pins now.
          </p>
        ) : null}
      </div>
    </section>
  );
}

function CoinIcon() {
  return (
    <svg className="credits-pill__icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        d="M12 7v10M9.5 9.5h3.75a1.75 1.75 0 0 1 0 3.5h-2.5a1.75 1.75 0 0 0 0 3.5H14.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}
