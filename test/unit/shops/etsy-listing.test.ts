import { describe, expect, it } from "vitest";
import { priceText, toShopListing, type EtsyListing } from "../../../workers/integrations/etsy.ts";
import { waitInWords } from "../../../workers/domain/waiting.ts";

// Etsy's listing in the app's shape (decision 028): the price counted exactly from amount and
// divisor, Etsy's HTML-escaped text decoded, pictures in rank order, categories from the section and tags.

describe("an Etsy price", () => {
  it.each([
    [{ amount: 2450, divisor: 100, currency_code: "USD" }, "24.50"],
    [{ amount: 5, divisor: 100, currency_code: "USD" }, "0.05"],
    [{ amount: 100, divisor: 100, currency_code: "USD" }, "1.00"],
    [{ amount: 1999, divisor: 1, currency_code: "JPY" }, "1999"],
    [{ amount: 12345, divisor: 1000, currency_code: "BHD" }, "12.345"],
    [{ amount: 1000000001, divisor: 100, currency_code: "USD" }, "10000000.01"],
    [{ amount: 1000, divisor: 3, currency_code: "USD" }, "333.33"],
  ])("%j is %s", (money, text) => {
    expect(priceText(money)).toBe(text);
  });

  it("is empty when Etsy gives none or an unreadable one", () => {
    expect(priceText(undefined)).toBe("");
    expect(priceText({ amount: 10, divisor: 0, currency_code: "USD" })).toBe("");
    expect(priceText({ amount: 1.5, divisor: 100, currency_code: "USD" })).toBe("");
  });
});

const listing: EtsyListing = {
  listing_id: 1500001147,
  shop_id: 30000003,
  title: "Sea Salt &amp; Sage Soy Candle, &quot;Tide&quot; Edition",
  description: "Hand-poured &amp; packed plastic-free. It&#39;s 45 hours of burn.",
  state: "active",
  url: "https://www.etsy.com/listing/1500001147/sea-salt-sage-soy-candle",
  tags: ["candle", "Home Fragrance", "sage", "handmade"],
  shop_section_id: 41000101,
  taxonomy_id: 1002,
  price: { amount: 2600, divisor: 100, currency_code: "USD" },
  images: [
    { listing_id: 1, listing_image_id: 2, rank: 2, url_75x75: "s75-2", url_170x135: "s170-2", url_570xN: "m-2", url_fullxfull: "f-2" },
    { listing_id: 1, listing_image_id: 1, rank: 1, url_75x75: "s75-1", url_170x135: "s170-1", url_570xN: "m-1", url_fullxfull: "f-1" },
  ],
};

describe("an Etsy listing as the app shows it", () => {
  it("decodes Etsy's escaped text, orders the pictures by rank and files it under its section, then its tags", () => {
    expect(toShopListing(listing, new Map([[41000101, "Home Fragrance"]]))).toEqual({
      id: "1500001147",
      title: 'Sea Salt & Sage Soy Candle, "Tide" Edition',
      description: "Hand-poured & packed plastic-free. It's 45 hours of burn.",
      images: [
        { full: "f-1", medium: "m-1", small: "s170-1" },
        { full: "f-2", medium: "m-2", small: "s170-2" },
      ],
      categories: ["Home Fragrance", "candle", "sage", "handmade"],
      price: "26.00",
      currency: "USD",
      url: "https://www.etsy.com/listing/1500001147/sea-salt-sage-soy-candle",
    });
  });

  it("has no pictures and only its tags when Etsy sent no images and the section is unknown", () => {
    const bare = toShopListing({ ...listing, images: undefined, shop_section_id: null }, new Map());
    expect(bare.images).toEqual([]);
    expect(bare.categories).toEqual(["candle", "Home Fragrance", "sage", "handmade"]);
  });
});

describe("how long to wait, in words", () => {
  it.each([
    [0.2, "1 second"],
    [1, "1 second"],
    [30, "30 seconds"],
    [119, "119 seconds"],
    [600, "10 minutes"],
    [7199, "120 minutes"],
    [7200, "2 hours"],
    [86_400, "24 hours"],
  ])("%i s is %s", (seconds, text) => {
    expect(waitInWords(seconds)).toBe(text);
  });
});
