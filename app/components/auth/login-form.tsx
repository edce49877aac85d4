import { Link } from "@remix-run/react";
import { LoginBody } from "../../../contracts/accounts/auth.ts";
import { useAuth } from "../../lib/auth.tsx";
import { FormAlert, SubmitButton, TextField } from "./form-controls.tsx";
import { OrSignInWithGoogle } from "./google-sign-in-button.tsx";
import { text, useAccountForm } from "./use-account-form.ts";

const LABELS = { email: "E-mail", password: "Password" };

/**
 * The login form: e-mail and password, or Google. Used by /login and by the
 * AuthDialog; the host decides where to go on success (`created` is true when
 * Google made a new account).
 */
export function LoginForm({ onSuccess }: { onSuccess(result: { created: boolean }): void }) {
  const { logIn } = useAuth();
  const form = useAccountForm({ schema: LoginBody, labels: LABELS });

  const submit = form.onSubmit(
    (data) => ({ email: text(data, "email"), password: text(data, "password") }),
    async ({ email, password }) => {
      await logIn(email, password);
      onSuccess({ created: false });
    },
  );

  return (
    <div className="auth-form">
      <form method="post" noValidate onSubmit={submit} onInput={form.onInput} aria-label="Log in with e-mail">
        {form.general ? <FormAlert>{form.general}</FormAlert> : null}
        <TextField label={LABELS.email} name="email" type="email" autoComplete="email" inputMode="email" error={form.errors.email} />
        <TextField label={LABELS.password} name="password" type="password" autoComplete="current-password" error={form.errors.password} />
        <p className="auth-form__aside">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
        <SubmitButton pending={form.pending} className="button--block">
          Log in
        </SubmitButton>
      </form>
      <OrSignInWithGoogle onSuccess={onSuccess} onError={form.setGeneral} />
    </div>
  );
}
