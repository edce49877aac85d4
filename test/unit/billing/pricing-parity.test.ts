import { describe, expect, it } from "vitest";
import { adjustedPrice, pricingParity } from "../../../workers/domain/pricing-parity.ts";

describe("pricing parity", () => {
  it("gives countries their group's discount, whatever the case of the code", () => {
    expect(pricingParity("in")).toEqual({ countryCode: "IN", percentageAdjustment: 50 });
    expect(pricingParity("BR")).toEqual({ countryCode: "BR", percentageAdjustment: 40 });
    expect(pricingParity("PL")).toEqual({ countryCode: "PL", percentageAdjustment: 20 });
  });

  it("charges full price for other or unknown countries", () => {
    expect(pricingParity("US")).toEqual({ countryCode: "US", percentageAdjustment: 0 });
    expect(pricingParity("XX").percentageAdjustment).toBe(0);
    expect(pricingParity(undefined)).toEqual({ countryCode: "", percentageAdjustment: 0 });
    expect(pricingParity("T1").percentageAdjustment).toBe(0); // Cloudflare's code for Tor
  });

  it("rounds adjusted prices to cents the way Stripe applies a percent-off coupon", () => {
    expect(adjustedPrice(16.99, { percentageAdjustment: 50 })).toBe(8.49); // 1699 - round(849.5), as Stripe charges
    expect(adjustedPrice(69.99, { percentageAdjustment: 50 })).toBe(34.99);
    expect(adjustedPrice(249, { percentageAdjustment: 50 })).toBe(124.5);
    expect(adjustedPrice(169, { percentageAdjustment: 40 })).toBe(101.4);
    expect(adjustedPrice(29.99, { percentageAdjustment: 0 })).toBe(29.99);
  });
});
