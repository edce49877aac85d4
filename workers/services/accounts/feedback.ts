import type { SendEmailBody } from "../../../contracts/accounts/feedback.ts";
import type { RequestMeta } from "./accounts.ts";
import type { Env } from "../../env.ts";
import { sendEmail } from "../../integrations/email.ts";
import { ProviderError } from "../../integrations/http.ts";
import { feedbackEmail } from "./emails.ts";
import { consumeRateLimits, RATE_LIMITS } from "./rate-limit.ts";

/**
 * Sends a contact-page message to the support address (CONTACT_EMAIL) through
 * the e-mail provider. Answers whether the provider took it; the rate limit is
 * counted first, so a limited request sends nothing.
 */
export async function sendFeedback(env: Env, input: SendEmailBody, meta: RequestMeta): Promise<"success" | "fail"> {
  await consumeRateLimits(env.DB, [[RATE_LIMITS.feedbackPerIp, meta.ip]]);
  try {
    const delivery = await sendEmail(env, feedbackEmail(env.CONTACT_EMAIL, input.feedbackText, input.userEmail, new Date()));
    if (delivery.sent) return "success";
    console.warn(`feedback not sent: the support address is suppressed (${delivery.suppressed.reason})`);
    return "fail";
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.warn(`feedback not sent: ${error.message}`);
    return "fail";
  }
}
