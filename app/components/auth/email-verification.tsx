import { useState, type ReactNode } from "react";
import { apiJson, ApiError } from "../../lib/api-client.ts";
import { FormAlert, FormStatus, PendingButton } from "./form-controls.tsx";
import { problemMessage } from "./use-account-form.ts";

const LINK_SENT = "Email verification link sent";
const LINK_NOT_SENT = "Unable to send email verification link";

type ResendState = { kind: "idle" } | { kind: "pending" } | { kind: "sent" } | { kind: "failed"; reason: string | null };

/** Sends the verification e-mail again and says how it went (spec section 8's messages). */
export function ResendVerificationButton({ variant = "primary" }: { variant?: "primary" | "ghost" }) {
  const [state, setState] = useState<ResendState>({ kind: "idle" });

  async function resend() {
    setState({ kind: "pending" });
    try {
      await apiJson("/api/user/sendEmailVerificationLink", { method: "POST" });
      setState({ kind: "sent" });
    } catch (error) {
      // The spec's message, plus the server's reason when it says more (a rate limit, already verified).
      const reason = error instanceof ApiError && error.message === LINK_NOT_SENT ? null : problemMessage(error);
      setState({ kind: "failed", reason });
    }
  }

  return (
    <div className="resend-verification">
      <PendingButton variant={variant} pending={state.kind === "pending"} onClick={resend}>
        Resend verification e-mail
      </PendingButton>
      {state.kind === "sent" ? <FormStatus>{LINK_SENT}</FormStatus> : null}
      {state.kind === "failed" ? (
        <FormAlert>
          {LINK_NOT_SENT}
          {state.reason ? <span className="notice__detail">{state.reason}</span> : null}
        </FormAlert>
      ) : null}
    </div>
  );
}

/**
 * What a signed-in user whose e-mail is not verified sees where verification is
 * needed (/verify-email; /generate, spec section 2).
 */
export function EmailVerificationScreen({ email }: { email: string }) {
  return (
    <section className="card verification-screen" aria-labelledby="verification-title">
      <svg className="verification-screen__icon" viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zm0 4.24-8 5-8-5V6l8 5 8-5v2.24z" />
      </svg>
      <h1 id="verification-title">Verify your e-mail address</h1>
      <p>
        Check your inbox: we sent a verification link to <strong>{email}</strong>. Open it to finish setting up your account.
      </p>
      <p className="muted">Nothing there? Look in your spam folder, or send the link again.</p>
      <ResendVerificationButton />
    </section>
  );
}

/** Where something waits for a verified address (decisions 079 and 080): what waits, and the link sent again. */
export function VerifyFirstNotice({ children }: { children: ReactNode }) {
  return (
    <div className="notice notice--info verify-first">
      <p>{children}</p>
      <ResendVerificationButton variant="ghost" />
    </div>
  );
}
