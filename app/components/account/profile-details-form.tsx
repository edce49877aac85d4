import { Link } from "@remix-run/react";
import { UserUpdatesBody, type UserCredentials } from "../../../contracts/accounts/user.ts";
import { apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { FormAlert, SubmitButton, TextField } from "../auth/form-controls.tsx";
import { text, useAccountForm } from "../auth/use-account-form.ts";
import { useToast } from "../shell/toast.tsx";

const LABELS = { firstName: "First name", lastName: "Last name", handle: "Handle" };

/** First and last name and the public @handle (POST /api/user {updates}). */
export function ProfileDetailsForm({ user }: { user: UserCredentials }) {
  const { reloadUser } = useAuth();
  const { toast } = useToast();
  const form = useAccountForm({ schema: UserUpdatesBody, labels: LABELS, fieldPrefix: "updates." });

  const submit = form.onSubmit(
    (data) => ({ updates: { firstName: text(data, "firstName"), lastName: text(data, "lastName"), handle: text(data, "handle") } }),
    async (body) => {
      await apiJson("/api/user", { json: body });
      toast({ title: "Profile saved.", kind: "success" });
      reloadUser();
    },
  );

  return (
    <section className="card profile-block" aria-labelledby="details-title">
      <h2 id="details-title">Your details</h2>
      <form method="post" noValidate onSubmit={submit} onInput={form.onInput} aria-labelledby="details-title">
        {form.general ? <FormAlert>{form.general}</FormAlert> : null}
        <div className="field-row">
          <TextField label={LABELS.firstName} name="firstName" autoComplete="given-name" defaultValue={user.firstName} error={form.errors.firstName} />
          <TextField label={LABELS.lastName} name="lastName" autoComplete="family-name" defaultValue={user.lastName} error={form.errors.lastName} />
        </div>
        <TextField
          label={LABELS.handle}
          name="handle"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={user.handle}
          hint={
            <>
              3-30 letters, digits, dots or underscores. Your public profile: <Link to={`/users/${user.handle}`}>/users/{user.handle}</Link>
            </>
          }
          error={form.errors.handle}
        />
        <SubmitButton pending={form.pending}>Save changes</SubmitButton>
      </form>
    </section>
  );
}
