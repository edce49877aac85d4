import type { EmailWebhookOutcome } from "../../../contracts/accounts/email-events.ts";
import { handleEmailWebhook } from "../../services/accounts/email-events.ts";
import { router } from "../core/hono.ts";

/**
 * Resend's webhook (decision 097). Register {APP_URL}/api/email/webhook in Resend with the events email.bounced,
 * email.complained and email.suppressed; its signing secret is EMAIL_WEBHOOK_SECRET. The body is read raw, as it
 * was signed.
 */
export const emailWebhookApi = router();

emailWebhookApi.post("/email/webhook", async (c) => {
  const outcome = await handleEmailWebhook(c.env, await c.req.text(), {
    id: c.req.header("svix-id"),
    timestamp: c.req.header("svix-timestamp"),
    signature: c.req.header("svix-signature"),
  });
  return c.json(outcome satisfies EmailWebhookOutcome);
});
