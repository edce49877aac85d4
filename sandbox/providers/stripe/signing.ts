import { createHmac } from "node:crypto";
import type { SignedRequest } from "../../webhook-outbox.ts";

/**
 * How Stripe signs a webhook delivery: a `Stripe-Signature: t=...,v1=...`
 * header, HMAC-SHA256 of `${t}.${payload}` with the endpoint's secret. Stripe
 * signs every attempt anew (t is the time of the attempt).
 */

/** Stripe's signature header for a payload sent at `timestamp` (seconds). */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${signature}`;
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
