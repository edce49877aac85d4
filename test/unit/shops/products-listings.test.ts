import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ShopListing, ShopListingsPage, ShopProfileView } from "../../../contracts/shops/shops.ts";
import {
  chosenPinTotal,
  formatPrice,
  generationPlan,
  pageAllChosen,
  pageNumbers,
  pinCountOf,
  productSource,
  setChosen,
  setPageChosen,
  shopItemKey,
  type ProductItem,
} from "../../../app/lib/products/chosen-products.ts";
import type { ListingRequest } from "../../../app/lib/shops/api.ts";
import { ListingsModel, pageCount } from "../../../app/lib/shops/listings-model.ts";

// The products page's listing logic (issue 14) with the shops client mocked: which page of which shop is
// asked for, the 300 ms search debounce, paging by number and by Shopify's links, answers that arrive
// late, the server's message on failure, and choosing products ("Select all on this page", pins per product).

const shop = (shopType: ShopProfileView["shopType"], id = `${shopType.toLowerCase()}-1`): ShopProfileView => ({
  id,
  shopType,
  shopName: `My ${shopType} shop`,
  shopUrl: null,
  isActive: true,
  status: "ok",
});
const listing = (n: number): ShopListing => ({
  id: String(n),
  title: `Product ${n}`,
  description: `About product ${n}`,
  images: [{ full: `https://cdn.example.com/${n}.jpg`, medium: `https://cdn.example.com/${n}-m.jpg`, small: `https://cdn.example.com/${n}-s.jpg` }],
  categories: ["Home"],
  price: "24.00",
  currency: "USD",
  url: `https://shop.example.com/products/${n}`,
});
const page = (from: number, size: number, count: number, links: Partial<ShopListingsPage> = {}): ShopListingsPage => ({
  listings: Array.from({ length: size }, (_, i) => listing(from + i)),
  count,
  ...links,
});

/** A client whose answers the test releases by hand. */
function fakeClient() {
  const calls: { shop: ShopProfileView; request: ListingRequest; resolve(page: ShopListingsPage): void; reject(error: Error): void }[] = [];
  return {
    calls,
    fetchShopListings: vi.fn(
      (target: ShopProfileView, request: ListingRequest) =>
        new Promise<ShopListingsPage>((resolve, reject) => {
          calls.push({ shop: target, request, resolve, reject });
        }),
    ),
  };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a shop's listings on the products page", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => vi.useRealTimers());

  it("loads the first page of a shop, then numbered pages (Etsy, WooCommerce)", async () => {
    const client = fakeClient();
    const model = new ListingsModel(client);
    const etsy = shop("Etsy");
    model.selectShop(etsy);
    expect(model.getState().phase).toBe("loading");
    expect(client.calls[0].request).toEqual({ search: "", page: 1, status: "all", paginationLink: null });
    client.calls[0].resolve(page(1, 50, 133));
    await settle();
    expect(model.getState()).toMatchObject({ phase: "ready", count: 133, page: 1 });
    expect(model.getState().listings).toHaveLength(50);
    expect(pageCount(model.getState().count)).toBe(3);

    model.goToPage(3);
    expect(client.calls[1].request.page).toBe(3);
    client.calls[1].resolve(page(101, 33, 133));
    await settle();
    expect(model.getState().listings[0].title).toBe("Product 101");
    model.nextPage();
    expect(client.calls, "no page after the last").toHaveLength(2);
    model.previousPage();
    expect(client.calls[2].request.page).toBe(2);
  });

  it("searches 300 ms after the last key, from the first page, once", async () => {
    const client = fakeClient();
    const model = new ListingsModel(client);
    model.selectShop(shop("WooCommerce"));
    client.calls[0].resolve(page(1, 50, 133));
    await settle();
    model.goToPage(2);
    client.calls[1].resolve(page(51, 50, 133));
    await settle();

    model.setSearch("m");
    vi.advanceTimersByTime(200);
    model.setSearch("mu");
    vi.advanceTimersByTime(200);
    model.setSearch("mug ");
    expect(model.getState().search).toBe("mug ");
    vi.advanceTimersByTime(299);
    expect(client.calls).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(client.calls).toHaveLength(3);
    expect(client.calls[2].request).toMatchObject({ search: "mug", page: 1 });
    client.calls[2].resolve(page(1, 7, 7));
    await settle();
    expect(model.getState()).toMatchObject({ phase: "ready", count: 7, page: 1 });

    // The same words again (a space added) ask nothing more.
    model.setSearch("mug");
    vi.advanceTimersByTime(300);
    expect(client.calls).toHaveLength(3);
  });

  it("pages Shopify by its links, with the status filter (default 'all')", async () => {
    const client = fakeClient();
    const model = new ListingsModel(client);
    model.selectShop(shop("Shopify"));
    expect(client.calls[0].request).toMatchObject({ status: "all", paginationLink: null });
    client.calls[0].resolve(page(1, 50, 147, { nextPageLink: "cursor-after-50", previousPageLink: null }));
    await settle();
    model.previousPage();
    expect(client.calls, "no page before the first").toHaveLength(1);
    model.nextPage();
    expect(client.calls[1].request).toMatchObject({ paginationLink: "cursor-after-50" });
    client.calls[1].resolve(page(51, 50, 147, { nextPageLink: "cursor-after-100", previousPageLink: "cursor-before-51" }));
    await settle();
    expect(model.getState().page).toBe(2);
    model.nextPage();
    expect(client.calls[2].request.paginationLink).toBe("cursor-after-100");
    client.calls[2].resolve(page(101, 47, 147, { nextPageLink: null, previousPageLink: "cursor-before-101" }));
    await settle();
    model.nextPage();
    expect(client.calls).toHaveLength(3);
    model.previousPage();
    expect(client.calls[3].request).toMatchObject({ paginationLink: "cursor-before-101" });
    expect(model.getState().page).toBe(2);

    model.setStatus("draft");
    expect(client.calls[4].request).toMatchObject({ status: "draft", paginationLink: null });
    expect(model.getState().page).toBe(1);
  });

  it("drops an answer that was overtaken, and shows the server's message when a call fails", async () => {
    const client = fakeClient();
    const model = new ListingsModel(client);
    const first = shop("Etsy", "etsy-1");
    const second = shop("WooCommerce", "woo-2");
    model.selectShop(first);
    model.selectShop(second);
    client.calls[1].resolve(page(1, 3, 3));
    await settle();
    client.calls[0].resolve(page(900, 50, 999));
    await settle();
    expect(model.getState().listings.map((item) => item.title)).toEqual(["Product 1", "Product 2", "Product 3"]);
    expect(model.getState().shop?.id).toBe("woo-2");

    model.setSearch("vase");
    vi.advanceTimersByTime(300);
    client.calls[2].reject(new Error("Unable to get shop listings: The store did not answer"));
    await settle();
    expect(model.getState()).toMatchObject({ phase: "failed", error: "Unable to get shop listings: The store did not answer" });
    model.retry();
    expect(client.calls[3].request).toMatchObject({ search: "vase", page: 1 });
    expect(model.getState().phase).toBe("loading");
  });
});

describe("choosing products", () => {
  const items: ProductItem[] = [1, 2, 3].map((n) => ({
    key: shopItemKey("etsy-1", String(n)),
    listing: listing(n),
    sourceName: "My Etsy shop",
    defaultPins: 5,
  }));

  it("selects all on a page, keeps choices from other pages, and counts the pins (at most 200)", () => {
    const other: ProductItem = { key: "csv:7", listing: listing(7), sourceName: "", defaultPins: 3 };
    let chosen = setChosen(new Map(), other, true);
    chosen = setPageChosen(chosen, items, true);
    expect(pageAllChosen(chosen, items)).toBe(true);
    expect([...chosen.keys()]).toEqual(["csv:7", "shop:etsy-1:1", "shop:etsy-1:2", "shop:etsy-1:3"]);
    chosen = setChosen(chosen, items[1], false);
    expect(pageAllChosen(chosen, items)).toBe(false);
    expect(pageAllChosen(chosen, [])).toBe(false);
    const pins = new Map([[items[0].key, 20]]);
    expect(chosenPinTotal(chosen, pins)).toEqual({ wanted: 3 + 20 + 5, made: 28 });
    chosen = setPageChosen(chosen, items, false);
    expect([...chosen.keys()]).toEqual(["csv:7"]);

    const many = Array.from({ length: 50 }, (_, n) => ({ ...items[0], key: `shop:etsy-1:${n}` }));
    expect(chosenPinTotal(setPageChosen(new Map(), many, true), new Map())).toEqual({ wanted: 250, made: 200 });
    const plan = generationPlan(setPageChosen(new Map(), many, true), new Map(), "en-US");
    expect(plan.sources).toHaveLength(40);
    expect(plan.pinCounts.reduce((a, b) => a + b, 0)).toBe(200);
  });

  it("reads a typed pin count from 1 to 20", () => {
    expect(pinCountOf("7")).toBe(7);
    expect(pinCountOf(" 20 ")).toBe(20);
    expect([pinCountOf("0"), pinCountOf("21"), pinCountOf("2.5"), pinCountOf("")]).toEqual([null, null, null, null]);
  });

  it("hands a product to the generator with its price in the user's locale, pictures and link", () => {
    expect(productSource(items[0], "en-US")).toEqual({
      url: "https://shop.example.com/products/1",
      title: "Product 1",
      description: "About product 1",
      allImages: ["https://cdn.example.com/1.jpg"],
      date: "",
      siteName: "My Etsy shop",
      price: "$24.00",
    });
    expect(formatPrice("24.5", "EUR", "de-DE")).toBe("24,50\u00a0€");
    expect(formatPrice("1299", "GBP", "en-GB")).toBe("£1,299.00");
    expect(formatPrice("12", "", "en-US")).toBe("12");
    expect(formatPrice("", "USD", "en-US")).toBe("");
    const csvRow: ProductItem = { key: "csv:2", listing: { ...listing(2), price: "", currency: "" }, sourceName: "", defaultPins: 5 };
    expect(productSource(csvRow, "en-US")).not.toHaveProperty("price");
    expect(productSource(csvRow, "en-US").siteName).toBe("shop.example.com");
  });

  it("numbers the pages around the current one", () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(10, 200)).toEqual([1, "gap", 8, 9, 10, 11, 12, "gap", 200]);
    expect(pageNumbers(200, 200)).toEqual([1, "gap", 198, 199, 200]);
  });
});
