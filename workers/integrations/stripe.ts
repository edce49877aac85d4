import Stripe from "stripe";
/** The bindings the client reads (spelled out so Node-side tests can build it without the worker's generated types). */
export interface StripeEnv {
  STRIPE_API_URL: string;
  STRIPE_SECRET_KEY: string;
  STRIPE_WEBHOOK_SECRET: string;
}

/**
 * Stripe through its official SDK, with the SDK's fetch HTTP client (the one
 * that runs on Workers). STRIPE_API_URL is https://api.stripe.com in
 * production and the sandbox's stand-in locally (http://127.0.0.1:8788/stripe):
 * host, port and protocol come from it, and a path prefix (the sandbox's
 * /stripe) is put in front of the SDK's /v1/... paths.
 */
export function stripeClientConfig(apiUrl: string): Stripe.StripeConfig {
  const base = new URL(apiUrl);
  const protocol = base.protocol === "http:" ? "http" : "https";
  const prefix = base.pathname.replace(/\/+$/, "");
  const send: typeof fetch = (input, init) => {
    if (!prefix) return fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : input.toString());
    url.pathname = `${prefix}${url.pathname}`;
    return fetch(url, init);
  };
  return {
    httpClient: Stripe.createFetchHttpClient(send),
    host: base.hostname,
    port: base.port || (protocol === "http" ? 80 : 443),
    protocol,
    // POSTs carry an idempotency key, so the SDK's retries never double-charge.
    maxNetworkRetries: 2,
    timeout: 20_000,
  };
}

let cached: { key: string; client: Stripe } | null = null;

/** One client per configuration, reused across requests of an isolate. */
export function stripeClient(env: Pick<StripeEnv, "STRIPE_API_URL" | "STRIPE_SECRET_KEY">): Stripe {
  if (!env.STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not configured");
  const key = `${env.STRIPE_API_URL}\n${env.STRIPE_SECRET_KEY}`;
  if (cached?.key !== key) cached = { key, client: new Stripe(env.STRIPE_SECRET_KEY, stripeClientConfig(env.STRIPE_API_URL)) };
  return cached.client;
}

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * A webhook event whose Stripe-Signature header is valid for our endpoint's
 * secret (and no older than Stripe's 5-minute tolerance). Throws
 * Stripe.errors.StripeSignatureVerificationError otherwise.
 */
export function verifyStripeEvent(env: Pick<StripeEnv, "STRIPE_WEBHOOK_SECRET">, payload: string, signature: string): Promise<Stripe.Event> {
  if (!env.STRIPE_WEBHOOK_SECRET) throw new Error("STRIPE_WEBHOOK_SECRET is not configured");
  return Stripe.webhooks.constructEventAsync(payload, signature, env.STRIPE_WEBHOOK_SECRET, undefined, cryptoProvider);
}

export { Stripe };
