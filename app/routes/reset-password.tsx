import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import * as v from "valibot";
import { ResetPasswordBody } from "../../contracts/accounts/auth.ts";
import { FormAlert, FormStatus, NewPasswordField, SubmitButton, TextField } from "../components/auth/form-controls.tsx";
import { text, useAccountForm } from "../components/auth/use-account-form.ts";
import { apiJson } from "../lib/api-client.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Choose a new password | Pinboard Studio" }];

const LABELS = { password: "New password", confirmPassword: "Confirm new password" };

/** The reset call's body plus the confirmation, which must match. */
const ResetPasswordForm = v.pipe(
  v.object({ ...ResetPasswordBody.entries, confirmPassword: v.string() }),
  v.forward(
    v.partialCheck([["password"], ["confirmPassword"]], (input) => input.password === input.confirmPassword, "The passwords do not match."),
    ["confirmPassword"],
  ),
);

export default function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token") ?? "";
  const form = useAccountForm({ schema: ResetPasswordForm, labels: LABELS });
  const [done, setDone] = useState<string | null>(null);

  const submit = form.onSubmit(
    (data) => ({ token, password: text(data, "password"), confirmPassword: text(data, "confirmPassword") }),
    async ({ password }) => {
      const answer = await apiJson<{ message: string }>("/api/user/resetPassword", { json: { token, password } });
      setDone(answer.message);
    },
  );

  return (
    <main className="page auth-page">
      <div className="card auth-card">
        <h1>Choose a new password</h1>
        {!token ? (
          <>
            <FormAlert>This password reset link is incomplete. Please open the link from the e-mail again, or ask for a new one.</FormAlert>
            <p>
              <Link to="/forgot-password">Ask for a new reset link</Link>
            </p>
          </>
        ) : done ? (
          <>
            <FormStatus>{done}</FormStatus>
            <p>
              <Link className="button button--primary" to="/login">
                Log in
              </Link>
            </p>
          </>
        ) : (
          <form method="post" noValidate onSubmit={submit} onInput={form.onInput} aria-label="Choose a new password">
            {form.general ? (
              <FormAlert>
                {form.general} <Link to="/forgot-password">Ask for a new reset link</Link>
              </FormAlert>
            ) : null}
            <NewPasswordField label={LABELS.password} error={form.errors.password} />
            <TextField label={LABELS.confirmPassword} name="confirmPassword" type="password" autoComplete="new-password" error={form.errors.confirmPassword} />
            <SubmitButton pending={form.pending} className="button--block">
              Set new password
            </SubmitButton>
          </form>
        )}
      </div>
    </main>
  );
}
