import {
  ActivatePayPalSubscriptionBody,
  CancelPayPalSubscriptionBody,
  PayPalSubscriptionBody,
  RevisePayPalSubscriptionBody,
  StartPayPalSubscriptionBody,
} from "../../../contracts/billing/billing-paypal-shopify.ts";
import { requireUser } from "../../auth/middleware.ts";
import { edgeCountry } from "../../domain/pricing-parity.ts";
import {
  activatePayPalSubscription,
  cancelPayPalSubscription,
  handlePayPalWebhook,
  reactivatePayPalSubscription,
  revisePayPalSubscription,
  startPayPalSubscription,
  suspendPayPalSubscription,
} from "../../services/billing/paypal-billing.ts";
import { apiError } from "../core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** PayPal subscriptions (spec section 7, Subscriptions and payments) and PayPal's webhook endpoint. */
export const paypalApi = router();

paypalApi.post("/subscriptions/activateUserSubscription", requireUser, valid("json", ActivatePayPalSubscriptionBody), async (c) =>
  c.json(await activatePayPalSubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

paypalApi.post("/subscriptions/cancelSubscription", requireUser, valid("json", CancelPayPalSubscriptionBody), async (c) =>
  c.json(await cancelPayPalSubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

paypalApi.post("/subscriptions/suspendSubscription", requireUser, valid("json", PayPalSubscriptionBody), async (c) =>
  c.json(await suspendPayPalSubscription(c.env, c.var.auth.user, c.req.valid("json").subscriptionID)),
);

paypalApi.post("/subscriptions/reactivateSubscription", requireUser, valid("json", PayPalSubscriptionBody), async (c) =>
  c.json(await reactivatePayPalSubscription(c.env, c.var.auth.user, c.req.valid("json").subscriptionID)),
);

/** 202 {approvalLink, message} when the payer must approve the switch in PayPal; 200 when it is done. */
paypalApi.post("/subscriptions/revise", requireUser, valid("json", RevisePayPalSubscriptionBody), async (c) => {
  const outcome = await revisePayPalSubscription(c.env, c.var.auth.user, c.req.valid("json"));
  return c.json(outcome.body, outcome.status);
});

/**
 * 200 {approvalLink, subscriptionID}: the browser goes to approvalLink; PayPal sends it back with subscription_id.
 * The price is the plan's less the parity of the edge's country (never one the browser names: see edgeCountry).
 */
paypalApi.post("/subscriptions/startPayPalSubscription", requireUser, valid("json", StartPayPalSubscriptionBody), async (c) =>
  c.json(await startPayPalSubscription(c.env, c.var.auth.user, c.req.valid("json"), edgeCountry(c.req.raw, c.env.APP_ENV))),
);

/** Register {APP_URL}/api/paypal/webhook in PayPal and put its id in PAYPAL_WEBHOOK_ID; the body is read raw, as it was signed. */
paypalApi.post("/paypal/webhook", async (c) => {
  const header = (name: string) => c.req.header(name)?.trim() ?? "";
  const transmission = {
    transmissionId: header("paypal-transmission-id"),
    transmissionTime: header("paypal-transmission-time"),
    transmissionSig: header("paypal-transmission-sig"),
    certUrl: header("paypal-cert-url"),
    authAlgo: header("paypal-auth-algo"),
  };
  const missing = Object.entries(transmission).find(([, value]) => !value);
  if (missing) return apiError(c, 400, "Missing PayPal transmission headers");
  return c.json(await handlePayPalWebhook(c.env, transmission, await c.req.text()));
});
