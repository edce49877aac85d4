import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState, type FormEvent } from "react";
import { NewsletterSignupBody } from "../../../contracts/accounts/user.ts";
import { subscribeToSuccessPlan, SUCCESS_PLAN_SENT } from "../../lib/newsletter.ts";
import { firstError, validateInput } from "../../lib/forms.ts";

/** The newsletter popup's dialog (NewsletterPopup in ./newsletter-popup.tsx decides when it opens). */
export default function NewsletterDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
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
    const input = validateInput(NewsletterSignupBody, { email, source: "popup" });
    if (input.errors) {
      setError(firstError(input.errors));
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
        A 30-day plan to set up your boards, design pins that get clicked and keep a posting schedule you can stick to. We e-mail you the download link, and now
        and then a short Pinterest tip.
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
