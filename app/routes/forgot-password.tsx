import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { ForgotPasswordBody } from "../../contracts/accounts/auth.ts";
import { FormAlert, FormStatus, SubmitButton, TextField } from "../components/auth/form-controls.tsx";
import { text, useAccountForm } from "../components/auth/use-account-form.ts";
import { apiJson } from "../lib/api-client.ts";
import { signedOutOnly } from "../lib/signed-out-only.server.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Forgot your password? | Pinboard Studio" }];

const LABELS = { email: "E-mail" };

export const loader = signedOutOnly;

export default function ForgotPasswordPage() {
  const form = useAccountForm({ schema: ForgotPasswordBody, labels: LABELS });
  const [requested, setRequested] = useState<string | null>(null);

  const submit = form.onSubmit(
    (data) => ({ email: text(data, "email") }),
    async (body) => {
      // The server answers the same whether or not the address has an account.
      const answer = await apiJson<{ message: string }>("/api/user/forgotPassword", { json: body });
      setRequested(answer.message);
    },
  );

  return (
    <main className="page auth-page">
      <div className="card auth-card">
        <h1>Forgot your password?</h1>
        {requested ? (
          <>
            <FormStatus>{requested}</FormStatus>
            <p>If an account uses this address, an e-mail with a link to choose a new password is on its way. The link works once, for one hour.</p>
            <p>
              <Link to="/login">Back to login</Link>
            </p>
          </>
        ) : (
          <>
            <p className="muted">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
            <form method="post" noValidate onSubmit={submit} onInput={form.onInput} aria-label="Ask for a password reset link">
              {form.general ? <FormAlert>{form.general}</FormAlert> : null}
              <TextField label={LABELS.email} name="email" type="email" autoComplete="email" inputMode="email" error={form.errors.email} />
              <SubmitButton pending={form.pending} className="button--block">
                Send reset link
              </SubmitButton>
            </form>
            <p className="auth-card__switch">
              Remembered it? <Link to="/login">Log in</Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
