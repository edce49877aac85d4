import { Link, useLocation } from "@remix-run/react";
import { useState, type MouseEvent } from "react";
import type { AuthMode } from "../auth/auth-dialog.tsx";
import { Spinner } from "../spinner.tsx";
import { loginHref } from "./nav-links.ts";
import { LazyPart, lazyWithTimeout } from "../lazy-part.tsx";

// The dialog's code (and the login form's) loads when a visitor first points at or chooses Login or Sign Up.
const loadAuthDialog = () => import("../auth/auth-dialog.tsx");
const AuthDialog = lazyWithTimeout(() => loadAuthDialog().then((module) => ({ default: module.AuthDialog })));

/** A plain click (not a new tab or window, not a download): the dialog takes it; any other goes to the page. */
function isPlainClick(event: MouseEvent) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * What a logged-out visitor sees on a page that needs an account (spec section
 * 2), e.g. <LoginPrompt action="edit scheduling settings" /> reads
 * "Login or sign up to edit scheduling settings." Login and Sign Up open the
 * AuthDialog over the page (spec section 2: login and sign-up can appear in a
 * dialog with a Cancel button): after logging in the visitor stays on this page,
 * which then shows what it is for; after signing up they go to /onboarding.
 * They stay links to /login (which brings them back here) and /signup: before
 * the page's scripts run, and for a new tab, they lead to those pages. Routes
 * that show it link app/styles/account.css, which styles the forms.
 */
export function LoginPrompt({ action }: { action: string }) {
  const location = useLocation();
  const [dialog, setDialog] = useState<AuthMode | null>(null);

  const open = (mode: AuthMode) => (event: MouseEvent) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    setDialog(mode);
  };
  const preload = () => void loadAuthDialog();

  return (
    <section className="login-prompt" aria-label="Sign in required">
      <p className="login-prompt__text">Login or sign up to {action}.</p>
      <div className="login-prompt__actions">
        <Link className="button button--primary" to={loginHref(location)} onClick={open("login")} onPointerEnter={preload} onFocus={preload}>
          Login
        </Link>
        <Link className="button button--ghost" to="/signup" onClick={open("signup")} onPointerEnter={preload} onFocus={preload}>
          Sign Up
        </Link>
      </div>
      {dialog ? (
        <LazyPart fallback={<Spinner label={dialog === "login" ? "Loading the login form" : "Loading the sign-up form"} />}>
          <AuthDialog mode={dialog} open onOpenChange={(open) => (open ? undefined : setDialog(null))} />
        </LazyPart>
      ) : null}
    </section>
  );
}

/** A page that needs an account, as a logged-out visitor sees it: its title and the prompt. */
export function SignInPage({ title, action }: { title: string; action: string }) {
  return (
    <main className="page page--narrow">
      <h1>{title}</h1>
      <LoginPrompt action={action} />
    </main>
  );
}
