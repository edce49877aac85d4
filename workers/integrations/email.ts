import type { Env } from "../env.ts";
import { suppressionOf, type Suppression } from "../services/accounts/email-suppressions.ts";
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
 * A value fit for one e-mail header line: carriage returns, line feeds and
 * other control characters (and Unicode's line and paragraph separators)
 * become one space, so text a user wrote can never end a header and start
 * another (header injection). Every header this client sends passes here.
 */
export function headerText(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters and line breaks are what header text must not carry (see above).
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}

/** What became of an e-mail: handed to the provider (its id), or not sent because its address is suppressed. */
export type Delivery = { sent: true; id: string } | { sent: false; suppressed: Suppression };

/**
 * The one way e-mail leaves the app. Sends through Resend's HTTP API (`POST /emails`; EMAIL_API_URL is
 * https://api.resend.com in production and the sandbox locally), unless the address has bounced or complained
 * (decision 097): then nothing is sent and the answer says why. A provider failure is thrown (ProviderError).
 */
export async function sendEmail(env: Pick<Env, "DB" | "EMAIL_API_URL" | "EMAIL_API_KEY" | "EMAIL_FROM">, email: OutgoingEmail): Promise<Delivery> {
  const to = headerText(email.to);
  const suppressed = await suppressionOf(env.DB, to);
  if (suppressed) return { sent: false, suppressed };
  const response = await providerFetch("email", `${env.EMAIL_API_URL}/emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.EMAIL_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({
      from: headerText(env.EMAIL_FROM),
      to: [to],
      subject: headerText(email.subject),
      text: email.text,
      html: email.html,
      ...(email.replyTo ? { reply_to: headerText(email.replyTo) } : {}),
      ...(email.headers ? { headers: Object.fromEntries(Object.entries(email.headers).map(([name, value]) => [headerText(name), headerText(value)])) } : {}),
    }),
  });
  const { id } = (await response.json()) as { id: string };
  return { sent: true, id };
}
