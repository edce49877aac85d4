import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { useState } from "react";
import { NewsletterSignupBody } from "../../contracts/accounts/user.ts";
import { FormAlert, FormStatus, SubmitButton, TextField } from "../components/auth/form-controls.tsx";
import { text, useAccountForm } from "../components/auth/use-account-form.ts";
import type { ShellHandle } from "../components/shell/handle.ts";
import { subscribeToSuccessPlan, SUCCESS_PLAN_SENT } from "../lib/newsletter.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [
  { title: "Free Pinterest Success Plan | Pinboard Studio" },
  { name: "description", content: "A free 30-day plan to set up your boards, design pins that get clicked and keep a posting schedule you can stick to." },
];
// This page is the popup's offer; no need to offer it twice.
export const handle = { shell: { newsletterPopup: false } } satisfies { shell: ShellHandle };

const LABELS = { email: "E-mail" };

const PLAN = [
  "Week 1: set up a business profile and boards that Pinterest can rank.",
  "Week 2: design pins that get clicked, with templates that match your brand.",
  "Week 3: write titles and descriptions around the keywords people search for.",
  "Week 4: keep a posting schedule you can stick to, and read what worked.",
];

/** /email-signup: the newsletter's standalone page, offering the free Success plan. */
export default function EmailSignupPage() {
  const form = useAccountForm({ schema: NewsletterSignupBody, labels: LABELS });
  const [sent, setSent] = useState(false);

  const submit = form.onSubmit(
    (data) => ({ email: text(data, "email"), source: "email-signup" as const }),
    async (body) => {
      await subscribeToSuccessPlan({ email: body.email, source: "email-signup" });
      setSent(true);
    },
  );

  return (
    <main className="page email-signup">
      <section className="email-signup__offer" aria-labelledby="email-signup-title">
        <p className="eyebrow">Free download</p>
        <h1 id="email-signup-title">Your Pinterest Success Plan</h1>
        <p className="lead">A 30-day plan to grow your traffic from Pinterest, one small step a day.</p>
        <ul className="email-signup__plan">
          {PLAN.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ul>
      </section>
      <section className="card email-signup__form" aria-labelledby="email-signup-form-title">
        <h2 id="email-signup-form-title">Get the plan by e-mail</h2>
        {sent ? (
          <FormStatus>{SUCCESS_PLAN_SENT}</FormStatus>
        ) : (
          <form method="post" noValidate onSubmit={submit} onInput={form.onInput} aria-label="Get the Success Plan">
            {form.general ? <FormAlert>{form.general}</FormAlert> : null}
            <TextField label={LABELS.email} name="email" type="email" autoComplete="email" inputMode="email" error={form.errors.email} />
            <SubmitButton pending={form.pending} className="button--block">
              Send me the plan
            </SubmitButton>
            <p className="muted small">We e-mail you the download link, and now and then a short Pinterest tip. Unsubscribe at any time.</p>
          </form>
        )}
      </section>
    </main>
  );
}
