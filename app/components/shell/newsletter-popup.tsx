import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useId, useState, type FormEvent } from "react";
import * as v from "valibot";
import { NewsletterSignupBody } from "../../../contracts/user.ts";
import { subscribeToSuccessPlan, SUCCESS_PLAN_SENT } from "../../lib/newsletter.ts";
import { useAuth } from "../../lib/auth.tsx";
import { NEWSLETTER_DISMISSED_KEY, NEWSLETTER_SUBSCRIBER_KEY, readStored, writeStored } from "./browser-storage.ts";

/** Spec section 9: the newsletter popup comes after 60 s. */
export const NEWSLETTER_POPUP_DELAY_MS = 60_000;

function alreadyAnswered(): boolean {
  return readStored("local", NEWSLETTER_SUBSCRIBER_KEY) === "true" || readStored("session", NEWSLETTER_DISMISSED_KEY) !== null;
}

/**
 * The newsletter popup (spec section 2): 60 s into a visit, an unauthenticated
 * visitor who has not subscribed is offered the free Success plan. "No thanks"
 * keeps it away for the rest of the browser session. The clock runs from the
 * first page; if that moment falls on a page without the popup, it waits for
 * the next page that has one.
 */
export function NewsletterPopup({ allowedHere }: { allowedHere: boolean }) {
  const { user } = useAuth();
  const [due, setDue] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (alreadyAnswered()) return;
    const timer = setTimeout(() => setDue(true), NEWSLETTER_POPUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (due && allowedHere && !user && !alreadyAnswered()) {
      setDue(false);
      setOpen(true);
    }
  }, [due, allowedHere, user]);

  // Signing in (in another tab, or through a dialog) ends the offer.
  useEffect(() => {
    if (user) setOpen(false);
  }, [user]);

  function onOpenChange(next: boolean) {
    if (!next) writeStored("session", NEWSLETTER_DISMISSED_KEY, "true");
    setOpen(next);
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog newsletter">
          <p className="eyebrow">Free download</p>
          <Dialog.Title className="dialog__title">Get the Pinterest Success plan</Dialog.Title>
          <SuccessPlanForm />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function SuccessPlanForm() {
  const emailId = useId();
  const errorId = useId();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [state, setState] = useState<"editing" | "sending" | "sent">("editing");

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = v.safeParse(NewsletterSignupBody, { email, source: "popup" });
    if (!input.success) {
      setError(input.issues[0].message);
      return;
    }
    setError(null);
    setState("sending");
    try {
      await subscribeToSuccessPlan({ email: input.output.email, source: "popup" });
      setState("sent");
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Something went wrong. Please try again.");
      setState("editing");
    }
  }

  if (state === "sent") {
    return (
      <>
        <Dialog.Description className="dialog__text" role="status">
          {SUCCESS_PLAN_SENT}
        </Dialog.Description>
        <div className="dialog__actions">
          <Dialog.Close className="button button--primary">Close</Dialog.Close>
        </div>
      </>
    );
  }

  return (
    <>
      <Dialog.Description className="dialog__text">
        A 30-day plan to set up your boards, design pins that get clicked and keep a posting schedule you can stick to.
        We e-mail you the download link, and now and then a short Pinterest tip.
      </Dialog.Description>
      <form className="newsletter__form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="newsletter__field">
          <label htmlFor={emailId}>Email</label>
          <input
            id={emailId}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? (
            <p id={errorId} className="newsletter__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="dialog__actions">
          <Dialog.Close className="button button--ghost">No thanks</Dialog.Close>
          <button type="submit" className="button button--primary" disabled={state === "sending"}>
            {state === "sending" ? "Sending…" : "Send me the plan"}
          </button>
        </div>
      </form>
    </>
  );
}
