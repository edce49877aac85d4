import { describe, expect, it } from "vitest";
import { normaliseShopDomain } from "../../../contracts/shops/shopify-shop.ts";
import { productSearchQuery, signedMessage, toListing, verifyQueryHmac, type ShopifyProduct } from "../../../workers/integrations/shopify-admin.ts";

// The pure rules of the Shopify store connection (decision 029).

describe("Shopify's redirect HMAC", () => {
  // Shopify's documented example: secret "hush".
  const query =
    "code=0907a61c0c8d55e99db179b68161bc00&hmac=700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173";

  it("signs every parameter but hmac, sorted by name", async () => {
    const params = new URLSearchParams(query);
    expect(signedMessage(params)).toBe("code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173");
    expect(await verifyQueryHmac("hush", params)).toBe(true);
    // Order in the URL does not matter; repeated parameters are signed as Shopify lists them.
    expect(signedMessage(new URLSearchParams("timestamp=1&ids[]=2&ids[]=1&hmac=x"))).toBe('ids[]=["2", "1"]&timestamp=1');
  });

  it("refuses another secret, a changed parameter, an added one and a malformed hmac", async () => {
    expect(await verifyQueryHmac("hush!", new URLSearchParams(query))).toBe(false);
    expect(await verifyQueryHmac("hush", new URLSearchParams(query.replace("some-shop", "evil-shop")))).toBe(false);
    expect(await verifyQueryHmac("hush", new URLSearchParams(`${query}&extra=1`))).toBe(false);
    expect(await verifyQueryHmac("hush", new URLSearchParams(query.replace(/hmac=[0-9a-f]+/, "hmac=zz")))).toBe(false);
    expect(await verifyQueryHmac("hush", new URLSearchParams(query.replace(/&hmac=[0-9a-f]+/, "")))).toBe(false);
  });
});

describe("store addresses and searches", () => {
  it("forgives what people paste as their store's address", () => {
    expect(normaliseShopDomain(" https://My-Store.myshopify.com/admin/products ")).toBe("my-store.myshopify.com");
    expect(normaliseShopDomain("my-store")).toBe("my-store.myshopify.com");
    expect(normaliseShopDomain("shop.example.com")).toBe("shop.example.com");
  });

  it("quotes each word searched for and adds the status unless every status is wanted", () => {
    expect(productSearchQuery("  blue  mug ", "all")).toBe('"blue" "mug"');
    expect(productSearchQuery("", "draft")).toBe("status:draft");
    expect(productSearchQuery('status:active "x\\', "archived")).toBe('"status:active" "x" status:archived');
  });
});

describe("a Shopify product as a listing", () => {
  const product: ShopifyProduct = {
    id: "gid://shopify/Product/8801234560001",
    title: "Speckled Mug",
    description: "",
    descriptionHtml: "<p>Holds 12&nbsp;oz &amp; more.</p>",
    handle: "speckled-mug",
    onlineStoreUrl: null,
    productType: "Kitchen",
    tags: ["mug", "Kitchen", " "],
    status: "DRAFT",
    priceRangeV2: { minVariantPrice: { amount: "2400.0", currencyCode: "JPY" } },
    media: { nodes: [{ image: { full: "https://cdn.example/a.jpg", medium: "https://cdn.example/a.jpg?width=600", small: "" } }, {}, null] },
  };

  it("keeps the photos, the categories once each, the price as the currency writes it, and a link to the product", () => {
    expect(toListing(product, "https://shop.example/")).toEqual({
      id: "8801234560001",
      title: "Speckled Mug",
      description: "Holds 12 oz & more.",
      images: [{ full: "https://cdn.example/a.jpg", medium: "https://cdn.example/a.jpg?width=600", small: "https://cdn.example/a.jpg" }],
      categories: ["Kitchen", "mug"],
      price: "2400",
      currency: "JPY",
      url: "https://shop.example/products/speckled-mug",
    });
    expect(toListing({ ...product, priceRangeV2: { minVariantPrice: { amount: "24.5", currencyCode: "USD" } } }, "https://s").price).toBe("24.50");
  });
});
