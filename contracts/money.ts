/**
 * The one way our own amounts are written, shared by the pages, the e-mails and the admin's messages: US dollars,
 * en-US style ("$16.99", "-$4.25", "$1,250.00"). A shop's product price is written in its own currency elsewhere
 * (the scraper's and the product list's), as the shop wrote it.
 */
const USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/**
 * Dollars with their cents ("$16.99", "$17.00"): what was paid, earned or saved. `cents: "when-any"` writes a
 * whole amount without them, as a price tag does ("$17", but "$16.99"); `cents: "none"` rounds to the dollar (a
 * chart's axis).
 */
export function usd(amount: number, { cents = "always" }: { cents?: "always" | "when-any" | "none" } = {}): string {
  // `|| 0`: -0 (a rounded tiny refund) is written as $0.00, not -$0.00.
  const text = USD.format((cents === "none" ? Math.round(amount) : amount) || 0);
  return cents === "always" ? text : text.replace(/\.00$/, "");
}

/** A price as a plan card or the home page shows it: "$17", "$16.99". */
export function priceTag(amount: number): string {
  return usd(amount, { cents: "when-any" });
}

/** An amount counted in cents (the ledger's and the affiliate programme's unit), in dollars: 425 is "$4.25". */
export function usdFromCents(cents: number): string {
  return usd(cents / 100);
}

/** An amount in the currency a payment provider named: dollars for USD, else the amount and its code ("12.00 EUR"). */
export function amountIn(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  return code === "USD" ? usd(amount) : `${amount.toFixed(2)} ${code}`;
}
