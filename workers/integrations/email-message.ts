/** An e-mail as the app builds it (workers/services/accounts/emails.ts), before `sendEmail` (./email.ts) sends it. */

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
