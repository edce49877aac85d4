import { Webhook, WebhookVerificationError } from "standardwebhooks";
import * as v from "valibot";
import { BouncedData, EmailEventData, ResendEvent, SuppressedData, type EmailWebhookOutcome } from "../../../contracts/accounts/email-events.ts";
import type { Env } from "../../env.ts";
import { ServiceError } from "../core/errors.ts";
import { normalisedAddress, suppressAddress, type SuppressionReason } from "./email-suppressions.ts";

/**
 * Resend's webhooks (decision 097): a Permanent bounce or a spam complaint stops mail to the address. Resend
 * signs them the Svix way (svix-id, svix-timestamp, svix-signature: `v1,` + base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` with the base64 key after `whsec_`, 5 minutes either way); Resend's own SDK
 * verifies them with the `standardwebhooks` package, and so do we.
 */

export interface SvixHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

/** Checks the delivery's signature, then applies the event. Bad headers or body: 400; a bad or stale signature: 401. */
export async function handleEmailWebhook(
  env: Pick<Env, "DB" | "EMAIL_WEBHOOK_SECRET">,
  body: string,
  headers: SvixHeaders,
  now = Date.now(),
): Promise<EmailWebhookOutcome> {
  for (const [name, value] of [
    ["svix-id", headers.id],
    ["svix-timestamp", headers.timestamp],
    ["svix-signature", headers.signature],
  ] as const) {
    if (!value) throw new ServiceError(400, `Missing the ${name} header`, name);
  }
  verifySignature(env.EMAIL_WEBHOOK_SECRET, body, headers as Required<{ [K in keyof SvixHeaders]: string }>);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ServiceError(400, "The request body must be valid JSON.");
  }
  const event = parsed(ResendEvent, json, "");
  const eventId = headers.id as string;
  switch (event.type) {
    case "email.bounced": {
      const data = parsed(BouncedData, event.data, "data");
      // Transient (a full mailbox, a message too large) and Undetermined bounces may deliver another time.
      if (data.bounce.type !== "Permanent") return { received: true, suppressed: [] };
      const detail = `${data.bounce.type}/${data.bounce.subType}: ${data.bounce.message}`;
      return { received: true, suppressed: await suppressAll(env.DB, data.to, "hard_bounce", detail, eventId, now) };
    }
    case "email.complained": {
      const data = parsed(EmailEventData, event.data, "data");
      return { received: true, suppressed: await suppressAll(env.DB, data.to, "complaint", "Marked as spam", eventId, now) };
    }
    case "email.suppressed": {
      // Resend refused to send: the address is on its own suppression list (an earlier bounce or complaint).
      const data = parsed(SuppressedData, event.data, "data");
      const detail = `Suppressed by Resend: ${data.suppressed.type} ${data.suppressed.message}`.trim();
      return { received: true, suppressed: await suppressAll(env.DB, data.to, "hard_bounce", detail, eventId, now) };
    }
    default:
      // email.sent, email.delivered, email.delivery_delayed (a soft bounce Resend keeps trying), opens, clicks ...
      return { received: true, suppressed: [] };
  }
}

function verifySignature(secret: string, body: string, headers: { id: string; timestamp: string; signature: string }) {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch (error) {
    throw new Error(`EMAIL_WEBHOOK_SECRET is not a signing secret of Resend's (whsec_ and base64): ${String(error)}`);
  }
  try {
    webhook.verify(body, { "webhook-id": headers.id, "webhook-timestamp": headers.timestamp, "webhook-signature": headers.signature }, { jsonParse: false });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.warn("An e-mail webhook was refused:", error.message);
    throw new ServiceError(401, "The webhook signature is not valid, or its timestamp is more than 5 minutes away.", "svix-signature");
  }
}

/** The value as `schema` reads it, or a 400 naming the first field at fault (under `path`). */
function parsed<S extends v.GenericSchema>(schema: S, value: unknown, path: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = [path, v.getDotPath(issue)].filter(Boolean).join(".");
  throw new ServiceError(400, issue.message, field || undefined);
}

async function suppressAll(db: D1Database, addresses: string[], reason: SuppressionReason, detail: string, eventId: string, now: number) {
  for (const address of addresses) await suppressAddress(db, address, reason, { detail, eventId, at: now });
  return addresses.map(normalisedAddress);
}
