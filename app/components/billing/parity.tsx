import { priceTag } from "../../../contracts/money.ts";
import { adjustedPrice, type PricingParity } from "../../../workers/domain/pricing-parity.ts";

/**
 * Pricing parity on the pricing and lifetime pages (issues 7 and 17): the
 * visitor's own country's adjustment, read by the page's loader from the
 * country the edge saw (app/lib/pricing.server.ts; the browser never names
 * it), so the server's HTML already shows the prices checkout charges, by
 * card, PayPal or Shopify (docs/decisions/015-pricing-parity.md, 041). Null
 * is full price.
 */

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The note that names the visitor's country and its discount. */
export function ParityNote({ parity }: { parity: PricingParity | null }) {
  if (!parity) return null;
  return (
    <p className="billing-parity" data-testid="parity-note">
      Pricing for {countryName(parity.countryCode)}: {parity.percentageAdjustment}% off every plan, applied at checkout.
    </p>
  );
}

/** A price with parity: the full price struck through, then what checkout charges. */
export function ParityAmount({ amount, parity }: { amount: number; parity: PricingParity | null }) {
  const adjusted = parity ? adjustedPrice(amount, parity) : amount;
  return (
    <>
      {adjusted < amount && (
        <>
          {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the struck-through price is named in words ("Full price $69.99"); a workers test reads it. */}
          <s className="plan-card__original" aria-label={`Full price ${priceTag(amount)}`}>
            {priceTag(amount)}
          </s>{" "}
        </>
      )}
      <span className="plan-card__amount">{priceTag(adjusted)}</span>
    </>
  );
}
