import type { Env } from "../../env.ts";

/** The addresses a marketing e-mail's unsubscribe link and header point at (decision 097); unsubscribe.ts applies them. */

/**
 * The address a mail app POSTs "List-Unsubscribe=One-Click" to (RFC 8058), for a List-Unsubscribe-Post header:
 * the token rides in the query, as the mail app sends no body of ours and no cookies.
 */
export function oneClickUnsubscribeUrl(env: Pick<Env, "APP_URL">, token: string): string {
  return new URL(`/api/user/unsubscribe/oneClick?token=${encodeURIComponent(token)}`, env.APP_URL).toString();
}

/** The /unsubscribe page's address for a token (the link in the e-mail's text and HTML). */
export function unsubscribePageUrl(env: Pick<Env, "APP_URL">, token: string): string {
  return new URL(`/unsubscribe?token=${encodeURIComponent(token)}`, env.APP_URL).toString();
}
