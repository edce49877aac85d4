import { describe, expect, it } from "vitest";
import { amountIn, priceTag, usd, usdFromCents } from "../../../contracts/money.ts";

// The one money formatter (contracts/money.ts) that the pages, the e-mails and the admin's messages share.
describe("money as people read it", () => {
  it("writes dollars with their cents, the sign before the dollar sign and thousands grouped", () => {
    expect(usd(16.99)).toBe("$16.99");
    expect(usd(17)).toBe("$17.00");
    expect(usd(-4.25)).toBe("-$4.25");
    expect(usd(1250)).toBe("$1,250.00");
    expect(usd(-0)).toBe("$0.00");
  });

  it("leaves the cents off a whole price tag only", () => {
    expect(priceTag(17)).toBe("$17");
    expect(priceTag(16.99)).toBe("$16.99");
    expect(priceTag(699)).toBe("$699");
    expect(priceTag(12.5)).toBe("$12.50");
  });

  it("rounds to the dollar for a chart's axis", () => {
    expect(usd(1234.56, { cents: "none" })).toBe("$1,235");
  });

  it("reads cents as dollars", () => {
    expect(usdFromCents(425)).toBe("$4.25");
    expect(usdFromCents(-425)).toBe("-$4.25");
    expect(usdFromCents(17_475)).toBe("$174.75");
  });

  it("writes another currency with its code", () => {
    expect(amountIn(16.99, "usd")).toBe("$16.99");
    expect(amountIn(12, "eur")).toBe("12.00 EUR");
  });
});
