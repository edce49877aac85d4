import * as v from "valibot";
import { edgeCountry, pricingParity } from "../../domain/pricing-parity.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * Pricing parity (public): GET /api/pricingParity/{countryCode}, and
 * GET /api/pricingParity for the visitor's own country as Cloudflare's edge
 * sees it (request.cf.country; no external look-up). Checkout charges the
 * same adjustment (workers/services/billing/stripe-billing.ts).
 */
export const pricingParityApi = router();

const CountryParam = v.object({ countryCode: v.pipe(v.string(), v.regex(/^[A-Za-z]{2}$/, "countryCode must be a two-letter country code")) });

pricingParityApi.get("/pricingParity/:countryCode", valid("param", CountryParam), (c) => {
  c.header("cache-control", "public, max-age=86400");
  return c.json(pricingParity(c.req.valid("param").countryCode));
});

pricingParityApi.get("/pricingParity", (c) => {
  c.header("cache-control", "private, no-store");
  return c.json(pricingParity(edgeCountry(c.req.raw, c.env.APP_ENV)));
});
