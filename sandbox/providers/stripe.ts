import { Hono } from "hono";
import type { SandboxState } from "../state.ts";
import { stripeV1 } from "./stripe/api.ts";
import { checkoutPages } from "./stripe/checkout-page.ts";

export { stripeControl } from "./stripe/control.ts";

/**
 * Stand-in for Stripe, mounted at /stripe (docs/decisions/013-billing.md). The
 * official stripe SDK talks to it unchanged (host, port and protocol from
 * STRIPE_API_URL, see workers/integrations/stripe.ts):
 *
 * - `/v1/*`: the REST API for customers (and balance transactions), products,
 *   prices (the plan prices of workers/db/seed-data.ts), checkout sessions,
 *   subscriptions, invoices, payment intents and events;
 * - `GET|POST /checkout/pay/:session`: the hosted checkout page at a session's url;
 * - webhook deliveries of every event to the configured endpoint, signed like
 *   Stripe's, with retries (controls under /__sandbox/stripe).
 */
export function stripeProvider(state: SandboxState) {
  const app = new Hono();
  app.route("/v1", stripeV1(state));
  app.route("/checkout", checkoutPages(state));
  return app;
}
