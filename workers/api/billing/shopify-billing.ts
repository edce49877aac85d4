import {
  ActivateShopifySubscriptionBody,
  CancelShopifySubscriptionBody,
  StartShopifySubscriptionBody,
} from "../../../contracts/billing/billing-paypal-shopify.ts";
import { requireUser } from "../../auth/middleware.ts";
import { edgeCountry } from "../../domain/pricing-parity.ts";
import {
  activateShopifySubscription,
  cancelShopifySubscription,
  handleShopifyWebhook,
  startShopifySubscription,
} from "../../services/billing/shopify-billing.ts";
import { apiError } from "../core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Shopify app subscriptions (spec section 7, Subscriptions and payments) and their webhook endpoint. */
export const shopifyBillingApi = router();

shopifyBillingApi.post("/shopifySubscriptions/startSubscription", requireUser, valid("json", StartShopifySubscriptionBody), async (c) =>
  c.json(await startShopifySubscription(c.env, c.var.auth.user, c.req.valid("json"), edgeCountry(c.req.raw, c.env.APP_ENV))),
);

shopifyBillingApi.post("/shopifySubscriptions/activateShopifySubscription", requireUser, valid("json", ActivateShopifySubscriptionBody), async (c) =>
  c.json(await activateShopifySubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

shopifyBillingApi.post("/shopifySubscriptions/cancelShopifySubscription", requireUser, valid("json", CancelShopifySubscriptionBody), async (c) =>
  c.json(await cancelShopifySubscription(c.env, c.var.auth.user, c.req.valid("json"))),
);

/**
 * Subscribe the app to APP_SUBSCRIPTIONS_UPDATE at {APP_URL}/api/shopify/webhook; the body is
 * read raw, as it was signed with the app's client secret (SHOPIFY_CLIENT_SECRET).
 */
shopifyBillingApi.post("/shopify/webhook", async (c) => {
  const header = (name: string) => c.req.header(name)?.trim() ?? "";
  const delivery = {
    hmac: header("x-shopify-hmac-sha256"),
    topic: header("x-shopify-topic"),
    shop: header("x-shopify-shop-domain"),
    webhookId: header("x-shopify-webhook-id"),
  };
  if (!delivery.hmac) return apiError(c, 400, "Missing X-Shopify-Hmac-Sha256 header");
  if (!delivery.topic || !delivery.shop || !delivery.webhookId) return apiError(c, 400, "Missing Shopify webhook headers");
  return c.json(await handleShopifyWebhook(c.env, delivery, await c.req.text()));
});
