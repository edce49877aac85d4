import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { OnboardingChecklist } from "../components/account/onboarding-checklist.tsx";
import { SignupAlert } from "../components/auth/signup-alert.tsx";
import { FriendsGiftNotice } from "../components/referrals/friends-gift-notice.tsx";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { useAuth } from "../lib/auth.tsx";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Get started | Pinboard Studio" }];

/** /onboarding: the 8-step checklist (spec section 2), where sign-up lands. */
export default function OnboardingPage() {
  const { user } = useAuth();
  return (
    <main className="page page--narrow account-page">
      <h1>Get started with Pinboard Studio</h1>
      {user ? (
        <>
          <SignupAlert />
          <FriendsGiftNotice />
          <p className="lead">
            Welcome, {user.firstName}! Eight steps take you from a new account to pins that post themselves. Tick a step off when it is done.
          </p>
          <OnboardingChecklist steps={user.onboardingChecklist} />
        </>
      ) : (
        <LoginPrompt action="see your onboarding checklist" />
      )}
    </main>
  );
}
