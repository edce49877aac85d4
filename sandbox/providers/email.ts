import { createHmac } from "node:crypto";
import { Hono } from "hono";
import { optionalJson, outboxControl, createOutbox, raise, type Delivered, type EventListing, type Outbox, type SignedRequest } from "../webhook-outbox.ts";
import { SANDBOX_EMAIL_WEBHOOK_SECRET } from "../provider-vars.ts";
import { providerState, type SandboxState, type SentEmail } from "../state.ts";

/**
 * Stand-in for Resend's e-mail API (https://resend.com/docs/api-reference/emails/send-email):
 * `POST /emails` with a bearer API key and {from, to, subject, html, text, reply_to, headers}.
 * Every accepted e-mail lands in the outbox (`GET /__sandbox/outbox`).
 *
 * Its webhooks (decision 097): a recipient can be told to bounce, bounce softly or complain
 * (`PUT /__sandbox/email/recipients/:address {behaviour}`); mail to it then raises the events Resend
 * sends for that, signed the Svix way Resend signs them, and delivered to the app's webhook
 * (EMAIL_WEBHOOK_URL) like the billing stand-ins' events (sandbox/webhook-outbox.ts).
 */

/** What mail to an address does: `deliver` (the default) raises no event. */
export const RECIPIENT_BEHAVIOURS = ["deliver", "bounce", "soft-bounce", "complain"] as const;
export type RecipientBehaviour = (typeof RECIPIENT_BEHAVIOURS)[number];

/** One webhook event of Resend's, as its delivery will carry it. */
export interface ResendWebhookEvent extends Delivered {
  /** The delivery's svix-id (msg_...). */
  id: string;
  type: string;
  /** The recipient it is about (lower-cased), for filtering. */
  to: string;
  emailId: string;
  created: string;
  /** The exact body: signed anew at every attempt, with the attempt's timestamp. */
  body: string;
}

interface EmailStandIn {
  behaviours: Map<string, RecipientBehaviour>;
  outbox: Outbox<ResendWebhookEvent>;
  signingSecret: string;
}

export function emailState(state: SandboxState): EmailStandIn {
  return providerState(state, "email", () => {
    const standIn: EmailStandIn = {
      behaviours: new Map(),
      signingSecret: process.env.EMAIL_WEBHOOK_SECRET || SANDBOX_EMAIL_WEBHOOK_SECRET,
      outbox: createOutbox<ResendWebhookEvent>(process.env.EMAIL_WEBHOOK_URL || null, (record) => svixSigned(record, standIn.signingSecret, new Date())),
    };
    return standIn;
  });
}

/**
 * Svix's signature, as Resend's webhooks carry it (https://docs.svix.com/receiving/verifying-payloads/how-manual):
 * `v1,` and the base64 HMAC-SHA256 of `${svix-id}.${svix-timestamp}.${body}`, keyed with the base64-decoded
 * part of the secret after `whsec_`. Written here with node:crypto, apart from the library the app verifies with.
 */
export function svixSigned(record: Pick<ResendWebhookEvent, "id" | "body">, secret: string, at: Date): SignedRequest {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${record.id}.${timestamp}.${record.body}`, "utf8").digest("base64");
  return {
    headers: {
      "content-type": "application/json",
      "user-agent": "Svix-Webhooks/1.0 (sandbox)",
      "svix-id": record.id,
      "svix-timestamp": timestamp,
      "svix-signature": `v1,${signature}`,
    },
    body: record.body,
  };
}

/** The events Resend sends for mail to an address that behaves so, in order (https://resend.com/docs/webhooks). */
function eventsFor(behaviour: RecipientBehaviour): { type: string; bounce?: { type: string; subType: string; message: string } }[] {
  switch (behaviour) {
    case "bounce":
      return [
        { type: "email.sent" },
        {
          type: "email.bounced",
          bounce: {
            type: "Permanent",
            subType: "General",
            message:
              "The recipient's email provider sent a hard bounce message, but didn't specify the reason for the hard bounce. We recommend removing the recipient's email address from your mailing list.",
          },
        },
      ];
    case "soft-bounce":
      return [
        { type: "email.sent" },
        { type: "email.delivery_delayed" },
        {
          type: "email.bounced",
          bounce: {
            type: "Transient",
            subType: "MailboxFull",
            message: "The recipient's email provider sent a bounce message because the recipient's inbox was full.",
          },
        },
      ];
    case "complain":
      return [{ type: "email.sent" }, { type: "email.delivered" }, { type: "email.complained" }];
    default:
      return [];
  }
}

/** Raises the events of one recipient of an accepted e-mail (none for one that simply receives it). */
function raiseEventsOf(state: SandboxState, mail: SentEmail, recipient: string) {
  const standIn = emailState(state);
  const behaviour = standIn.behaviours.get(recipient.trim().toLowerCase()) ?? "deliver";
  for (const event of eventsFor(behaviour)) {
    const created = new Date().toISOString();
    const body = JSON.stringify({
      type: event.type,
      created_at: created,
      data: {
        created_at: mail.at,
        email_id: mail.id,
        from: mail.from,
        to: [recipient],
        subject: mail.subject,
        message_id: `<${mail.id}@resend.sandbox>`,
        ...(event.bounce ? { bounce: event.bounce } : {}),
      },
    });
    const id = `msg_${crypto.randomUUID().replace(/-/g, "").slice(0, 27)}`;
    raise(
      standIn.outbox,
      { id, type: event.type, to: recipient.trim().toLowerCase(), emailId: mail.id, created, body },
      () => state.providers.get("email") === standIn,
    );
  }
}

/** How the controls list the events: filtered by recipient (`to`), shown with their payload and, signed now, their request. */
function resendEvents(state: SandboxState): EventListing<ResendWebhookEvent> {
  return {
    id: (record) => record.id,
    type: (record) => record.type,
    matches: (record, { to }) => !to || record.to === to.trim().toLowerCase(),
    view: (record, signed) => {
      const { body, ...rest } = record;
      return { ...rest, payload: JSON.parse(body), ...(signed ? { request: svixSigned(record, emailState(state).signingSecret, new Date()) } : {}) };
    },
  };
}

/**
 * Controls under /__sandbox/email: `PUT /recipients/:address {behaviour}` ("bounce", "soft-bounce", "complain",
 * "deliver"), `GET /recipients`; and the webhook outbox's (`GET /events?to=&type=&signed=1`,
 * `POST /events/:id/deliver`, `GET|POST /webhook {url, retryDelaysMs, hold, signingSecret}`, `POST /webhook/release`).
 */
export function emailControl(state: SandboxState) {
  const control = new Hono();
  control.get("/recipients", (c) => c.json(Object.fromEntries(emailState(state).behaviours)));
  control.put("/recipients/:address", async (c) => {
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    const address = decodeURIComponent(c.req.param("address")).trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) return c.json({ error: "The address must be an e-mail address" }, 400);
    const behaviour = input.behaviour;
    if (typeof behaviour !== "string" || !(RECIPIENT_BEHAVIOURS as readonly string[]).includes(behaviour))
      return c.json({ error: `behaviour must be one of ${RECIPIENT_BEHAVIOURS.join(", ")}` }, 400);
    const behaviours = emailState(state).behaviours;
    if (behaviour === "deliver") behaviours.delete(address);
    else behaviours.set(address, behaviour as RecipientBehaviour);
    return c.json({ address, behaviour });
  });
  outboxControl(control, "email", () => emailState(state).outbox, resendEvents(state), {
    apply: (input) => {
      if (input.signingSecret === undefined) return null;
      if (typeof input.signingSecret !== "string" || !/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(input.signingSecret))
        return "signingSecret must be whsec_ and a base64 key";
      emailState(state).signingSecret = input.signingSecret;
      return null;
    },
    view: () => ({ signingSecret: emailState(state).signingSecret }),
  });
  return control;
}

export function emailProvider(state: SandboxState) {
  const app = new Hono();

  app.post("/emails", async (c) => {
    const auth = c.req.header("authorization") ?? "";
    if (!/^Bearer \S+/.test(auth)) {
      return c.json({ statusCode: 401, name: "missing_api_key", message: "Missing API key in the authorization header" }, 401);
    }
    let body: Record<string, unknown>;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ statusCode: 422, name: "validation_error", message: "Invalid JSON body." }, 422);
    }
    const to = typeof body.to === "string" ? [body.to] : Array.isArray(body.to) ? body.to.map(String) : [];
    for (const field of ["from", "subject"] as const) {
      if (typeof body[field] !== "string" || !body[field]) {
        return c.json({ statusCode: 422, name: "validation_error", message: `Missing \`${field}\` field.` }, 422);
      }
    }
    if (to.length === 0) return c.json({ statusCode: 422, name: "validation_error", message: "Missing `to` field." }, 422);
    const html = typeof body.html === "string" ? body.html : "";
    const text = typeof body.text === "string" ? body.text : "";
    if (!html && !text) {
      return c.json({ statusCode: 422, name: "validation_error", message: "Missing `html` or `text` field." }, 422);
    }
    const replyTo = typeof body.reply_to === "string" ? [body.reply_to] : Array.isArray(body.reply_to) ? body.reply_to.map(String) : [];
    if (
      body.headers !== undefined &&
      (typeof body.headers !== "object" ||
        body.headers === null ||
        Array.isArray(body.headers) ||
        Object.values(body.headers).some((value) => typeof value !== "string"))
    ) {
      return c.json({ statusCode: 422, name: "validation_error", message: "`headers` must be an object of strings." }, 422);
    }
    const headers = (body.headers ?? {}) as Record<string, string>;
    const id = crypto.randomUUID();
    const mail: SentEmail = {
      id,
      from: String(body.from),
      to,
      subject: String(body.subject),
      text,
      html,
      replyTo,
      headers,
      links: linksIn(html, text),
      at: new Date().toISOString(),
    };
    state.outbox.push(mail);
    for (const recipient of to) raiseEventsOf(state, mail, recipient);
    return c.json({ id });
  });

  return app;
}

/** Every distinct http(s) link of an e-mail: href targets of the HTML first, then bare URLs in the text. */
export function linksIn(html: string, text: string): string[] {
  const links = new Set<string>();
  for (const match of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) links.add(decodeEntities(match[1]));
  for (const match of text.matchAll(/https?:\/\/[^\s<>"')]+/g)) links.add(match[0]);
  return [...links].filter((link) => /^https?:\/\//.test(link));
}

function decodeEntities(value: string) {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}
