import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { NavLink, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { LoginForm } from "../components/auth/login-form.tsx";
import { SIGNED_UP_STATE } from "../components/auth/signup-alert.tsx";
import type { ShellHandle } from "../components/shell/handle.ts";
import { Spinner } from "../components/spinner.tsx";
import { afterLoginPath } from "../lib/auth.tsx";
import { signedOutOnly } from "../lib/signed-out-only.server.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Log in | Pinboard Studio" }];
// Spec section 2: login shows navbar and footer, with no popup and no cookie consent.
export const handle = { shell: { newsletterPopup: false, cookieBanner: false } } satisfies { shell: ShellHandle };

export const loader = signedOutOnly;

export default function LoginPage() {
  const navigate = useNavigate();
  const from = usePreviousPath();

  function loggedIn({ created }: { created: boolean }) {
    if (created) navigate("/onboarding", { replace: true, state: SIGNED_UP_STATE });
    else navigate(afterLoginPath(from.current), { replace: true });
  }

  return (
    <main className="page auth-page">
      <div className="card auth-card">
        <h1>Log in</h1>
        <p className="muted">Welcome back! Log in to pick up where you left off.</p>
        <LoginForm onSuccess={loggedIn} />
        <p className="auth-card__switch">
          New to Pinboard Studio?{" "}
          <NavLink to="/signup" className="pending-link">
            {({ isPending }) => (
              <>
                Create an account
                {isPending ? <Spinner label="Loading the sign-up page" /> : null}
              </>
            )}
          </NavLink>
        </p>
      </div>
    </main>
  );
}

/**
 * The page the visitor came from: ?redirectTo, the state a link passed, the
 * previous entry of this tab's history (client-side navigations leave
 * document.referrer unchanged), or the referrer of a full page load.
 */
function usePreviousPath() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const from = useRef<string | null>(null);
  const redirectTo = searchParams.get("redirectTo");
  const stateFrom = (location.state as { from?: unknown } | null)?.from;

  // biome-ignore lint/correctness/useExhaustiveDependencies: where the visitor came from is settled when the page opens.
  useEffect(() => {
    from.current = redirectTo ?? (typeof stateFrom === "string" ? stateFrom : null) ?? previousHistoryPath() ?? referrerPath();
  }, []);
  return from;
}

interface NavigationHistory {
  currentEntry: { index: number } | null;
  entries(): { url: string | null }[];
}

function previousHistoryPath(): string | null {
  const history = (window as unknown as { navigation?: NavigationHistory }).navigation;
  const index = history?.currentEntry?.index ?? -1;
  if (!history || index < 1) return null;
  return sameOriginPath(history.entries()[index - 1]?.url);
}

function referrerPath(): string | null {
  return sameOriginPath(document.referrer);
}

function sameOriginPath(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.origin === window.location.origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : null;
  } catch {
    return null;
  }
}
