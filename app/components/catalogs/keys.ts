/**
 * The cache keys of the catalog reads, shared by /pinterest-catalogs and /products' 'Create a Pinterest
 * Catalog' section: a change made on one page is seen on the other.
 */

/** Every catalog read starts with this: refreshing it re-reads them all. */
export const CATALOGS_KEY = ["catalogs"];

/** The catalogs, with `openId`'s items (null: the newest catalog's), as GET /api/catalogs/getCatalogs answers. */
export const catalogsKey = (openId: string | null) => ["catalogs", "open", openId];

/** Pinterest's view of one catalog (GET /api/catalogs/getCatalogStatus). */
export const catalogStatusKey = (catalogId: string) => ["catalogs", "status", catalogId];
