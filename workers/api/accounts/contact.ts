import { FEEDBACK_FAILED, SendEmailBody, type SendEmailAnswer } from "../../../contracts/accounts/feedback.ts";
import { requestMeta } from "../../auth/middleware.ts";
import { sendFeedback } from "../../services/accounts/feedback.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** The contact page's feedback form (spec section 7: POST /api/sendEmail). */
export const contactApi = router();

contactApi.post("/sendEmail", valid("json", SendEmailBody), async (c) => {
  const status = await sendFeedback(c.env, c.req.valid("json"), requestMeta(c));
  // The spec's answer is {status}; a message the provider did not take is a 502 the page reports as failed.
  return status === "success" ? c.json({ status } satisfies SendEmailAnswer) : c.json({ status, error: FEEDBACK_FAILED }, 502);
});
