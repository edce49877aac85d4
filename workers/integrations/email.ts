import type { Env } from "../env.ts";
import { suppressionOf, type Suppression } from "../services/accounts/email-suppressions.ts";
import { headerText, type OutgoingEmail } from "./email-message.ts";
import { providerFetch } from "./http.ts";

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
