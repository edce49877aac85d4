import { useEffect, useState } from "react";
import { adjustedPrice, type PricingParity } from "../../../workers/domain/pricing-parity.ts";
import { apiJson } from "../../lib/api-client.ts";
import { money } from "./billing-api.ts";

/**
 * Pricing parity on the pricing and lifetime pages (issue 7): the visitor's
 * own country's adjustment, from GET /api/pricingParity (the country the
 * edge saw; the browser never names it). Checkout charges exactly these
 * prices, by card, PayPal or Shopify (docs/decisions/015-pricing-parity.md). Any
 * failure is ignored and full prices show (spec section 8).
 */

function isParity(value: unknown): value is PricingParity {
  const parity = value as PricingParity | null;
  return (
    typeof parity === "object" &&
    parity !== null &&
    typeof parity.countryCode === "string" &&
    /^[A-Z]{2}$/.test(parity.countryCode) &&
    typeof parity.percentageAdjustment === "number" &&
    parity.percentageAdjustment > 0 &&
    parity.percentageAdjustment < 100
  );
}

/** The visitor's parity when it lowers prices, else null (full price, unknown country, or the call failed). */
export function useEdgeParity(): PricingParity | null {
  const [parity, setParity] = useState<PricingParity | null>(null);
  useEffect(() => {
    let live = true;
    apiJson<unknown>("/api/pricingParity")
      .then((answer) => {
        if (live && isParity(answer)) setParity(answer);
      })
      .catch(() => {
        // Spec section 8, 'Pricing parity failure | ignored': full prices stay.
      });
    return () => {
      live = false;
    };
  }, []);
  return parity;
}

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
          <s className="plan-card__original" aria-label={`Full price ${money(amount)}`}>
            {money(amount)}
          </s>{" "}
        </>
      )}
      <span className="plan-card__amount">{money(adjusted)}</span>
    </>
  );
}
