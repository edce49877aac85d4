import {
  ActivatePayPalSubscriptionBody,
  CancelPayPalSubscriptionBody,
  PayPalSubscriptionBody,
  RevisePayPalSubscriptionBody,
} from "../../contracts/billing-paypal-shopify.ts";
import { requireUser } from "../auth/middleware.ts";
import {
  activatePayPalSubscription,
  cancelPayPalSubscription,
  reactivatePayPalSubscription,
  revisePayPalSubscription,
  suspendPayPalSubscription,
} from "../services/paypal-billing.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/** PayPal subscriptions (spec section 7, Subscriptions and payments). */
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
