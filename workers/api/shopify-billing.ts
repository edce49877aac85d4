import { ActivateShopifySubscriptionBody, CancelShopifySubscriptionBody, StartShopifySubscriptionBody } from "../../contracts/billing-paypal-shopify.ts";
import { requireUser } from "../auth/middleware.ts";
import { activateShopifySubscription, cancelShopifySubscription, startShopifySubscription } from "../services/shopify-billing.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/** Shopify app subscriptions (spec section 7, Subscriptions and payments). */
export const shopifyBillingApi = router();

shopifyBillingApi.post("/shopifySubscriptions/startSubscription", requireUser, valid("json", StartShopifySubscriptionBody), async (c) =>
  c.json(await startShopifySubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

shopifyBillingApi.post("/shopifySubscriptions/activateShopifySubscription", requireUser, valid("json", ActivateShopifySubscriptionBody), async (c) =>
  c.json(await activateShopifySubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

shopifyBillingApi.post("/shopifySubscriptions/cancelShopifySubscription", requireUser, valid("json", CancelShopifySubscriptionBody), async (c) =>
  c.json(await cancelShopifySubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);
