import * as v from "valibot";
import { body, plainText } from "../fields.ts";

/** Spec section 8: the feedback dialog's alerts. */
export const FEEDBACK_SENT = "Message Sent.";
export const FEEDBACK_FAILED = "Message failed to send.";
/** Spec section 5: 'I would like a response' needs a valid address. */
export const FEEDBACK_EMAIL_INVALID = "Please enter a valid email.";
export const FEEDBACK_TEXT_REQUIRED = "Please write your message.";
export const FEEDBACK_TEXT_MAX_LENGTH = 5000;

const isEmail = (value: string) => v.is(v.pipe(v.string(), v.maxLength(254), v.email()), value);

/**
 * POST /api/sendEmail {feedbackText, userEmail} (spec section 7). The text is
 * required; userEmail is empty or absent when no response is wanted, and a
 * valid address otherwise.
 */
export const SendEmailBody = body({
  feedbackText: v.pipe(
    v.string("feedbackText must be text"),
    plainText,
    v.trim(),
    v.nonEmpty(FEEDBACK_TEXT_REQUIRED),
    v.maxLength(FEEDBACK_TEXT_MAX_LENGTH, `Please keep your message under ${FEEDBACK_TEXT_MAX_LENGTH} characters.`),
  ),
  userEmail: v.optional(
    v.pipe(
      v.nullable(v.string("userEmail must be text")),
      v.transform((value) => value?.trim().toLowerCase() ?? ""),
      v.check((value) => value === "" || isEmail(value), FEEDBACK_EMAIL_INVALID),
    ),
    "",
  ),
});
export type SendEmailBody = v.InferOutput<typeof SendEmailBody>;

export interface SendEmailAnswer {
  status: "success" | "fail";
}

/** What the feedback dialog holds. */
export interface FeedbackForm {
  feedbackText: string;
  wantsResponse: boolean;
  userEmail: string;
}

/**
 * The dialog's form as the API body, or the field at fault and its message:
 * the same schema as the server's, plus the dialog's own rule that ticking
 * 'I would like a response' makes the address required.
 */
export function feedbackRequest(form: FeedbackForm): { body: SendEmailBody } | { field: keyof FeedbackForm; message: string } {
  if (form.wantsResponse && !form.userEmail.trim()) return { field: "userEmail", message: FEEDBACK_EMAIL_INVALID };
  const parsed = v.safeParse(SendEmailBody, { feedbackText: form.feedbackText, userEmail: form.wantsResponse ? form.userEmail : "" });
  if (parsed.success) return { body: parsed.output };
  const issue = parsed.issues[0];
  return { field: v.getDotPath(issue) === "userEmail" ? "userEmail" : "feedbackText", message: issue.message };
}
