import type { Env } from "../env.ts";
import { providerFetch } from "./http.ts";

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go instead of the sender (Resend's reply_to). */
  replyTo?: string;
  /** Extra headers (Resend's `headers`), e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
}

/**
 * Sends e-mail through Resend's HTTP API (`POST /emails`). EMAIL_API_URL is
 * https://api.resend.com in production and the sandbox locally.
 */
export async function sendEmail(env: Pick<Env, "EMAIL_API_URL" | "EMAIL_API_KEY" | "EMAIL_FROM">, email: OutgoingEmail) {
  const response = await providerFetch("email", `${env.EMAIL_API_URL}/emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.EMAIL_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({
      from: env.EMAIL_FROM,
      to: [email.to],
      subject: email.subject,
      text: email.text,
      html: email.html,
      ...(email.replyTo ? { reply_to: email.replyTo } : {}),
      ...(email.headers ? { headers: email.headers } : {}),
    }),
  });
  return (await response.json()) as { id: string };
}
