import { Link, useLocation } from "@remix-run/react";
import { loginHref } from "./nav-links.ts";

/**
 * What a logged-out visitor sees on a page that needs an account (spec section
 * 2), e.g. <LoginPrompt action="edit scheduling settings" /> reads
 * "Login or sign up to edit scheduling settings." Login brings them back here.
 */
export function LoginPrompt({ action }: { action: string }) {
  const location = useLocation();
  return (
    <section className="login-prompt" aria-label="Sign in required">
      <p className="login-prompt__text">Login or sign up to {action}.</p>
      <div className="login-prompt__actions">
        <Link className="button button--primary" to={loginHref(location)}>
          Login
        </Link>
        <Link className="button button--ghost" to="/signup">
          Sign Up
        </Link>
      </div>
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
