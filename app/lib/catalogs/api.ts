import * as v from "valibot";
import {
  CatalogItemInput,
  OPEN_LATEST,
  type Catalog,
  type CatalogItem,
  type CatalogsState,
  type CatalogStatus,
  type UpdateCatalogItemInput,
} from "../../../contracts/pinterest/catalogs.ts";
import type { ShopListing } from "../../../contracts/shops/shops.ts";
import { itemProblems } from "../../../workers/domain/catalog-feed.ts";
import { apiJson } from "../api-client.ts";

/**
 * The catalog calls of the pages (spec section 7, Shops and catalogs; decision 043):
 * the spec's paths, and ours beside them.
 */

export function fetchCatalogs(openId: string | null): Promise<CatalogsState> {
  return apiJson<CatalogsState>(`/api/catalogs/getCatalogs/${encodeURIComponent(openId ?? OPEN_LATEST)}`);
}

export async function createCatalog(input: { name: string; pinterestUsername?: string }): Promise<Catalog> {
  return (await apiJson<{ catalog: Catalog }>("/api/catalogs/createCatalog", { json: input })).catalog;
}

export async function updateCatalog(id: string, input: { name?: string; pinterestUsername?: string; currency?: string }): Promise<Catalog> {
  return (await apiJson<{ catalog: Catalog }>(`/api/catalogs/updateCatalog/${encodeURIComponent(id)}`, { method: "PATCH", json: input })).catalog;
}

export function deleteCatalog(id: string): Promise<{ deletedCatalogID: string; allCatalogs: Catalog[] }> {
  return apiJson(`/api/catalogs/deleteCatalog/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function addItemsToCatalog(catalogID: string, items: CatalogItemInput[]): Promise<{ catalogItems: CatalogItem[]; added: number }> {
  return apiJson("/api/catalogs/addItemsToCatalog", { json: { catalogID, items } });
}

export async function updateCatalogItem(id: string, input: UpdateCatalogItemInput): Promise<CatalogItem> {
  return (await apiJson<{ catalogItem: CatalogItem }>(`/api/catalogs/updateCatalogItem/${encodeURIComponent(id)}`, { method: "PATCH", json: input }))
    .catalogItem;
}

export async function deleteCatalogItemImage(catalogItemID: string, image: string): Promise<CatalogItem> {
  return (await apiJson<{ catalogItem: CatalogItem }>("/api/catalogs/deleteCatalogItemImage", { method: "DELETE", json: { catalogItemID, image } }))
    .catalogItem;
}

export function deleteCatalogItem(id: string): Promise<{ deletedCatalogItemID: string }> {
  return apiJson(`/api/catalogs/deleteCatalogItem/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function publishCatalog(id: string): Promise<CatalogStatus> {
  return apiJson(`/api/catalogs/publishCatalog/${encodeURIComponent(id)}`, { method: "POST" });
}

export function fetchCatalogStatus(id: string): Promise<CatalogStatus> {
  return apiJson(`/api/catalogs/getCatalogStatus/${encodeURIComponent(id)}`);
}

/**
 * Shop listings and CSV rows as catalog items, checked with the API's own
 * schema: an item it would refuse (no title, a link that is not a web address)
 * is left out and counted, so one bad row never refuses the others.
 */
export function listingsAsItems(listings: readonly ShopListing[]): { items: CatalogItemInput[]; skipped: number } {
  const items: CatalogItemInput[] = [];
  let skipped = 0;
  for (const listing of listings) {
    const candidate = {
      title: listing.title,
      description: listing.description,
      link: listing.url,
      price: listing.price,
      currency: listing.currency,
      availability: "in stock",
      categories: listing.categories.slice(0, 20),
      images: [...new Set(listing.images.map((image) => image.full).filter(Boolean))].slice(0, 11),
    };
    const parsed = v.safeParse(CatalogItemInput, candidate);
    // The parsed item: its addresses normalised to https as they arrive (spec section 5, issue 40 point 2).
    if (parsed.success && parsed.output.title) items.push(parsed.output);
    else skipped += 1;
  }
  return { items, skipped };
}

/**
 * The items Pinterest would refuse as they stand, each with its first reason in plain words (the checks a
 * catalog runs before publishing, less the picture sizes it measures later): said on /products as the products
 * are chosen, not on the catalog page later (issue 40 point 2).
 */
export function unpublishable(items: readonly CatalogItemInput[], catalogCurrency = "USD"): { title: string; reason: string }[] {
  return items.flatMap((item, index) => {
    const parsed = v.parse(CatalogItemInput, item);
    const refused = itemProblems({ ...parsed, id: `item-${index}` }, catalogCurrency).filter((problem) => problem.severity === "refused");
    return refused.length > 0 ? [{ title: parsed.title, reason: refused[0].message }] : [];
  });
}

/** Adds items in calls of at most 500 (the API's limit per call). */
export async function addAllItems(catalogID: string, items: CatalogItemInput[]): Promise<number> {
  let added = 0;
  for (let start = 0; start < items.length; start += 500) added += (await addItemsToCatalog(catalogID, items.slice(start, start + 500))).added;
  return added;
}
