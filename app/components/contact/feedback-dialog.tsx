import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { FEEDBACK_FAILED, FEEDBACK_SENT, feedbackRequest, type FeedbackForm, type SendEmailAnswer } from "../../../contracts/accounts/feedback.ts";
import { ApiError, apiJson } from "../../lib/api-client.ts";
import { TextAreaField, TextField } from "../auth/form-controls.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { useToast } from "../shell/toast.tsx";

/** Spec section 4: the feedback dialog closes 1 s after submit and resets its fields. */
export const FEEDBACK_DIALOG_CLOSE_MS = 1_000;

const EMPTY: FeedbackForm = { feedbackText: "", wantsResponse: false, userEmail: "" };

/**
 * The contact page's feedback dialog (spec sections 2, 5, 7, 8): a message,
 * 'I would like a response' and then an address, checked with the API's own
 * schema, sent with POST /api/sendEmail. The result is a toast ('Message
 * Sent.' / 'Message failed to send.') and the dialog closes 1 s after the
 * answer, emptied.
 */
export function FeedbackDialog() {
  const { toast } = useToast();
  const textId = useId();
  const wantsId = useId();
  const emailId = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<FeedbackForm>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof FeedbackForm, string>>>({});
  const [state, setState] = useState<"editing" | "sending" | "sent" | "failed">("editing");
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (closing.current) clearTimeout(closing.current);
    },
    [],
  );

  function onOpenChange(next: boolean) {
    if (!next) {
      if (closing.current) clearTimeout(closing.current);
      setForm(EMPTY);
      setErrors({});
      setState("editing");
    }
    setOpen(next);
  }

  const change = <K extends keyof FeedbackForm>(field: K, value: FeedbackForm[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const request = feedbackRequest(form);
    if (!("body" in request)) {
      setErrors({ [request.field]: request.message });
      document.getElementById(request.field === "userEmail" ? emailId : textId)?.focus();
      return;
    }
    setErrors({});
    setState("sending");
    try {
      await apiJson<SendEmailAnswer>("/api/sendEmail", { json: request.body });
      toast({ title: FEEDBACK_SENT, kind: "success" });
      setState("sent");
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400 && (failure.field === "feedbackText" || failure.field === "userEmail")) {
        setErrors({ [failure.field]: failure.message });
        setState("editing");
        return;
      }
      // A rate limit says when to try again; anything else is the spec's plain failure.
      const detail = failure instanceof ApiError && failure.status === 429 ? failure.message : undefined;
      toast({ title: FEEDBACK_FAILED, description: detail, kind: "error" });
      setState("failed");
    }
    closing.current = setTimeout(() => onOpenChange(false), FEEDBACK_DIALOG_CLOSE_MS);
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <button type="button" className="button button--primary button--large">
          Send us feedback
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog feedback-dialog">
          <Dialog.Title className="dialog__title">Send us feedback</Dialog.Title>
          <Dialog.Description className="dialog__text">
            An idea, a problem or a question: it goes straight to the people who build Pinboard Studio.
          </Dialog.Description>
          <form noValidate onSubmit={(event) => void submit(event)}>
            <TextAreaField
              id={textId}
              label="Your message"
              name="feedbackText"
              className="feedback-dialog__text"
              rows={6}
              required
              value={form.feedbackText}
              onChange={(event) => change("feedbackText", event.target.value)}
              error={errors.feedbackText}
              disabled={state !== "editing"}
            />
            <div className="feedback-dialog__check">
              <input
                id={wantsId}
                type="checkbox"
                name="wantsResponse"
                checked={form.wantsResponse}
                onChange={(event) => change("wantsResponse", event.target.checked)}
                disabled={state !== "editing"}
              />
              <label htmlFor={wantsId}>I would like a response</label>
            </div>
            {form.wantsResponse ? (
              <TextField
                id={emailId}
                label="Your email"
                name="userEmail"
                type="email"
                autoComplete="email"
                inputMode="email"
                required
                value={form.userEmail}
                onChange={(event) => change("userEmail", event.target.value)}
                error={errors.userEmail}
                disabled={state !== "editing"}
              />
            ) : null}
            <DialogActions>
              <button type="submit" className="button button--primary" disabled={state !== "editing"}>
                {state === "sending" ? "Sending…" : state === "sent" ? "Sent" : "Send"}
              </button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
