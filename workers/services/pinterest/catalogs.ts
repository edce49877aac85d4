import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type * as v from "valibot";
import {
  CATALOG_ITEM_NOT_FOUND,
  CATALOG_NOT_FOUND,
  MAX_CATALOG_ITEMS,
  MAX_CATALOGS,
  OPEN_LATEST,
  type Catalog,
  type CatalogItem,
  type CatalogItemInput as CatalogItemSchema,
  type CatalogItemIssue,
  type CatalogProcessing,
  type CatalogsState,
  type CatalogStatus,
  type UpdateCatalogItemInput,
} from "../../../contracts/pinterest/catalogs.ts";
import type { PinterestFeedProcessingResult } from "../../../contracts/pinterest/pinterest.ts";
import { randomToken } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { catalogItems, catalogs, pinterestProfiles } from "../../db/schema.ts";
import { columnOf, feedFile, isRefused, issueInWords, itemProblems, type FeedItem, type ImageSizes } from "../../domain/catalog-feed.ts";
import type { Env } from "../../env.ts";
import { PinterestApiError } from "../../integrations/pinterest.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { pictureSize } from "../content/image-proxy.ts";
import { withPinterest, type PinterestProfile } from "./pinterest-connection.ts";

/**
 * Pinterest catalogs (issue 18, docs/decisions/043-pinterest-catalogs.md): a
 * user's named sets of products. Each catalog is published as a product feed
 * file (CSV, Pinterest's columns) in R2, served at a stable address named by
 * an unguessable token, and registered with Pinterest as a data source of the
 * connected profile; after changes Pinterest is asked to ingest it again, and
 * its processing results and item issues are read back in plain words. Every
 * query is scoped to the caller.
 */

type CatalogRow = typeof catalogs.$inferSelect;
type ItemRow = typeof catalogItems.$inferSelect;
type ItemValues = v.InferOutput<typeof CatalogItemSchema>;

/** Where feed files live in R2. */
const FEED_KEY_PREFIX = "catalog-feeds/";
/** The public path of feed files (workers/router.ts). */
export const FEED_PATH_PREFIX = "/catalog-feeds/";
/** Pictures measured at most per publish (the rest on the next one). */
const MEASURE_LIMIT = 200;
const MEASURE_CONCURRENCY = 4;
/** Item issues read per processing result. */
const ISSUES_SHOWN = 100;

export const feedFileName = (token: string) => `${token}.csv`;
export const feedUrlOf = (env: Pick<Env, "APP_URL">, token: string) => new URL(`${FEED_PATH_PREFIX}${feedFileName(token)}`, env.APP_URL).toString();

// ------------------------------------------------------------------ views

function feedItemOf(row: ItemRow): FeedItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    link: row.link,
    price: row.price,
    currency: row.currency,
    availability: row.availability,
    brand: row.brand,
    condition: row.condition,
    categories: row.categories ?? [],
    images: row.images ?? [],
  };
}

function itemView(row: ItemRow, catalogCurrency: string): CatalogItem {
  const item = feedItemOf(row);
  return { ...item, catalogId: row.catalogId, problems: itemProblems(item, catalogCurrency, row.imageSizes ?? {}) };
}

function catalogView(env: Env, row: CatalogRow, itemCount: number, username: string | null): Catalog {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    pinterestUsername: username,
    feedUrl: feedUrlOf(env, row.feedToken),
    itemCount,
    pinterestFeedId: row.pinterestFeedId,
    publishedAt: row.publishedAt,
    publishedItemCount: row.publishedItemCount,
    leftOutItemCount: row.leftOutItemCount,
    changedSincePublish: row.changedSincePublish,
    lastError: row.lastError,
    createdAt: row.createdAt,
  };
}

async function ownCatalog(env: Env, user: User, id: string, field?: string): Promise<CatalogRow> {
  const row = await database(env.DB).query.catalogs.findFirst({ where: and(eq(catalogs.id, id), eq(catalogs.userId, user.id)) });
  if (!row) throw new ServiceError(404, CATALOG_NOT_FOUND, field);
  return row;
}

async function ownItem(env: Env, user: User, id: string, field?: string): Promise<ItemRow> {
  const row = await database(env.DB).query.catalogItems.findFirst({ where: and(eq(catalogItems.id, id), eq(catalogItems.userId, user.id)) });
  if (!row) throw new ServiceError(404, CATALOG_ITEM_NOT_FOUND, field);
  return row;
}

/** The caller's catalogs, newest first, with item counts and the profile each publishes to. */
export async function listCatalogs(env: Env, user: User): Promise<Catalog[]> {
  const db = database(env.DB);
  const rows = await db
    .select({ catalog: catalogs, username: pinterestProfiles.username })
    .from(catalogs)
    .leftJoin(pinterestProfiles, and(eq(pinterestProfiles.id, catalogs.pinterestProfileId), eq(pinterestProfiles.userId, user.id)))
    .where(eq(catalogs.userId, user.id))
    .orderBy(desc(catalogs.createdAt), desc(catalogs.id));
  const counts = await db
    .select({ catalogId: catalogItems.catalogId, items: count() })
    .from(catalogItems)
    .where(eq(catalogItems.userId, user.id))
    .groupBy(catalogItems.catalogId);
  const byCatalog = new Map(counts.map((entry) => [entry.catalogId, entry.items]));
  return rows.map(({ catalog, username }) => catalogView(env, catalog, byCatalog.get(catalog.id) ?? 0, username ?? null));
}

async function catalogOf(env: Env, user: User, id: string): Promise<Catalog> {
  const found = (await listCatalogs(env, user)).find((catalog) => catalog.id === id);
  if (!found) throw new ServiceError(404, CATALOG_NOT_FOUND);
  return found;
}

async function itemsOf(env: Env, user: User, catalog: Pick<CatalogRow, "id">): Promise<ItemRow[]> {
  return database(env.DB).query.catalogItems.findMany({
    where: and(eq(catalogItems.catalogId, catalog.id), eq(catalogItems.userId, user.id)),
    orderBy: [asc(catalogItems.position), asc(catalogItems.createdAt)],
  });
}

/**
 * GET /api/catalogs/getCatalogs/{id}: every catalog of the caller, the one
 * named by `id` opened (its items too), or with "latest" the newest one.
 */
export async function catalogsState(env: Env, user: User, openId: string): Promise<CatalogsState> {
  const allCatalogs = await listCatalogs(env, user);
  let activeCatalog: Catalog | null;
  if (openId === OPEN_LATEST) activeCatalog = allCatalogs[0] ?? null;
  else {
    activeCatalog = allCatalogs.find((catalog) => catalog.id === openId) ?? null;
    if (!activeCatalog) throw new ServiceError(404, CATALOG_NOT_FOUND, "id");
  }
  const catalogItems = activeCatalog ? (await itemsOf(env, user, activeCatalog)).map((row) => itemView(row, activeCatalog.currency)) : [];
  return { allCatalogs, activeCatalog, catalogItems };
}

/** GET /api/catalogs/getCatalogItems/{id}: the items of one of the caller's catalogs. */
export async function getCatalogItems(env: Env, user: User, catalogId: string): Promise<CatalogItem[]> {
  const catalog = await ownCatalog(env, user, catalogId, "id");
  return (await itemsOf(env, user, catalog)).map((row) => itemView(row, catalog.currency));
}

// ------------------------------------------------------------------ catalogs

async function profileNamed(env: Env, user: User, username: string | undefined): Promise<PinterestProfile | null> {
  const db = database(env.DB);
  if (username === undefined || username === "") {
    return (await db.query.pinterestProfiles.findFirst({ where: and(eq(pinterestProfiles.userId, user.id), eq(pinterestProfiles.isActive, true)) })) ?? null;
  }
  const profile = await db.query.pinterestProfiles.findFirst({ where: and(eq(pinterestProfiles.userId, user.id), eq(pinterestProfiles.username, username)) });
  if (!profile) throw new ServiceError(404, `No Pinterest profile named ${username} is connected.`, "pinterestUsername");
  return profile;
}

/** POST /api/catalogs/createCatalog */
export async function createCatalog(env: Env, user: User, input: { name: string; pinterestUsername?: string; currency?: string }): Promise<Catalog> {
  const profile = await profileNamed(env, user, input.pinterestUsername);
  const id = crypto.randomUUID();
  // The limit is checked by the insert itself, so parallel creations never pass it.
  const inserted = await env.DB.prepare(
    `INSERT INTO catalogs (id, user_id, name, pinterest_profile_id, feed_token, currency, updated_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE (SELECT count(*) FROM catalogs WHERE user_id = ?2) < ?8 RETURNING id`,
  )
    .bind(id, user.id, input.name, profile?.id ?? null, randomToken(24), input.currency ?? "USD", Date.now(), MAX_CATALOGS)
    .first<{ id: string }>();
  if (!inserted) throw new ServiceError(409, `You can keep up to ${MAX_CATALOGS} catalogs. Please delete a catalog before making a new one.`);
  return catalogOf(env, user, id);
}

/** PATCH /api/catalogs/updateCatalog/{id}: its name, the profile it publishes to, its currency. */
export async function updateCatalog(
  env: Env,
  user: User,
  id: string,
  input: { name?: string; pinterestUsername?: string; currency?: string },
): Promise<Catalog> {
  const row = await ownCatalog(env, user, id, "id");
  const changes: Partial<CatalogRow> = { updatedAt: Date.now() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.currency !== undefined && input.currency !== row.currency) {
    changes.currency = input.currency;
    changes.changedSincePublish = true;
  }
  if (input.pinterestUsername !== undefined) {
    const profile = input.pinterestUsername === "" ? null : await profileNamed(env, user, input.pinterestUsername);
    if ((profile?.id ?? null) !== row.pinterestProfileId) {
      changes.pinterestProfileId = profile?.id ?? null;
      // A data source belongs to one Pinterest account: another profile registers the file anew.
      changes.pinterestFeedId = null;
      changes.pinterestFeedUsername = null;
      changes.lastIngestionId = null;
      changes.changedSincePublish = true;
    }
  }
  await database(env.DB)
    .update(catalogs)
    .set(changes)
    .where(and(eq(catalogs.id, row.id), eq(catalogs.userId, user.id)));
  return catalogOf(env, user, row.id);
}

/** DELETE /api/catalogs/deleteCatalog/{id}: the catalog, its items and its feed file (the address stops answering). */
export async function deleteCatalog(env: Env, user: User, id: string): Promise<{ deletedCatalogID: string; allCatalogs: Catalog[] }> {
  const row = await ownCatalog(env, user, id, "id");
  const db = database(env.DB);
  await db.batch([
    db.delete(catalogItems).where(and(eq(catalogItems.catalogId, row.id), eq(catalogItems.userId, user.id))),
    db.delete(catalogs).where(and(eq(catalogs.id, row.id), eq(catalogs.userId, user.id))),
  ]);
  await env.MEDIA.delete(`${FEED_KEY_PREFIX}${feedFileName(row.feedToken)}`);
  return { deletedCatalogID: row.id, allCatalogs: await listCatalogs(env, user) };
}

// ------------------------------------------------------------------ items

function itemValues(input: ItemValues) {
  return {
    title: input.title,
    description: input.description,
    link: input.link,
    price: input.price,
    currency: input.currency,
    availability: input.availability,
    brand: input.brand,
    condition: input.condition,
    categories: input.categories,
    images: [...new Set(input.images)],
  };
}

/** POST /api/catalogs/addItemsToCatalog {catalogID, items}: all of them in one batch, or none. */
export async function addItemsToCatalog(env: Env, user: User, catalogId: string, items: ItemValues[]): Promise<{ catalogItems: CatalogItem[]; added: number }> {
  const catalog = await ownCatalog(env, user, catalogId, "catalogID");
  const db = database(env.DB);
  const [{ present, last }] = await db
    .select({ present: count(), last: sql<number>`coalesce(max(${catalogItems.position}), -1)` })
    .from(catalogItems)
    .where(and(eq(catalogItems.catalogId, catalog.id), eq(catalogItems.userId, user.id)));
  if (present + items.length > MAX_CATALOG_ITEMS) {
    throw new ServiceError(409, `A catalog holds at most ${MAX_CATALOG_ITEMS} items; this one has ${present}.`, "items");
  }
  const now = Date.now();
  const rows = items.map((item, index) => ({
    id: crypto.randomUUID(),
    catalogId: catalog.id,
    userId: user.id,
    ...itemValues(item),
    position: Number(last) + 1 + index,
    updatedAt: now,
  }));
  const inserts = [];
  // D1 binds at most 100 values per statement: a few rows per insert, every insert in one batch.
  for (let start = 0; start < rows.length; start += 5) inserts.push(db.insert(catalogItems).values(rows.slice(start, start + 5)));
  await db.batch([
    ...(inserts as [(typeof inserts)[number], ...typeof inserts]),
    db.update(catalogs).set({ changedSincePublish: true, updatedAt: now }).where(eq(catalogs.id, catalog.id)),
  ]);
  return { catalogItems: (await itemsOf(env, user, catalog)).map((row) => itemView(row, catalog.currency)), added: rows.length };
}

async function touchCatalog(env: Env, catalogId: string) {
  await database(env.DB).update(catalogs).set({ changedSincePublish: true, updatedAt: Date.now() }).where(eq(catalogs.id, catalogId));
}

async function currencyOf(env: Env, user: User, catalogId: string): Promise<string> {
  return (await ownCatalog(env, user, catalogId)).currency;
}

/** PATCH /api/catalogs/updateCatalogItem/{id} */
export async function updateCatalogItem(env: Env, user: User, id: string, input: UpdateCatalogItemInput): Promise<CatalogItem> {
  const row = await ownItem(env, user, id, "id");
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<ItemRow>;
  if (changes.images) changes.images = [...new Set(changes.images)];
  const db = database(env.DB);
  const [updated] = await db.batch([
    db
      .update(catalogItems)
      .set({ ...changes, updatedAt: Date.now() })
      .where(and(eq(catalogItems.id, row.id), eq(catalogItems.userId, user.id)))
      .returning(),
    db.update(catalogs).set({ changedSincePublish: true, updatedAt: Date.now() }).where(eq(catalogs.id, row.catalogId)),
  ]);
  return itemView(updated[0], await currencyOf(env, user, row.catalogId));
}

/**
 * DELETE /api/catalogs/deleteCatalogItemImage {catalogItemID, image}: the
 * picture leaves the item (an address the item does not have changes nothing).
 */
export async function deleteCatalogItemImage(env: Env, user: User, itemId: string, image: string): Promise<CatalogItem> {
  const row = await ownItem(env, user, itemId, "catalogItemID");
  const images = row.images ?? [];
  if (!images.includes(image)) return itemView(row, await currencyOf(env, user, row.catalogId));
  const left = images.filter((candidate) => candidate !== image);
  const sizes = { ...(row.imageSizes ?? {}) };
  delete sizes[image];
  // Only if the pictures are still those we read: two deletions at once never restore each other's.
  const [updated] = await database(env.DB)
    .update(catalogItems)
    .set({ images: left, imageSizes: sizes, updatedAt: Date.now() })
    .where(and(eq(catalogItems.id, row.id), eq(catalogItems.userId, user.id), eq(catalogItems.images, images)))
    .returning();
  if (!updated) throw new ServiceError(409, "The item's pictures changed meanwhile. Please try again.", "image");
  await touchCatalog(env, row.catalogId);
  return itemView(updated, await currencyOf(env, user, row.catalogId));
}

/** DELETE /api/catalogs/deleteCatalogItem/{id} */
export async function deleteCatalogItem(env: Env, user: User, id: string): Promise<{ deletedCatalogItemID: string; catalogID: string }> {
  const row = await ownItem(env, user, id, "id");
  const db = database(env.DB);
  await db.batch([
    db.delete(catalogItems).where(and(eq(catalogItems.id, row.id), eq(catalogItems.userId, user.id))),
    db.update(catalogs).set({ changedSincePublish: true, updatedAt: Date.now() }).where(eq(catalogs.id, row.catalogId)),
  ]);
  return { deletedCatalogItemID: row.id, catalogID: row.catalogId };
}

// ------------------------------------------------------------------ publishing

/** Measures pictures not measured yet (readable ones are kept with the item); answers every size known now. */
async function measurePictures(env: Env, rows: ItemRow[]): Promise<Map<string, ImageSizes>> {
  const wanted = [...new Set(rows.flatMap((row) => (row.images ?? []).filter((url) => !(url in (row.imageSizes ?? {})))))].slice(0, MEASURE_LIMIT);
  const measured = new Map<string, [number, number] | null>();
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const url = wanted[next++];
      measured.set(url, await pictureSize(env, url));
    }
  };
  await Promise.all(Array.from({ length: Math.min(MEASURE_CONCURRENCY, wanted.length) }, worker));
  const db = database(env.DB);
  const updates = [];
  const sizes = new Map<string, ImageSizes>();
  for (const row of rows) {
    const known: Record<string, [number, number] | null> = { ...(row.imageSizes ?? {}) };
    let learned = false;
    for (const url of row.images ?? []) {
      if (!measured.has(url)) continue;
      const size = measured.get(url)!;
      known[url] = size;
      // Only sizes are kept: a picture that did not answer is tried again next time.
      if (size) learned = true;
    }
    sizes.set(row.id, known);
    if (learned) {
      const stored = Object.fromEntries(Object.entries(known).filter(([, size]) => size !== null));
      updates.push(
        db
          .update(catalogItems)
          .set({ imageSizes: stored })
          .where(and(eq(catalogItems.id, row.id), eq(catalogItems.images, row.images))),
      );
    }
  }
  if (updates.length > 0) await db.batch(updates as [(typeof updates)[number], ...typeof updates]);
  return sizes;
}

function refusedItems(rows: ItemRow[], currency: string, sizes: Map<string, ImageSizes>) {
  return rows.flatMap((row) => {
    const problems = itemProblems(feedItemOf(row), currency, sizes.get(row.id) ?? row.imageSizes ?? {});
    return isRefused(problems) ? [{ id: row.id, title: row.title, problems }] : [];
  });
}

/** A Pinterest refusal as the page should show it; 409, never 401 (a 401 of ours signs the user out: app/lib/api-client.ts). */
function catalogRefusal(error: PinterestApiError): ServiceError | null {
  if (error.code === 3) {
    return new ServiceError(
      409,
      "Your Pinterest connection does not allow catalogs yet. Please reconnect your Pinterest profile on the scheduling page, then publish again.",
      undefined,
      { code: "reconnect" },
    );
  }
  if (error.kind === "forbidden" && !error.blocked) return new ServiceError(409, `Pinterest refused the catalog: ${error.message}`);
  if (error.kind === "bad_request") return new ServiceError(409, `Pinterest refused the catalog: ${error.message}`);
  return null;
}

async function onPinterest<T>(env: Env, profile: PinterestProfile, call: Parameters<typeof withPinterest<T>>[2]): Promise<T> {
  try {
    return await withPinterest(env, profile, async (client, token) => {
      try {
        return await call(client, token);
      } catch (error) {
        const refusal = error instanceof PinterestApiError ? catalogRefusal(error) : null;
        throw refusal ?? error;
      }
    });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 401) {
      throw new ServiceError(
        409,
        `Pinterest no longer accepts the connection to ${profile.username}. Please reconnect it on the scheduling page, then publish again.`,
        undefined,
        { code: "reconnect" },
      );
    }
    throw error;
  }
}

async function publishingProfile(env: Env, user: User, row: CatalogRow): Promise<PinterestProfile> {
  const profile = row.pinterestProfileId
    ? await database(env.DB).query.pinterestProfiles.findFirst({
        where: and(eq(pinterestProfiles.id, row.pinterestProfileId), eq(pinterestProfiles.userId, user.id)),
      })
    : undefined;
  if (!profile) throw new ServiceError(409, "Choose the Pinterest profile this catalog is published to first.", "pinterestUsername");
  return profile;
}

/**
 * POST /api/catalogs/publishCatalog/{id}: writes the feed file (refused items
 * left out) and registers it with Pinterest, or asks Pinterest to ingest it
 * again. The file is written before Pinterest is told, so Pinterest never
 * reads an older file than the one it was told about.
 */
export async function publishCatalog(env: Env, user: User, id: string): Promise<CatalogStatus> {
  const row = await ownCatalog(env, user, id, "id");
  const profile = await publishingProfile(env, user, row);
  const rows = await itemsOf(env, user, row);
  if (rows.length === 0) throw new ServiceError(409, "Add items to the catalog before publishing it.");
  const sizes = await measurePictures(env, rows);
  const refused = refusedItems(rows, row.currency, sizes);
  const accepted = rows.filter((item) => !refused.some((entry) => entry.id === item.id));
  if (accepted.length === 0) throw new ServiceError(409, "None of the catalog's items can be published yet: fix the problems shown with each item first.");
  const file = feedFile(accepted.map(feedItemOf), row.currency, Object.assign({}, ...accepted.map((item) => sizes.get(item.id) ?? {})));
  await env.MEDIA.put(`${FEED_KEY_PREFIX}${feedFileName(row.feedToken)}`, file.csv, {
    httpMetadata: { contentType: "text/csv; charset=utf-8" },
    customMetadata: { catalogId: row.id, userId: user.id },
  });
  const db = database(env.DB);
  let feedId = row.pinterestFeedId;
  let ingestionId: string | null = null;
  try {
    if (feedId) {
      try {
        ingestionId = (await onPinterest(env, profile, (client, token) => client.ingestCatalogFeed(token, feedId!))).id;
      } catch (error) {
        // The data source was deleted on Pinterest's side: register it again.
        if (!(error instanceof ServiceError && /not found|could not find/i.test(error.message))) throw error;
        feedId = null;
      }
    }
    if (!feedId) {
      const feed = await onPinterest(env, profile, (client, token) =>
        client.createCatalogFeed(token, {
          name: row.name,
          format: "CSV",
          location: feedUrlOf(env, row.feedToken),
          default_currency: row.currency,
          default_locale: row.locale,
          default_country: row.country,
          default_availability: "IN_STOCK",
          status: "ACTIVE",
        }),
      );
      feedId = feed.id;
    }
  } catch (error) {
    const message = error instanceof ServiceError ? error.message : "Pinterest did not answer. Please try again.";
    await db.update(catalogs).set({ lastError: message, updatedAt: Date.now() }).where(eq(catalogs.id, row.id));
    throw error;
  }
  await db
    .update(catalogs)
    .set({
      pinterestFeedId: feedId,
      pinterestFeedUsername: profile.username,
      lastIngestionId: ingestionId,
      publishedAt: Date.now(),
      publishedItemCount: file.included.length,
      leftOutItemCount: refused.length + file.leftOut.length,
      changedSincePublish: false,
      lastError: null,
      updatedAt: Date.now(),
    })
    .where(and(eq(catalogs.id, row.id), eq(catalogs.userId, user.id)));
  // Pinterest downloads the file after this call: until the page asks again, it is processing.
  const status = await catalogStatus(env, user, row.id, { askPinterest: false });
  const processing: CatalogProcessing = {
    status: "processing",
    createdAt: Date.now(),
    itemsInFile: null,
    itemsAccepted: null,
    feedErrors: [],
    feedWarnings: [],
    itemIssues: [],
  };
  return { ...status, processing };
}

const STATUS_WORDS = { COMPLETED: "completed", FAILED: "failed", PROCESSING: "processing" } as const;

function processingOf(result: PinterestFeedProcessingResult, issues: CatalogItemIssue[]): CatalogProcessing {
  const feedErrors = Object.entries({ ...result.validation_details?.errors, ...result.ingestion_details?.errors })
    .filter(([, countOf]) => countOf > 0)
    .map(([code]) => issueInWords(code));
  const feedWarnings = Object.entries({ ...result.validation_details?.warnings, ...result.ingestion_details?.warnings })
    .filter(([, countOf]) => countOf > 0)
    .map(([code]) => issueInWords(code));
  return {
    status: STATUS_WORDS[result.status] ?? "processing",
    createdAt: Date.parse(result.created_at) || Date.now(),
    itemsInFile: result.product_counts?.original ?? null,
    itemsAccepted: result.product_counts?.ingested ?? null,
    feedErrors: [...new Set(feedErrors)],
    feedWarnings: [...new Set(feedWarnings)],
    itemIssues: issues,
  };
}

/**
 * GET /api/catalogs/getCatalogStatus/{id}: the pre-publish checks, and
 * Pinterest's latest processing of the published file with its item issues,
 * in plain words.
 */
export async function catalogStatus(env: Env, user: User, id: string, options: { askPinterest?: boolean } = {}): Promise<CatalogStatus> {
  const row = await ownCatalog(env, user, id, "id");
  const catalog = await catalogOf(env, user, row.id);
  const rows = await itemsOf(env, user, row);
  const sizes = new Map(rows.map((item) => [item.id, item.imageSizes ?? {}] as const));
  const refused = refusedItems(rows, row.currency, sizes);
  if (!row.pinterestFeedId || options.askPinterest === false) return { catalog, refusedItems: refused, processing: null, processingError: null };
  const profile = row.pinterestProfileId
    ? await database(env.DB).query.pinterestProfiles.findFirst({
        where: and(eq(pinterestProfiles.id, row.pinterestProfileId), eq(pinterestProfiles.userId, user.id)),
      })
    : undefined;
  if (!profile)
    return { catalog, refusedItems: refused, processing: null, processingError: "The Pinterest profile this catalog was published to is no longer connected." };
  const feedId = row.pinterestFeedId;
  try {
    const results = await onPinterest(env, profile, (client, token) => client.listFeedProcessingResults(token, feedId, { pageSize: 1 }));
    const latest = results.items[0];
    if (!latest) return { catalog, refusedItems: refused, processing: null, processingError: null };
    let issues: CatalogItemIssue[] = [];
    if (latest.status !== "PROCESSING") {
      const page = await onPinterest(env, profile, (client, token) => client.listItemIssues(token, latest.id, { pageSize: ISSUES_SHOWN }));
      const titles = new Map(rows.map((item) => [item.id, item.title]));
      issues = page.items
        .flatMap((entry) => [
          ...Object.entries(entry.errors ?? {}).map(([code, details]) => ({ entry, code, details, severity: "error" as const })),
          ...Object.entries(entry.warnings ?? {}).map(([code, details]) => ({ entry, code, details, severity: "warning" as const })),
        ])
        .map(({ entry, code, details, severity }) => ({
          itemId: entry.item_id,
          title: (entry.item_id && titles.get(entry.item_id)) ?? null,
          column: columnOf(details?.attribute_name ?? null),
          severity,
          message: issueInWords(code),
          providedValue: details?.provided_value ?? null,
        }));
    }
    return { catalog, refusedItems: refused, processing: processingOf(latest, issues), processingError: null };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { catalog, refusedItems: refused, processing: null, processingError: error.message };
  }
}

// ------------------------------------------------------------------ the public feed file

/** The feed file named by its token, for anyone with the address (Pinterest); null when there is none. */
export async function feedFileObject(env: Env, fileName: string): Promise<R2ObjectBody | null> {
  if (!/^[A-Za-z0-9_-]{20,64}\.csv$/.test(fileName)) return null;
  const token = fileName.slice(0, -4);
  // The token must still name a catalog: a deleted catalog's address stops answering even if the file lingered.
  const [row] = await database(env.DB).select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.feedToken, token)).limit(1);
  if (!row) return null;
  return env.MEDIA.get(`${FEED_KEY_PREFIX}${fileName}`);
}
