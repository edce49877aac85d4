import type { ShopListing } from "../../contracts/shops/shops.ts";
import { readFragment } from "../scrape/page-reader.ts";
import { cleanText } from "../scrape/text.ts";
import type { WooProduct } from "./woocommerce.ts";

/**
 * A WooCommerce product as the app's shop listing (decision 030). Apart from the
 * REST client (./woocommerce.ts) because it reads HTML with the Workers runtime's
 * HTMLRewriter, which the client's calls do not need.
 */

/** The text of a WooCommerce HTML field as people read it. */
async function htmlText(html: string | undefined, maxLength: number): Promise<string> {
  if (!html) return "";
  return cleanText((await readFragment(html)).text, maxLength);
}

const httpUrl = (value: unknown): value is string => typeof value === "string" && /^https?:\/\//i.test(value);

/**
 * A product as a shop listing. WooCommerce gives one size of each picture (the
 * upload itself), so full, medium and small are the same address. Categories
 * come first, then tags; the description falls back to the short description.
 */
export async function toShopListing(product: WooProduct, currency: string): Promise<ShopListing> {
  const description = (await htmlText(product.description, 5000)) || (await htmlText(product.short_description, 5000));
  const names = [...(product.categories ?? []), ...(product.tags ?? [])].map((term) => cleanText(term?.name, 100)).filter(Boolean);
  return {
    id: String(product.id),
    title: await htmlText(product.name, 500),
    description,
    images: (product.images ?? []).filter((image) => httpUrl(image?.src)).map((image) => ({ full: image.src, medium: image.src, small: image.src })),
    categories: [...new Set(names)],
    price: typeof product.price === "string" && /^\d+(\.\d+)?$/.test(product.price) ? product.price : "",
    currency,
    url: httpUrl(product.permalink) ? product.permalink : "",
  };
}
