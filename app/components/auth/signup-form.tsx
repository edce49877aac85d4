import { useState } from "react";
import { LEAD_SOURCES, SignupBody } from "../../../contracts/accounts/auth.ts";
import { recordAffiliateSignUp } from "../../lib/affiliate.ts";
import { useAuth } from "../../lib/auth.tsx";
import { FormAlert, FormStatus, NewPasswordField, SelectField, SubmitButton, TextField } from "./form-controls.tsx";
import { OrSignInWithGoogle } from "./google-sign-in-button.tsx";
import { SIGNUP_ALERT } from "./signup-alert.tsx";
import { text, useAccountForm } from "./use-account-form.ts";

const LABELS = {
  firstName: "First name",
  lastName: "Last name",
  email: "E-mail",
  password: "Password",
  leadSource: "How did you hear about us?",
  leadSourceOther: "Where did you hear about us?",
};

/**
 * The sign-up form (spec section 3's signup payload). Used by /signup and by
 * the AuthDialog; `created` is false only when Google signed in an account
 * that already existed.
 */
export function SignupForm({ onSuccess }: { onSuccess(result: { created: boolean }): void }) {
  const { signUp } = useAuth();
  const form = useAccountForm({ schema: SignupBody, labels: LABELS });
  const [leadSource, setLeadSource] = useState("");
  // The address already had an account: its owner was e-mailed, and the form says what a new account is told.
  const [checkEmail, setCheckEmail] = useState(false);
  // A new account made through an affiliate's link is that affiliate's customer (issue 16).
  const signedUp = async (result: { created: boolean }) => {
    if (result.created) await recordAffiliateSignUp();
    onSuccess(result);
  };

  const submit = form.onSubmit(
    (data) => {
      const source = text(data, "leadSource");
      return {
        firstName: text(data, "firstName"),
        lastName: text(data, "lastName"),
        email: text(data, "email"),
        password: text(data, "password"),
        ...(source ? { leadSource: source } : {}),
        ...(source === "Other" ? { leadSourceOther: text(data, "leadSourceOther") } : {}),
      };
    },
    async (fields) => {
      if ((await signUp(fields)).signedIn) await signedUp({ created: true });
      else setCheckEmail(true);
    },
  );

  if (checkEmail) {
    return (
      <div className="auth-form">
        <FormStatus kind="info">{SIGNUP_ALERT}</FormStatus>
      </div>
    );
  }

  return (
    <div className="auth-form">
      <form method="post" noValidate onSubmit={submit} onInput={form.onInput} aria-label="Sign up with e-mail">
        {form.general ? <FormAlert>{form.general}</FormAlert> : null}
        <div className="field-row">
          <TextField label={LABELS.firstName} name="firstName" autoComplete="given-name" error={form.errors.firstName} />
          <TextField label={LABELS.lastName} name="lastName" autoComplete="family-name" error={form.errors.lastName} />
        </div>
        <TextField label={LABELS.email} name="email" type="email" autoComplete="email" inputMode="email" error={form.errors.email} />
        <NewPasswordField label={LABELS.password} error={form.errors.password} />
        <SelectField
          label={LABELS.leadSource}
          name="leadSource"
          value={leadSource}
          onChange={(event) => setLeadSource(event.target.value)}
          error={form.errors.leadSource}
        >
          <option value="">Choose one (optional)</option>
          {LEAD_SOURCES.map((source) => (
            <option key={source} value={source}>
              {source}
            </option>
          ))}
        </SelectField>
        {leadSource === "Other" ? (
          <TextField label={LABELS.leadSourceOther} name="leadSourceOther" maxLength={200} error={form.errors.leadSourceOther} />
        ) : null}
        <SubmitButton pending={form.pending} className="button--block">
          Create account
        </SubmitButton>
      </form>
      <OrSignInWithGoogle label="Sign up with Google" onSuccess={signedUp} onError={form.setGeneral} />
    </div>
  );
}
