/**
 * Pricing parity: a discount for countries where our USD prices weigh more
 * (purchasing-power groups, in the spirit of the World Bank's PPP
 * conversion factors). Kept as data: change the groups here. Countries not
 * listed pay full price (0 %).
 */
const PARITY_GROUPS: { percentageAdjustment: number; countries: string[] }[] = [
  { percentageAdjustment: 50, countries: ["IN", "PK", "BD", "NG", "EG", "KE", "GH", "NP", "LK", "VN", "PH", "ID", "UA", "ET", "TZ", "UG", "MM", "KH", "LA"] },
  {
    percentageAdjustment: 40,
    countries: ["BR", "CO", "PE", "AR", "ZA", "TR", "MA", "TN", "DZ", "BO", "PY", "EC", "GT", "HN", "NI", "SV", "DO", "JM", "GE", "AM", "AZ", "KZ", "UZ", "MN"],
  },
  { percentageAdjustment: 30, countries: ["MX", "CL", "MY", "TH", "RO", "BG", "RS", "BA", "MK", "AL", "ME", "MD", "BY", "RU", "CN", "UY", "CR", "PA"] },
  { percentageAdjustment: 20, countries: ["PL", "HU", "HR", "LT", "LV", "EE", "SK", "CZ", "GR", "PT", "SI", "CY", "MT", "SA", "OM", "BH", "KW"] },
];

const BY_COUNTRY = new Map(PARITY_GROUPS.flatMap((group) => group.countries.map((country) => [country, group.percentageAdjustment] as const)));

export interface PricingParity {
  countryCode: string;
  /** Percent off the USD price (0 = full price). */
  percentageAdjustment: number;
}

/** The parity for an ISO 3166-1 alpha-2 country code (any case); unknown or missing codes pay full price. */
export function pricingParity(countryCode: string | null | undefined): PricingParity {
  const code = (countryCode ?? "").trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return { countryCode: "", percentageAdjustment: 0 };
  return { countryCode: code, percentageAdjustment: BY_COUNTRY.get(code) ?? 0 };
}

/**
 * The discount in cents that a percent-off coupon takes from `cents`, as
 * Stripe computes it: `percent_off` of the amount in cents, rounded to the
 * nearest cent (half up).
 */
export function parityDiscountCents(cents: number, percentageAdjustment: number): number {
  if (percentageAdjustment <= 0) return 0;
  return Math.min(cents, Math.round((cents * percentageAdjustment) / 100));
}

/**
 * A USD price after parity, exactly what Stripe charges with the parity
 * coupon: the price in cents less the rounded discount (16.99 at 50 % off is
 * 1699 - 850 = 849, so 8.49).
 */
export function adjustedPrice(price: number, parity: Pick<PricingParity, "percentageAdjustment">): number {
  const cents = Math.round(price * 100);
  return (cents - parityDiscountCents(cents, parity.percentageAdjustment)) / 100;
}

/** Every parity percentage there is, full price (0) included. */
export const PARITY_PERCENTAGES: readonly number[] = [0, ...new Set(PARITY_GROUPS.map((group) => group.percentageAdjustment))];

/**
 * The parity percentage, among `percentages`, at which `price` costs exactly
 * `charged` (compared in cents); null when none does. Used to check that a
 * provider charges a price we offered (PayPal's plan override, Shopify's
 * charge), whatever anyone else asked the provider for.
 */
export function parityOfCharge(price: number, charged: number, percentages: Iterable<number>): number | null {
  const chargedCents = Math.round(charged * 100);
  for (const percentageAdjustment of percentages) {
    if (Math.round(adjustedPrice(price, { percentageAdjustment }) * 100) === chargedCents) return percentageAdjustment;
  }
  return null;
}

/** The Stripe coupon that charges a parity percentage: one per percentage, reused by every checkout. */
export function parityCouponId(percentageAdjustment: number): string {
  return `parity-${percentageAdjustment}`;
}

/**
 * The configurations in which a request may name its own edge country with
 * the `cf-ipcountry` header: local development (`npm start`, the e2e tests)
 * and the workers tests, where there is no Cloudflare edge to say where the
 * visitor is. Anything else, production above all, uses only what
 * Cloudflare's edge saw (docs/decisions/015-pricing-parity.md).
 */
export function honoursCountryHeader(appEnv: string | undefined): boolean {
  return appEnv === "development" || appEnv === "test";
}

export const COUNTRY_HEADER = "cf-ipcountry";

/**
 * The visitor's country as the edge saw it (`request.cf.country`), or, in
 * the local and test configurations only, as the `cf-ipcountry` header says.
 * Null when unknown. The browser can never choose its own discount in
 * production: the header is not even read there.
 */
export function edgeCountry(request: { headers: Headers; cf?: unknown }, appEnv: string | undefined): string | null {
  if (honoursCountryHeader(appEnv)) {
    const named = request.headers.get(COUNTRY_HEADER)?.trim();
    if (named) return named.toUpperCase();
  }
  const cf = request.cf as { country?: unknown } | undefined;
  return typeof cf?.country === "string" && cf.country ? cf.country.toUpperCase() : null;
}
