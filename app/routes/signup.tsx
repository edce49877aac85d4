import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { NavLink, useNavigate } from "@remix-run/react";
import { SIGNED_UP_STATE } from "../components/auth/signup-alert.tsx";
import { SignupForm } from "../components/auth/signup-form.tsx";
import type { ShellHandle } from "../components/shell/handle.ts";
import { AnonymousShopifyNotice } from "../components/shops/anonymous-shopify-notice.tsx";
import { Spinner } from "../components/spinner.tsx";
import { signedOutOnly } from "../lib/signed-out-only.server.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Sign up | Pinboard Studio" }];
// Spec section 2: signup shows navbar and footer, with no popup and no cookie consent.
export const handle = { shell: { newsletterPopup: false, cookieBanner: false } } satisfies { shell: ShellHandle };

export const loader = signedOutOnly;

export default function SignupPage() {
  const navigate = useNavigate();

  // After signup the user goes to /onboarding (spec section 2); Google may sign in an existing account instead.
  function signedUp({ created }: { created: boolean }) {
    if (created) navigate("/onboarding", { replace: true, state: SIGNED_UP_STATE });
    else navigate("/", { replace: true });
  }

  return (
    <main className="page auth-page">
      <div className="card auth-card">
        <h1>Create your free account</h1>
        <p className="muted">10 free pins a month, no card needed.</p>
        <AnonymousShopifyNotice />
        <SignupForm onSuccess={signedUp} />
        <p className="auth-card__switch">
          Already have an account?{" "}
          <NavLink to="/login" className="pending-link">
            {({ isPending }) => (
              <>
                Log in
                {isPending ? <Spinner label="Loading the login page" /> : null}
              </>
            )}
          </NavLink>
        </p>
      </div>
    </main>
  );
}
