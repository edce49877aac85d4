import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { UserCredentials } from "../../contracts/accounts/user.ts";
import { planStatusText, useCurrentSubscription } from "../components/billing/plan-status.ts";
import { DeleteAccount } from "../components/account/delete-account.tsx";
import { ProfileDetailsForm } from "../components/account/profile-details-form.tsx";
import { ProfilePhoto } from "../components/account/profile-photo.tsx";
import { ReferralCard } from "../components/referrals/referral-card.tsx";
import { WordPressKeyCard } from "../components/wordpress/wordpress-key-card.tsx";
import { ResendVerificationButton } from "../components/auth/email-verification.tsx";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { creditMeter } from "../../workers/domain/credit-meter.ts";
import { effectivePlanId, planDisplayName, planStatusLabel } from "../../workers/domain/plans.ts";
import { creditsSentence } from "../components/shell/credits-meter.tsx";
import { useAuth } from "../lib/auth.tsx";
import { useCredits } from "../lib/credits.ts";
import { inviteLinkFor } from "../lib/referrals.ts";
import { useReferralCode } from "../components/referrals/use-referral-code.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Your profile | Pinboard Studio" }];

/** The site's own origin, for the invite link (the same on the server and in the browser). */
export function loader({ request }: LoaderFunctionArgs) {
  return { origin: new URL(request.url).origin };
}

/** /profile: the account blocks and the referral block when signed in, a sign-in block otherwise (spec section 2). */
export default function ProfilePage() {
  const { user } = useAuth();
  const { origin } = useLoaderData<typeof loader>();
  const referralCode = useReferralCode(user);
  if (!user) {
    return (
      <main className="page page--narrow account-page">
        <h1>Your profile</h1>
        <LoginPrompt action="view your profile" />
      </main>
    );
  }
  return (
    <main className="page account-page">
      <header className="account-page__header">
        <h1>Your profile</h1>
        <p className="muted">
          Signed in as {user.firstName} {user.lastName} · <Link to={`/users/${user.handle}`}>@{user.handle}</Link>
        </p>
      </header>
      <div className="profile-grid">
        <ProfilePhoto user={user} />
        <ProfileDetailsForm user={user} />
        <EmailBlock user={user} />
        <PlanBlock user={user} />
        {referralCode ? <ReferralCard inviteLink={inviteLinkFor(origin, referralCode)} referralCode={referralCode} /> : null}
        <WordPressKeyCard shownKey={user.wordpressAccessKey} />
        <DeleteAccount />
      </div>
    </main>
  );
}

function EmailBlock({ user }: { user: UserCredentials }) {
  return (
    <section className="card profile-block" aria-labelledby="email-title">
      <h2 id="email-title">E-mail</h2>
      <p className="email-line">
        <span className="email-line__address">{user.email}</span>
        {user.isEmailVerified ? <span className="badge badge--success">Verified</span> : <span className="badge badge--warning">Not verified</span>}
      </p>
      {user.isEmailVerified ? null : (
        <>
          <p className="muted">Open the link we e-mailed you to verify this address.</p>
          <ResendVerificationButton variant="ghost" />
        </>
      )}
    </section>
  );
}

/**
 * Spec section 4: a subscription is active when planStatus is 'Active' or the
 * cancel date is in the future; otherwise the user is on Free (issue 13: shown
 * as Free, not Inactive).
 */
function PlanBlock({ user }: { user: UserCredentials }) {
  const now = Date.now();
  const cancelDate = user.cancelSubscriptionDate ? new Date(user.cancelSubscriptionDate) : null;
  const status = planStatusLabel(user, now);
  const active = status !== "Free";
  const credits = useCredits();
  // Which record decides the plan: months given by a code or a referral read "Redeemed · ends ...", not "Cancelled".
  const subscription = useCurrentSubscription(`${user.planId}|${user.planStatus}|${user.cancelSubscriptionDate}`);
  const statusText = planStatusText(user, subscription, now);
  return (
    <section className="card profile-block" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan</h2>
      <dl className="facts">
        {active ? (
          <>
            <div>
              <dt>Plan</dt>
              <dd>{planDisplayName(effectivePlanId(user, now))}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd data-testid="profile-plan-status">
                {statusText ?? "Checking…"}
                {statusText === "Cancelled" && cancelDate ? ` (active until ${formatDate(cancelDate)})` : null}
              </dd>
            </div>
          </>
        ) : (
          // Free says it once: a status of "Free" under a plan of "Free" told nothing (issue 40 point 6).
          <div>
            <dt>Plan</dt>
            <dd data-testid="profile-plan-status">{statusText === "Suspended" ? "Free (your subscription is suspended)" : "Free"}</dd>
          </div>
        )}
        {credits ? (
          <div>
            <dt>Pin credits</dt>
            <dd>{creditsSentence(creditMeter(credits))}</dd>
          </div>
        ) : null}
      </dl>
      <p>
        <Link className="button button--ghost" to="/pricing">
          {active ? "Change plan" : "See plans"}
        </Link>
      </p>
    </section>
  );
}

/** A date the same on the server and in the browser (no local time zone). */
function formatDate(date: Date) {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}
