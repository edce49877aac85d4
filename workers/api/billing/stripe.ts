import {
  ActivateStripeSubscriptionBody,
  CancelStripeSubscriptionBody,
  ReactivateStripeSubscriptionBody,
  ReviseStripeSubscriptionBody,
  StartStripeOnceOffPaymentBody,
  StartStripeSubscriptionBody,
} from "../../../contracts/billing/billing.ts";
import { requireUser } from "../../auth/middleware.ts";
import { edgeCountry } from "../../domain/pricing-parity.ts";
import {
  activateStripeSubscription,
  cancelStripeSubscription,
  handleStripeWebhook,
  reactivateStripeSubscription,
  reviseStripeSubscription,
  startStripeOnceOffPayment,
  startStripeSubscription,
} from "../../services/billing/stripe-billing.ts";
import { visitorKeyOf } from "../growth/affiliate.ts";
import { apiError } from "../core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * Stripe subscriptions and payments (spec section 7) and Stripe's webhook
 * endpoint. Checkouts charge the pricing parity of the country the edge saw
 * (never one the browser names: see edgeCountry).
 */
export const stripeApi = router();

stripeApi.post("/stripeSubscriptions/startStripeSubscription", requireUser, valid("json", StartStripeSubscriptionBody), async (c) =>
  c.json(await startStripeSubscription(c.env, c.var.auth.user, c.req.valid("json"), edgeCountry(c.req.raw, c.env.APP_ENV))),
);

stripeApi.post("/stripeSubscriptions/activateStripeSubscription", requireUser, valid("json", ActivateStripeSubscriptionBody), async (c) =>
  c.json(await activateStripeSubscription(c.env, c.var.auth.user, c.req.valid("json"), await visitorKeyOf(c))),
);

stripeApi.post("/stripeSubscriptions/cancelStripeSubscription", requireUser, valid("json", CancelStripeSubscriptionBody), async (c) =>
  c.json(await cancelStripeSubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

stripeApi.post("/stripeSubscriptions/reactivateStripeSubscription", requireUser, valid("json", ReactivateStripeSubscriptionBody), async (c) =>
  c.json(await reactivateStripeSubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

stripeApi.post("/stripeSubscriptions/reviseStripeSubscription", requireUser, valid("json", ReviseStripeSubscriptionBody), async (c) =>
  c.json(await reviseStripeSubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

stripeApi.post("/stripeSubscriptions/startStripeOnceOffPayment", requireUser, valid("json", StartStripeOnceOffPaymentBody), async (c) =>
  c.json(await startStripeOnceOffPayment(c.env, c.var.auth.user, c.req.valid("json"), edgeCountry(c.req.raw, c.env.APP_ENV))),
);

/** Register {APP_URL}/api/stripe/webhook in Stripe; the body is read raw, as it was signed. */
stripeApi.post("/stripe/webhook", async (c) => {
  const signature = c.req.header("stripe-signature");
  if (!signature) return apiError(c, 400, "Missing Stripe-Signature header");
  return c.json(await handleStripeWebhook(c.env, await c.req.text(), signature));
});
