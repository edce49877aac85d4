import { MAX_PINS_PER_SOURCE } from "../../../contracts/content/design-settings.ts";
import { MAX_POSTS } from "../../../contracts/content/post.ts";
import type { Source } from "../../../contracts/content/scrape.ts";
import type { PinSource } from "../../../contracts/pinterest/analytics.ts";
import type { ShopListing } from "../../../contracts/shops/shops.ts";
import { urlTextOf } from "../../../workers/domain/generate.ts";

/**
 * The products a user picked on /products (a shop's listings or CSV rows, on
 * any page) and how many pins each makes, as pure rules: the page keeps them
 * in a Map by key, so paging and switching shops keep the choice.
 */

/** A product on the page: a listing, where it comes from, and the pins it makes unless the user changes them. */
export interface ProductItem {
  /** Unique across sources: "shop:{shopId}:{listingId}" or "csv:{row}". */
  key: string;
  listing: ShopListing;
  /** The shop's name, or the CSV file's: the pin's brand name. */
  sourceName: string;
  defaultPins: number;
}

export type Chosen = ReadonlyMap<string, ProductItem>;
export type PinCounts = ReadonlyMap<string, number>;

export const shopItemKey = (shopId: string, listingId: string) => `shop:${shopId}:${listingId}`;
export const csvItemKey = (row: number) => `csv:${row}`;

/** The product checked or unchecked (spec: isChecked). */
export function setChosen(chosen: Chosen, item: ProductItem, on: boolean): Map<string, ProductItem> {
  const next = new Map(chosen);
  if (on) next.set(item.key, item);
  else next.delete(item.key);
  return next;
}

/** "Select all on this page": every product of the page checked, or all of them unchecked. */
export function setPageChosen(chosen: Chosen, page: readonly ProductItem[], on: boolean): Map<string, ProductItem> {
  const next = new Map(chosen);
  for (const item of page) {
    if (on) next.set(item.key, item);
    else next.delete(item.key);
  }
  return next;
}

/** Whether every product of the page is checked (false for an empty page). */
export function pageAllChosen(chosen: Chosen, page: readonly ProductItem[]): boolean {
  return page.length > 0 && page.every((item) => chosen.has(item.key));
}

/** A pin count as typed: a whole number from 1 to MAX_PINS_PER_SOURCE, or null. */
export function pinCountOf(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && value <= MAX_PINS_PER_SOURCE ? value : null;
}

export function pinsOf(item: ProductItem, pins: PinCounts): number {
  return pins.get(item.key) ?? item.defaultPins;
}

/** The pins the chosen products make, in all and as one generation holds them (at most MAX_POSTS). */
export function chosenPinTotal(chosen: Chosen, pins: PinCounts): { wanted: number; made: number } {
  let wanted = 0;
  for (const item of chosen.values()) wanted += pinsOf(item, pins);
  return { wanted, made: Math.min(wanted, MAX_POSTS) };
}

/** A price in its currency for the user's locale ("$24.00", "24,00 €"); the bare number when the currency is unknown. */
export function formatPrice(price: string, currency: string, locale: string | undefined): string {
  if (!price) return "";
  const amount = Number(price);
  if (!Number.isFinite(amount)) return price;
  try {
    return currency
      ? new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount)
      : new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }).format(amount);
  } catch {
    // An unknown locale or currency code: the number and the code as given.
    return currency ? `${price} ${currency}` : price;
  }
}

/** A product as a generator source: its title, description, price, pictures and link feed the templates. */
export function productSource(item: ProductItem, locale: string | undefined): Source {
  const { listing } = item;
  const price = formatPrice(listing.price, listing.currency, locale);
  return {
    url: listing.url,
    title: listing.title,
    description: listing.description,
    allImages: listing.images.map((image) => image.full).filter(Boolean),
    date: "",
    siteName: item.sourceName || urlTextOf(listing.url),
    ...(price ? { price } : {}),
  };
}

/** The numbered pages to offer around `current` of `total`: the first, the last, two either side, and gaps between. */
export function pageNumbers(current: number, total: number): (number | "gap")[] {
  const shown = new Set([1, total, current - 2, current - 1, current, current + 1, current + 2].filter((page) => page >= 1 && page <= total));
  const sorted = [...shown].sort((a, b) => a - b);
  const result: (number | "gap")[] = [];
  for (const [index, page] of sorted.entries()) {
    if (index > 0 && page - sorted[index - 1] > 1) result.push("gap");
    result.push(page);
  }
  return result;
}

/** What /generate receives: the chosen products as sources, in the order chosen, and the pins each makes (at most MAX_POSTS in all). */
export interface GenerationPlan {
  sources: Source[];
  pinCounts: number[];
  /** Where each product came from (a shop or a CSV file), sent with its pins (issue 41). */
  from: PinSource[];
}

/** A product's kind of source, by its key. */
export const pinSourceOfItem = (item: Pick<ProductItem, "key">): PinSource => (item.key.startsWith("csv:") ? "csv" : "shop");

export function generationPlan(chosen: Chosen, pins: PinCounts, locale: string | undefined): GenerationPlan {
  const plan: GenerationPlan = { sources: [], pinCounts: [], from: [] };
  let room = MAX_POSTS;
  for (const item of chosen.values()) {
    if (room <= 0) break;
    const count = Math.min(pinsOf(item, pins), room);
    plan.sources.push(productSource(item, locale));
    plan.pinCounts.push(count);
    plan.from.push(pinSourceOfItem(item));
    room -= count;
  }
  return plan;
}
