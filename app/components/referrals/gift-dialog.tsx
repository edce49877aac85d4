import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { INVITE_FAILED_MESSAGE, INVITE_SENT_MESSAGE, SendReferralInviteBody } from "../../../contracts/growth/referrals.ts";
import { ApiError, apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { useToast } from "../shell/toast.tsx";
import { firstError, validateInput } from "../../lib/forms.ts";

/** Spec section 8: the gift dialog closes 1 s after success. */
export const GIFT_DIALOG_CLOSE_MS = 1_000;

/**
 * "Send gift via email" and its dialog 'Gift 1 Month via Email' (spec section
 * 2): the friend's address, checked here with the API's own schema, then
 * POST /api/referrals/sendReferralInvite. Success is a toast and the dialog
 * closes 1 s later, emptied.
 */
export function GiftDialog({ referralCode }: { referralCode: string }) {
  const { toast } = useToast();
  const { user, reloadUser } = useAuth();
  const emailId = useId();
  const errorId = useId();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [state, setState] = useState<"editing" | "sending" | "sent">("editing");
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (closing.current) clearTimeout(closing.current);
    },
    [],
  );

  function reset() {
    setEmail("");
    setError(null);
    setState("editing");
  }

  function onOpenChange(next: boolean) {
    if (!next) {
      if (closing.current) clearTimeout(closing.current);
      reset();
    }
    setOpen(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = validateInput(SendReferralInviteBody, { email, referralCode });
    if (input.errors) {
      const message = firstError(input.errors);
      setError(message === "email is required" ? "Please enter a valid email address." : message);
      return;
    }
    setError(null);
    setState("sending");
    try {
      await apiJson("/api/referrals/sendReferralInvite", { json: input.output });
      setState("sent");
      toast({ title: INVITE_SENT_MESSAGE, kind: "success" });
      // The server ticked "Gift a month to a friend": the checklist shows it.
      if (user && !user.onboardingChecklist.some((step) => step.name === "inviteFriend" && step.isChecked)) reloadUser();
      closing.current = setTimeout(() => onOpenChange(false), GIFT_DIALOG_CLOSE_MS);
    } catch (failure) {
      setState("editing");
      if (failure instanceof ApiError && failure.field === "email") setError(failure.message);
      else if (failure instanceof ApiError && failure.status === 429) toast({ title: failure.message, kind: "error" });
      else toast({ title: INVITE_FAILED_MESSAGE, kind: "error" });
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <button type="button" className="button button--ghost">
          Send gift via email
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog gift-dialog">
          <Dialog.Title className="dialog__title">Gift 1 Month via Email</Dialog.Title>
          <Dialog.Description className="dialog__text">
            We e-mail your friend your invite link. They get a free month of the Starter plan; when they subscribe, you get $16.99 off your next payment.
          </Dialog.Description>
          <form noValidate onSubmit={(event) => void submit(event)}>
            <div className="field">
              <label className="field__label" htmlFor={emailId}>
                Your friend's email
              </label>
              <input
                id={emailId}
                className="field__input"
                name="email"
                type="email"
                autoComplete="off"
                inputMode="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                disabled={state !== "editing"}
              />
              {error ? (
                <p id={errorId} className="field__error" role="alert">
                  {error}
                </p>
              ) : null}
            </div>
            <DialogActions>
              <button type="submit" className="button button--primary" disabled={state !== "editing"}>
                {state === "sending" ? "Sending…" : state === "sent" ? "Sent" : "Send gift"}
              </button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
