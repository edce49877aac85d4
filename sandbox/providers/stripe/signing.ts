import Stripe from "stripe";
import type { SignedRequest } from "../../webhook-outbox.ts";

/**
 * How Stripe signs a webhook delivery: a `Stripe-Signature: t=...,v1=...`
 * header, HMAC-SHA256 of `${t}.${payload}` with the endpoint's secret. Stripe
 * signs every attempt anew (t is the time of the attempt). The header is made
 * by the official SDK (`Stripe.webhooks.generateTestHeaderString`), so it is
 * what the app's `Stripe.webhooks.constructEventAsync` (workers/integrations/stripe.ts) checks.
 */

/** Stripe's signature header for a payload sent at `timestamp` (seconds). */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/** The request a delivery of `event` sends, signed now. */
export function signedStripeRequest(event: unknown, secret: string): SignedRequest {
  const body = JSON.stringify(event, null, 2);
  return {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "stripe-signature": signatureHeader(body, secret),
    },
    body,
  };
}
