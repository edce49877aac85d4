import * as v from "valibot";

/**
 * Resend's webhook events about an e-mail we sent (https://resend.com/docs/webhooks/emails/bounced and its
 * siblings; the shapes of resend-node's `WebhookEventPayload`): `{type, created_at, data: {email_id, from, to[],
 * subject, created_at, ...}}`, with `data.bounce: {type, subType, message}` on email.bounced. Objects stay loose:
 * Resend adds fields (tags, broadcast_id, headers) that we do not read.
 */

/** Resend's bounce types (https://resend.com/docs/dashboard/emails/email-bounces): only Permanent suppresses. */
export const RESEND_BOUNCE_TYPES = ["Permanent", "Transient", "Undetermined"] as const;

const Recipients = v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(3), v.maxLength(320))), v.minLength(1), v.maxLength(50));

const EmailData = v.looseObject({
  email_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  to: Recipients,
});

/** The envelope every event has; `data` is checked per type (EmailEventData, BouncedData). */
export const ResendEvent = v.looseObject({
  type: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  created_at: v.optional(v.string()),
  data: v.looseObject({}),
});

export const EmailEventData = EmailData;

export const BouncedData = v.looseObject({
  ...EmailData.entries,
  bounce: v.looseObject({
    type: v.string(),
    subType: v.optional(v.string(), ""),
    message: v.optional(v.string(), ""),
  }),
});

export const SuppressedData = v.looseObject({
  ...EmailData.entries,
  suppressed: v.optional(v.looseObject({ type: v.optional(v.string(), ""), message: v.optional(v.string(), "") }), {}),
});

/** What our endpoint answers Resend. */
export interface EmailWebhookOutcome {
  received: true;
  /** Addresses this event suppressed (none for an event we only acknowledge). */
  suppressed: string[];
}
