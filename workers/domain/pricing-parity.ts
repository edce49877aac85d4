/**
 * Pricing parity: a discount for countries where our USD prices weigh more
 * (purchasing-power groups, in the spirit of the World Bank's PPP
 * conversion factors). Kept as data: change the groups here. Countries not
 * listed pay full price (0 %).
 */
const PARITY_GROUPS: { percentageAdjustment: number; countries: string[] }[] = [
  { percentageAdjustment: 50, countries: ["IN", "PK", "BD", "NG", "EG", "KE", "GH", "NP", "LK", "VN", "PH", "ID", "UA", "ET", "TZ", "UG", "MM", "KH", "LA"] },
  { percentageAdjustment: 40, countries: ["BR", "CO", "PE", "AR", "ZA", "TR", "MA", "TN", "DZ", "BO", "PY", "EC", "GT", "HN", "NI", "SV", "DO", "JM", "GE", "AM", "AZ", "KZ", "UZ", "MN"] },
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

/** A USD price after parity, rounded to whole cents and never below zero. */
export function adjustedPrice(price: number, parity: Pick<PricingParity, "percentageAdjustment">): number {
  const cents = Math.round(price * 100);
  return Math.max(0, Math.round((cents * (100 - parity.percentageAdjustment)) / 100) / 100);
}
