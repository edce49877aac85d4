import type { Context, Hono } from "hono";
import Papa from "papaparse";
import type { SandboxState } from "../../state.ts";
import { DIGITS, encodeBookmark, invalid, jsonObjectBody, pageRequest, pinterestError } from "./http.ts";
import { freshId, pinterestState, type AccountRecord, type PinterestState, type TokenRecord } from "./state.ts";

type Env = { Variables: { account: AccountRecord; token: TokenRecord } };

/**
 * Pinterest's catalog data sources (../shared/specs/pinterest-api-v5.openapi.json:
 * feeds/create, feeds/get, feeds/ingest, feed_processing_results/list,
 * items_issues/list), for retail feeds in CSV or TSV. Like Pinterest, the stand-in
 * downloads the file from its `location` and processes it after the call that
 * asked for it: an ingestion is PROCESSING until its results are first read,
 * then COMPLETED (or FAILED when the file cannot be used at all). The file is
 * checked the way Pinterest's product data specification says: the required
 * columns, an id, title, description, https link and image link per item, the
 * main image downloadable as a picture, price as "12.99 USD", availability one of
 * in stock / out of stock / preorder; item issues are reported per item and
 * column, with the value that was at fault.
 */

export interface ItemIssueRecord {
  item_number: number;
  item_id: string | null;
  errors: Record<string, { attribute_name: string | null; provided_value: string | null }>;
  warnings: Record<string, { attribute_name: string | null; provided_value: string | null }>;
}

export interface ProcessingRecord {
  id: string;
  feedId: string;
  createdAt: string;
  updatedAt: string;
  status: "PROCESSING" | "COMPLETED" | "FAILED";
  ingestionErrors: Record<string, number>;
  ingestionInfo: Record<string, number>;
  validationErrors: Record<string, number>;
  validationWarnings: Record<string, number>;
  productCounts: { original: number; ingested: number } | null;
  issues: ItemIssueRecord[];
  /** What was downloaded, for the sandbox's inspection. */
  fetched: { status: number | null; bytes: number } | null;
}

export interface FeedRecord {
  id: string;
  username: string;
  name: string;
  format: "CSV" | "TSV";
  location: string;
  defaultCurrency: string | null;
  defaultLocale: string;
  defaultCountry: string;
  defaultAvailability: string | null;
  status: "ACTIVE" | "INACTIVE";
  createdAt: string;
  updatedAt: string;
  /** Newest last. */
  results: ProcessingRecord[];
}

const FEED_NOT_FOUND = { status: 404, code: 4161, message: "Sorry! We could not find your catalogs feed." };
const RESULT_NOT_FOUND = { status: 404, code: 4162, message: "Sorry! We could not find your processing result." };
const REQUIRED_COLUMNS = ["id", "title", "description", "link", "image_link", "price", "availability"];
const AVAILABILITY = ["in stock", "out of stock", "preorder"];
const CONDITIONS = ["new", "used", "refurbished"];
const MAX_FEED_BYTES = 20 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 8_000;
const CREATE_FIELDS = [
  "credentials",
  "default_availability",
  "default_country",
  "default_currency",
  "default_locale",
  "format",
  "location",
  "name",
  "preferred_processing_schedule",
  "status",
];

function requireScopes(c: Context<Env>, scopes: string[]) {
  const granted = c.var.token.scopes;
  return scopes.every((scope) => granted.includes(scope))
    ? null
    : pinterestError(c, {
        status: 401,
        code: 3,
        message:
          "Your token does not have sufficient permissions to perform this operation. Please ensure your token is authorized with the correct set of scopes.",
      });
}

function ownFeed(c: Context<Env>, pinterest: PinterestState): ReturnType<typeof pinterestError> | FeedRecord {
  const id = c.req.param("feed_id") ?? "";
  if (!DIGITS.test(id)) return invalid(c, `'feed_id' value '${id}' must match the pattern: ^\\d+$`);
  const feed = pinterest.feeds.get(id);
  return feed && feed.username === c.var.account.username ? feed : pinterestError(c, FEED_NOT_FOUND);
}

function feedJson(feed: FeedRecord) {
  return {
    id: feed.id,
    created_at: feed.createdAt,
    updated_at: feed.updatedAt,
    catalog_type: "RETAIL",
    credentials: null,
    default_availability: feed.defaultAvailability,
    default_country: feed.defaultCountry,
    default_currency: feed.defaultCurrency,
    default_locale: feed.defaultLocale,
    format: feed.format,
    location: feed.location,
    name: feed.name,
    preferred_processing_schedule: null,
    status: feed.status,
  };
}

function resultJson(result: ProcessingRecord) {
  return {
    id: result.id,
    created_at: result.createdAt,
    updated_at: result.updatedAt,
    status: result.status,
    ingestion_details: { errors: result.ingestionErrors, info: result.ingestionInfo, warnings: {} },
    validation_details: { errors: result.validationErrors, warnings: result.validationWarnings },
    product_counts: result.productCounts,
  };
}

function newIngestion(pinterest: PinterestState, feed: FeedRecord): ProcessingRecord {
  const now = new Date().toISOString();
  const record: ProcessingRecord = {
    id: freshId(++pinterest.counters.processing),
    feedId: feed.id,
    createdAt: now,
    updatedAt: now,
    status: "PROCESSING",
    ingestionErrors: {},
    ingestionInfo: {},
    validationErrors: {},
    validationWarnings: {},
    productCounts: null,
    issues: [],
    fetched: null,
  };
  feed.results.push(record);
  return record;
}

/** The catalogs routes, added to the v5 app (after its authentication). */
export function catalogFeedRoutes(app: Hono<Env>, state: SandboxState) {
  app.post("/catalogs/feeds", async (c) => {
    const denied = requireScopes(c, ["catalogs:read", "catalogs:write"]);
    if (denied) return denied;
    if (c.req.query("ad_account_id") !== undefined) return invalid(c, "'ad_account_id' is not implemented by the sandbox.");
    const body = await jsonObjectBody(c);
    if (body instanceof Response) return body;
    const unknown = Object.keys(body).find((key) => !CREATE_FIELDS.includes(key));
    if (unknown) return invalid(c, `Invalid request: '${unknown}' is not a field of a feed.`);
    if (typeof body.name !== "string" || !body.name.trim()) return invalid(c, "Invalid request: 'name' is required.");
    if (body.format !== "CSV" && body.format !== "TSV") {
      return invalid(
        c,
        body.format === "XML" ? "Invalid request: 'format' XML is not implemented by the sandbox." : "Invalid request: 'format' must be TSV, CSV or XML.",
      );
    }
    if (typeof body.location !== "string" || !/^(http|https|ftp|sftp):\/\//.test(body.location)) {
      return invalid(c, "Invalid request: 'location' is required and must match ^(http|https|ftp|sftp)://");
    }
    if (!/^https?:\/\//.test(body.location)) return invalid(c, "Invalid request: ftp and sftp locations are not implemented by the sandbox.");
    // "default_country and default_locale are not required in the spec ... but for now the API will not accept requests without those fields."
    if (typeof body.default_country !== "string" || !/^[A-Z]{2}$/.test(body.default_country))
      return invalid(c, "Invalid request: 'default_country' is required (ISO 3166-1 alpha-2).");
    if (typeof body.default_locale !== "string" || !/^[a-z]{2}(-[A-Z0-9]{2,3})?$/.test(body.default_locale))
      return invalid(c, "Invalid request: 'default_locale' is required (such as en-US).");
    if (
      body.default_currency !== undefined &&
      body.default_currency !== null &&
      (typeof body.default_currency !== "string" || !/^[A-Z]{3}$/.test(body.default_currency))
    ) {
      return invalid(c, "Invalid request: 'default_currency' must be an ISO 4217 code.");
    }
    if (
      body.default_availability !== undefined &&
      body.default_availability !== null &&
      !["IN_STOCK", "OUT_OF_STOCK", "PREORDER"].includes(String(body.default_availability))
    ) {
      return invalid(c, "Invalid request: 'default_availability' must be IN_STOCK, OUT_OF_STOCK or PREORDER.");
    }
    if (body.status !== undefined && body.status !== "ACTIVE" && body.status !== "INACTIVE")
      return invalid(c, "Invalid request: 'status' must be ACTIVE or INACTIVE.");
    if (body.credentials !== undefined && body.credentials !== null) return invalid(c, "Invalid request: 'credentials' are not implemented by the sandbox.");
    const pinterest = pinterestState(state);
    const now = new Date().toISOString();
    const feed: FeedRecord = {
      id: freshId(++pinterest.counters.feed),
      username: c.var.account.username,
      name: body.name.trim(),
      format: body.format,
      location: body.location,
      defaultCurrency: typeof body.default_currency === "string" ? body.default_currency : null,
      defaultLocale: body.default_locale,
      defaultCountry: body.default_country,
      defaultAvailability: typeof body.default_availability === "string" ? body.default_availability : null,
      status: body.status === "INACTIVE" ? "INACTIVE" : "ACTIVE",
      createdAt: now,
      updatedAt: now,
      results: [],
    };
    pinterest.feeds.set(feed.id, feed);
    // Pinterest downloads a new data source on its own after creating it.
    if (feed.status === "ACTIVE") newIngestion(pinterest, feed);
    return c.json(feedJson(feed), 201);
  });

  app.get("/catalogs/feeds", (c) => {
    const denied = requireScopes(c, ["catalogs:read"]);
    if (denied) return denied;
    const page = pageRequest(c, "feeds", c.var.account.username);
    if (page instanceof Response) return page;
    const feeds = [...pinterestState(state).feeds.values()].filter((feed) => feed.username === c.var.account.username);
    const offset = typeof page.bookmark?.o === "number" ? page.bookmark.o : 0;
    const next = offset + page.pageSize < feeds.length ? encodeBookmark("feeds", c.var.account.username, { o: offset + page.pageSize }) : null;
    return c.json({ items: feeds.slice(offset, offset + page.pageSize).map(feedJson), bookmark: next });
  });

  app.get("/catalogs/feeds/:feed_id", (c) => {
    const denied = requireScopes(c, ["catalogs:read"]);
    if (denied) return denied;
    const feed = ownFeed(c, pinterestState(state));
    return feed instanceof Response ? feed : c.json(feedJson(feed));
  });

  app.post("/catalogs/feeds/:feed_id/ingest", (c) => {
    const denied = requireScopes(c, ["catalogs:write"]);
    if (denied) return denied;
    const pinterest = pinterestState(state);
    const feed = ownFeed(c, pinterest);
    if (feed instanceof Response) return feed;
    const ingestion = newIngestion(pinterest, feed);
    return c.json({ id: ingestion.id, feed_id: feed.id, created_at: ingestion.createdAt, status: ingestion.status });
  });

  app.get("/catalogs/feeds/:feed_id/processing_results", async (c) => {
    const denied = requireScopes(c, ["catalogs:read"]);
    if (denied) return denied;
    const pinterest = pinterestState(state);
    const feed = ownFeed(c, pinterest);
    if (feed instanceof Response) return feed;
    const page = pageRequest(c, "processing_results", feed.id);
    if (page instanceof Response) return page;
    // Pinterest works on an ingestion after the call that asked for it; here, by the time anyone looks.
    await processPending(pinterest, feed);
    const results = [...feed.results].reverse();
    const offset = typeof page.bookmark?.o === "number" ? page.bookmark.o : 0;
    const next = offset + page.pageSize < results.length ? encodeBookmark("processing_results", feed.id, { o: offset + page.pageSize }) : null;
    return c.json({ items: results.slice(offset, offset + page.pageSize).map(resultJson), bookmark: next });
  });

  app.get("/catalogs/processing_results/:processing_result_id/item_issues", async (c) => {
    const denied = requireScopes(c, ["catalogs:read"]);
    if (denied) return denied;
    const id = c.req.param("processing_result_id");
    if (!DIGITS.test(id)) return invalid(c, `'processing_result_id' value '${id}' must match the pattern: ^\\d+$`);
    const pinterest = pinterestState(state);
    const feed = [...pinterest.feeds.values()].find(
      (candidate) => candidate.username === c.var.account.username && candidate.results.some((result) => result.id === id),
    );
    const result = feed?.results.find((candidate) => candidate.id === id);
    if (!feed || !result) return pinterestError(c, RESULT_NOT_FOUND);
    await processPending(pinterest, feed);
    const numbers =
      c.req
        .queries("item_numbers")
        ?.flatMap((value) => value.split(","))
        .filter(Boolean) ?? [];
    if (numbers.some((value) => !/^\d+$/.test(value))) return invalid(c, "'item_numbers' must be integers.");
    const issue = c.req.query("item_validation_issue");
    const page = pageRequest(c, "item_issues", result.id);
    if (page instanceof Response) return page;
    const matching = result.issues.filter(
      (entry) => (numbers.length === 0 || numbers.includes(String(entry.item_number))) && (!issue || issue in entry.errors || issue in entry.warnings),
    );
    const offset = typeof page.bookmark?.o === "number" ? page.bookmark.o : 0;
    const next = offset + page.pageSize < matching.length ? encodeBookmark("item_issues", result.id, { o: offset + page.pageSize }) : null;
    return c.json({ items: matching.slice(offset, offset + page.pageSize), bookmark: next });
  });
}

// ---- processing ---------------------------------------------------------------------------------

async function processPending(pinterest: PinterestState, feed: FeedRecord) {
  for (const result of feed.results) {
    if (result.status === "PROCESSING") await processFeed(pinterest, feed, result);
  }
}

async function download(pinterest: PinterestState, url: string): Promise<{ status: number | null; text: string | null }> {
  const handed = pinterest.feedFiles.get(url);
  if (handed) return { status: 200, text: handed.body };
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { "user-agent": "Pinterestbot/1.0 (sandbox catalogs)" } });
    if (!response.ok) return { status: response.status, text: null };
    const text = await response.text();
    return { status: response.status, text: text.length > MAX_FEED_BYTES ? null : text };
  } catch {
    return { status: null, text: null };
  }
}

/** Whether an image address answers with a picture (Pinterest downloads every main image). */
async function imageReachable(url: string, cache: Map<string, Promise<boolean>>): Promise<boolean> {
  let pending = cache.get(url);
  if (!pending) {
    pending = fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
      .then(async (response) => {
        const type = response.headers.get("content-type") ?? "";
        await response.body?.cancel();
        return response.ok && /^image\//i.test(type);
      })
      .catch(() => false);
    cache.set(url, pending);
  }
  return pending;
}

const count = (counts: Record<string, number>, code: string) => {
  counts[code] = (counts[code] ?? 0) + 1;
};

function httpsUrl(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".");
  } catch {
    return false;
  }
}

function webUrl(value: string) {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

async function processFeed(pinterest: PinterestState, feed: FeedRecord, result: ProcessingRecord) {
  const finish = (status: "COMPLETED" | "FAILED") => {
    result.status = status;
    result.updatedAt = new Date().toISOString();
  };
  const fetched = await download(pinterest, feed.location);
  result.fetched = { status: fetched.status, bytes: fetched.text?.length ?? 0 };
  if (fetched.text === null) {
    count(result.validationErrors, "FETCH_ERROR");
    return finish("FAILED");
  }
  const parsed = Papa.parse<Record<string, string>>(fetched.text.replace(/^\uFEFF/, ""), {
    header: true,
    delimiter: feed.format === "TSV" ? "\t" : ",",
    skipEmptyLines: "greedy",
    transformHeader: (header) => header.trim().toLowerCase(),
  });
  const columns = parsed.meta.fields ?? [];
  if (REQUIRED_COLUMNS.some((column) => !columns.includes(column))) {
    count(result.validationErrors, "REQUIRED_COLUMNS_MISSING");
    return finish("FAILED");
  }
  const rows = parsed.data;
  if (rows.length === 0) {
    count(result.validationErrors, "FEED_TOO_SMALL");
    return finish("FAILED");
  }
  const badLines = new Set(parsed.errors.map((error) => error.row).filter((row): row is number => typeof row === "number"));
  const seen = new Set<string>();
  const images = new Map<string, Promise<boolean>>();
  let ingested = 0;
  for (const [index, row] of rows.entries()) {
    const value = (column: string) => (row[column] ?? "").trim();
    const errors: ItemIssueRecord["errors"] = {};
    const warnings: ItemIssueRecord["warnings"] = {};
    const error = (code: string, attribute: string, provided: string | null) => {
      errors[code] = { attribute_name: attribute, provided_value: provided };
      count(result.validationErrors, code);
    };
    const warn = (code: string, attribute: string, provided: string | null) => {
      warnings[code] = { attribute_name: attribute, provided_value: provided };
      count(result.validationWarnings, code);
    };
    if (badLines.has(index)) error("PARSE_LINE_ERROR", "ITEM_ID", null);
    const id = value("id");
    if (!id) error("ITEMID_MISSING", "ITEM_ID", null);
    else if (seen.has(id)) error("DUPLICATE_PRODUCTS", "ITEM_ID", id);
    seen.add(id);
    const title = value("title");
    if (!title) error("TITLE_MISSING", "TITLE", null);
    else if ([...title].length > 500) warn("TITLE_LENGTH_TOO_LONG", "TITLE", title.slice(0, 80));
    const description = value("description");
    if (!description) error("DESCRIPTION_MISSING", "DESCRIPTION", null);
    else if ([...description].length > 10_000) warn("DESCRIPTION_LENGTH_TOO_LONG", "DESCRIPTION", description.slice(0, 80));
    const link = value("link");
    if (!link) error("PRODUCT_LINK_MISSING", "ITEM_LINK", null);
    else if (!httpsUrl(link)) error("LINK_FORMAT_INVALID", "ITEM_LINK", link);
    else if (link.length > 511) error("LINK_LENGTH_TOO_LONG", "ITEM_LINK", link.slice(0, 80));
    const imageLink = value("image_link");
    if (!imageLink) error("IMAGE_LINK_MISSING", "IMAGE_LINK", null);
    else if (!webUrl(imageLink)) error("IMAGE_LINK_INVALID", "IMAGE_LINK", imageLink);
    else if (imageLink.length > 2000) error("IMAGE_LINK_LENGTH_TOO_LONG", "IMAGE_LINK", imageLink.slice(0, 80));
    else if (!(await imageReachable(imageLink, images))) error("ITEM_MAIN_IMAGE_DOWNLOAD_FAILURE", "IMAGE_LINK", imageLink);
    const price = value("price");
    if (!price) error("PRICE_MISSING", "PRICE", null);
    else {
      const match =
        /^(\d+(?:\.\d{1,2})?) ([A-Z]{3})$/.exec(price) ??
        (feed.defaultCurrency && /^\d+(?:\.\d{1,2})?$/.test(price) ? [price, price, feed.defaultCurrency] : null);
      if (!match) error("PRODUCT_PRICE_INVALID", "PRICE", price);
    }
    const availability = value("availability").toLowerCase();
    if (!AVAILABILITY.includes(availability)) error("AVAILABILITY_INVALID", "AVAILABILITY", value("availability") || null);
    const condition = value("condition").toLowerCase();
    if (columns.includes("condition") && condition && !CONDITIONS.includes(condition)) warn("OPTIONAL_CONDITION_INVALID", "CONDITION", value("condition"));
    const extra = value("additional_image_link");
    if (extra) {
      const links = extra
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean);
      if (links.length > 10) warn("TOO_MANY_ADDITIONAL_IMAGE_LINKS", "ADDITIONAL_IMAGE_LINK", String(links.length));
      if (links.some((part) => !webUrl(part))) warn("ADDITIONAL_IMAGE_LINK_WARNING", "ADDITIONAL_IMAGE_LINK", extra.slice(0, 80));
    }
    if (Object.keys(errors).length === 0) {
      ingested += 1;
      const key = availability === "in stock" ? "IN_STOCK" : availability === "out of stock" ? "OUT_OF_STOCK" : "PREORDER";
      count(result.ingestionInfo, key);
    }
    if (Object.keys(errors).length > 0 || Object.keys(warnings).length > 0) {
      result.issues.push({ item_number: index, item_id: id || null, errors, warnings });
    }
  }
  result.productCounts = { original: rows.length, ingested };
  finish("COMPLETED");
}

/** The feeds of an account with their processing results, for the sandbox's inspection. */
export function feedsView(pinterest: PinterestState, username?: string) {
  return [...pinterest.feeds.values()]
    .filter((feed) => !username || feed.username === username)
    .map((feed) => ({
      ...feedJson(feed),
      username: feed.username,
      processing_results: feed.results.map((result) => ({ ...resultJson(result), fetched: result.fetched, issues: result.issues })),
    }));
}
