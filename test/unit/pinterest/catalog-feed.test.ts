import Papa from "papaparse";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { listingsAsItems, unpublishable } from "../../../app/lib/catalogs/api.ts";
import { CatalogItemInput } from "../../../contracts/pinterest/catalogs.ts";
import type { ShopListing } from "../../../contracts/shops/shops.ts";
import {
  feedFile,
  feedRecord,
  FEED_COLUMNS,
  isRefused,
  issueInWords,
  itemProblems,
  REQUIRED_FEED_COLUMNS,
  type FeedItem,
} from "../../../workers/domain/catalog-feed.ts";

// The feed file against Pinterest's product data specification (decision 043): the columns, the price format,
// the rules that make Pinterest refuse an item, and quoting that survives commas, quotes and line breaks.

const item = (fields: Partial<FeedItem> = {}): FeedItem => ({
  id: "item-1",
  title: "Linen napkins",
  description: "Stonewashed linen napkins, set of 4.",
  link: "https://linen.example/napkins",
  price: "24.50",
  currency: "USD",
  availability: "in stock",
  brand: "Linen & Lark",
  condition: "new",
  categories: ["Home", "Kitchen", "Napkins"],
  images: ["https://linen.example/a.jpg", "https://linen.example/b.jpg"],
  ...fields,
});

const refusals = (fields: Partial<FeedItem>, sizes = {}) =>
  itemProblems(item(fields), "USD", sizes)
    .filter((problem) => problem.severity === "refused")
    .map((problem) => problem.column);

describe("the checks Pinterest would make", () => {
  it("finds nothing wrong with a complete item", () => {
    expect(itemProblems(item(), "USD", { "https://linen.example/a.jpg": [1000, 1500], "https://linen.example/b.jpg": [800, 800] })).toEqual([]);
  });

  it("refuses a missing title, description, price, picture, a link that is not https, a title over 500 characters, a picture under 75 x 75", () => {
    expect(refusals({ title: " " })).toEqual(["title"]);
    expect(refusals({ title: "x".repeat(500) })).toEqual([]);
    expect(refusals({ title: "x".repeat(501) })).toEqual(["title"]);
    expect(refusals({ description: "" })).toEqual(["description"]);
    expect(refusals({ price: "" })).toEqual(["price"]);
    expect(refusals({ price: "12.999" })).toEqual(["price"]);
    expect(refusals({ images: [] })).toEqual(["image_link"]);
    expect(refusals({ link: "http://linen.example/napkins" })).toEqual(["link"]);
    expect(refusals({ link: "ftp://linen.example/napkins" })).toEqual(["link"]);
    expect(refusals({ link: `https://linen.example/${"a".repeat(500)}` })).toEqual(["link"]);
    expect(refusals({}, { "https://linen.example/a.jpg": [74, 300] })).toEqual(["image_link"]);
    expect(refusals({}, { "https://linen.example/a.jpg": [75, 75] })).toEqual([]);
    expect(refusals({}, { "https://linen.example/a.jpg": null })).toEqual(["image_link"]);
    // An item without a currency takes the catalog's; with neither it cannot be priced.
    expect(itemProblems(item({ currency: "" }), "EUR")).toEqual([]);
    expect(itemProblems(item({ currency: "" }), "").map((problem) => problem.column)).toEqual(["price"]);
  });

  it("says what is wrong in plain words, and only warns where Pinterest takes the item with a loss", () => {
    const [problem] = itemProblems(item({ images: ["https://linen.example/a.jpg"] }), "USD", { "https://linen.example/a.jpg": [32, 32] });
    expect(problem).toEqual({
      column: "image_link",
      severity: "refused",
      message: "The main picture is too small (32 x 32 pixels); Pinterest needs at least 75 x 75.",
    });
    const long = itemProblems(item({ description: "d".repeat(10_001) }), "USD");
    expect(long.map((entry) => entry.severity)).toEqual(["warning"]);
    expect(isRefused(long)).toBe(false);
    expect(issueInWords("ITEM_MAIN_IMAGE_DOWNLOAD_FAILURE")).toBe("Pinterest could not download the main picture.");
    expect(issueInWords("SOME_NEW_CODE")).toBe("Pinterest reported: Some new code.");
  });
});

describe("the feed file", () => {
  it("has Pinterest's required columns first, prices as '24.50 USD', more pictures comma-separated, categories as a product type", () => {
    expect(FEED_COLUMNS.slice(0, REQUIRED_FEED_COLUMNS.length)).toEqual(["id", "title", "description", "link", "image_link", "price", "availability"]);
    expect(feedRecord(item(), "USD")).toEqual({
      id: "item-1",
      title: "Linen napkins",
      description: "Stonewashed linen napkins, set of 4.",
      link: "https://linen.example/napkins",
      image_link: "https://linen.example/a.jpg",
      price: "24.50 USD",
      availability: "in stock",
      additional_image_link: "https://linen.example/b.jpg",
      brand: "Linen & Lark",
      condition: "new",
      product_type: "Home > Kitchen > Napkins",
    });
    expect(feedRecord(item({ currency: "" }), "GBP").price).toBe("24.50 GBP");
  });

  it("leaves out refused items and too-small extra pictures, and reads back exactly through a CSV parser", () => {
    const tricky = item({ id: "item-2", title: 'The "Sunday" apron, navy', description: "Two pockets,\nadjustable strap.\r\nMachine washable." });
    const file = feedFile([item(), tricky, item({ id: "item-3", price: "" })], "USD", { "https://linen.example/b.jpg": [40, 40] });
    expect(file.included).toEqual(["item-1", "item-2"]);
    expect(file.leftOut).toEqual(["item-3"]);
    const parsed = Papa.parse<Record<string, string>>(file.csv, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...FEED_COLUMNS]);
    expect(parsed.data.map((row) => row.id)).toEqual(["item-1", "item-2"]);
    expect(parsed.data[1].title).toBe('The "Sunday" apron, navy');
    expect(parsed.data[1].description).toBe("Two pockets,\nadjustable strap.\r\nMachine washable.");
    // The 40 x 40 extra picture is not sent.
    expect(parsed.data[0].additional_image_link).toBe("");
    expect(parsed.data.every((row) => /^\d+\.\d{2} [A-Z]{3}$/.test(row.price))).toBe(true);
  });
});

describe("shop products as they reach a catalog (issue 40 point 2)", () => {
  const listing = (fields: Partial<ShopListing> = {}): ShopListing => ({
    id: "1",
    title: "Stoneware mug",
    description: "A hand-thrown mug.",
    images: [{ full: "http://shop.example/mug.jpg", medium: "", small: "" }],
    categories: [],
    price: "24.00",
    currency: "USD",
    url: "http://shop.example/products/mug",
    ...fields,
  });

  it("normalises the product link to https as it arrives (spec section 5), so it can be published; pictures keep their address", () => {
    const { items, skipped } = listingsAsItems([listing()]);
    expect(skipped).toBe(0);
    expect(items[0]).toMatchObject({ link: "https://shop.example/products/mug", images: ["http://shop.example/mug.jpg"] });
    expect(unpublishable(items)).toEqual([]);
    // The API's own schema does the same for whatever calls it.
    expect(v.parse(CatalogItemInput, { title: "Mug", link: "HTTP://shop.example/x" }).link).toBe("https://shop.example/x");
  });

  it("says which chosen products Pinterest would refuse, and why, before they are added", () => {
    const { items } = listingsAsItems([listing(), listing({ title: "Gift card", price: "" }), listing({ title: "Sticker", images: [] })]);
    expect(unpublishable(items)).toEqual([
      { title: "Gift card", reason: "The item has no price." },
      { title: "Sticker", reason: "The item has no picture." },
    ]);
  });
});
