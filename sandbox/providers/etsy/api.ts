import { Hono, type Context, type MiddlewareHandler } from "hono";
import { searchProducts, type DemoProduct } from "../../demo-shop/catalog.ts";
import { SANDBOX_ETSY_KEYSTRING, SANDBOX_ETSY_SHARED_SECRET } from "../../provider-vars.ts";
import type { SandboxState } from "../../state.ts";
import { mountBase } from "../pinterest/http.ts";
import {
  accountByShopId,
  accountByUserId,
  activeProducts,
  appAccount,
  etsyState,
  imageId,
  listingId,
  listingOf,
  SECTION_TITLES,
  sectionId,
  type EtsyAccount,
  type EtsyState,
  type TokenRecord,
} from "./state.ts";

/**
 * Etsy Open API v3, the application endpoints the app uses, at /v3/application:
 *
 * - every call needs `x-api-key: <keystring>:<shared secret>` (403 "Shared secret is required in
 *   x-api-key header" with the keystring alone);
 * - `Authorization: Bearer <user_id>.<token>`, when sent, must be a live access token (401
 *   invalid_token otherwise); users/me needs one;
 * - every answer carries x-limit-per-second, x-remaining-this-second, x-limit-per-day and
 *   x-remaining-today; the budget is counted per OAuth token's member (per key without one); over
 *   it Etsy answers 429 with Retry-After and none of those headers;
 * - `GET /users/me`, `GET /users/{user_id}/shops` (getShopByOwnerUserId: one Shop), `GET /shops/{shop_id}`,
 *   `GET /shops/{shop_id}/sections`, `GET /shops/{shop_id}/listings/active?limit&offset&keywords&sort_on&sort_order`
 *   (findAllActiveListingsByShop: no images), `GET /listings/batch?listing_ids&includes=Images`
 *   (getListingsByListingIds), `GET /listings/{listing_id}?includes=Images`.
 *
 * Errors are Etsy's {error} bodies. Titles and descriptions are HTML-escaped, as Etsy's are.
 */

type Env = { Variables: { etsy: EtsyState; token: TokenRecord | null } };

export function etsyApplicationApi(state: SandboxState) {
  const app = new Hono<Env>();
  app.use("*", apiKey(), authenticate(state), rateLimit());

  app.get("/users/me", (c) => {
    const token = c.var.token;
    if (!token) return etsyError(c, 401, "invalid_token", "This endpoint needs an OAuth access token");
    const account = accountByUserId(c.var.etsy, token.userId)!;
    // Etsy's Self: shop_id is a positive integer, never null; a member without a shop has none.
    return c.json(account.hasShop ? { user_id: account.userId, shop_id: account.shopId } : { user_id: account.userId });
  });

  app.get("/users/:user_id/shops", (c) => {
    const userId = positiveInteger(c.req.param("user_id"));
    if (userId === null) return etsyError(c, 400, "Expected int for path parameter 'user_id'");
    const account = accountByUserId(c.var.etsy, userId);
    if (!account?.hasShop) return etsyError(c, 404, `User with user_id ${userId} does not have a shop`);
    return c.json(shopJson(c, account));
  });

  app.get("/shops/:shop_id", (c) => {
    const account = shopOf(c);
    return account instanceof Response ? account : c.json(shopJson(c, account));
  });

  app.get("/shops/:shop_id/sections", (c) => {
    const account = shopOf(c);
    if (account instanceof Response) return account;
    const results = SECTION_TITLES.map((title, rank) => ({
      shop_section_id: sectionId(account, title),
      title,
      rank: rank + 1,
      user_id: account.userId,
      active_listing_count: activeProducts().filter((product) => product.categories[0] === title).length,
    }));
    return c.json({ count: results.length, results });
  });

  app.get("/shops/:shop_id/listings/active", (c) => {
    const account = shopOf(c);
    if (account instanceof Response) return account;
    const limit = integerParam(c, "limit", 25, 1, 100);
    if (limit instanceof Response) return limit;
    // Etsy describes offset as any integer from 0 (no maximum): past the end the page is empty.
    const offset = integerParam(c, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
    if (offset instanceof Response) return offset;
    const sortOn = c.req.query("sort_on") ?? "created";
    if (!["created", "price", "updated", "score"].includes(sortOn)) return etsyError(c, 400, "sort_on must be one of created, price, updated, score");
    const sortOrder = c.req.query("sort_order") ?? "desc";
    if (!["asc", "ascending", "desc", "descending", "up", "down"].includes(sortOrder))
      return etsyError(c, 400, "sort_order must be one of asc, ascending, desc, descending, up, down");
    const products = searchProducts(activeProducts(), c.req.query("keywords") ?? "");
    const byPrice = sortOn === "price";
    products.sort((a, b) => (byPrice ? Number(a.price) - Number(b.price) : a.createdAt.localeCompare(b.createdAt)) || a.number - b.number);
    if (!["asc", "ascending", "up"].includes(sortOrder)) products.reverse();
    return c.json({ count: products.length, results: products.slice(offset, offset + limit).map((product) => listingJson(c, account, product, null)) });
  });

  app.get("/listings/batch", (c) => {
    const raw = c.req.query("listing_ids") ?? "";
    const ids = raw.split(",").map((value) => positiveInteger(value.trim()));
    if (raw === "" || ids.some((id) => id === null)) return etsyError(c, 400, "listing_ids must be a comma-separated list of listing ids");
    if (ids.length > 100) return etsyError(c, 400, "listing_ids may name at most 100 listings");
    const includes = includesOf(c);
    if (includes instanceof Response) return includes;
    const results = ids.flatMap((id) => {
      const found = listingOf(c.var.etsy, id!);
      return found ? [listingJson(c, found.account, found.product, includes)] : [];
    });
    return c.json({ count: results.length, results });
  });

  app.get("/listings/:listing_id", (c) => {
    const id = positiveInteger(c.req.param("listing_id"));
    const found = id === null ? undefined : listingOf(c.var.etsy, id);
    if (found?.product.status !== "active") return etsyError(c, 404, `Listing with listing_id ${c.req.param("listing_id")} does not exist`);
    const includes = includesOf(c);
    if (includes instanceof Response) return includes;
    return c.json(listingJson(c, found.account, found.product, includes));
  });

  app.notFound((c) => etsyError(c, 404, `No such endpoint: ${c.req.method} ${c.req.path}`));
  return app;
}

// ---- checks -----------------------------------------------------------------------------------

function etsyError(c: Context, status: 400 | 401 | 403 | 404 | 429, error: string, description?: string) {
  return c.json(description ? { error, error_description: description } : { error }, status);
}

function apiKey(): MiddlewareHandler<Env> {
  return async (c, next) => {
    const key = c.req.header("x-api-key") ?? "";
    if (!key) return etsyError(c, 403, "Missing x-api-key header");
    const [keystring, secret] = key.split(":", 2);
    if (keystring !== SANDBOX_ETSY_KEYSTRING) return etsyError(c, 403, "Invalid API key");
    if (!secret) return etsyError(c, 403, "Shared secret is required in x-api-key header");
    if (secret !== SANDBOX_ETSY_SHARED_SECRET) return etsyError(c, 403, "Invalid API key");
    await next();
  };
}

function authenticate(state: SandboxState): MiddlewareHandler<Env> {
  return async (c, next) => {
    const etsy = etsyState(state);
    c.set("etsy", etsy);
    const header = c.req.header("authorization");
    if (header === undefined) {
      c.set("token", null);
      return next();
    }
    const match = /^Bearer\s+(\d+\.\S+)\s*$/i.exec(header);
    const token = match ? etsy.tokens.get(match[1]!) : undefined;
    if (token?.kind !== "access" || token.spent) return etsyError(c, 401, "invalid_token", "access token is invalid");
    if (token.expiresAt <= Date.now()) return etsyError(c, 401, "invalid_token", "access token is expired");
    c.set("token", token);
    await next();
  };
}

/** Etsy's per-second and sliding 24-hour budgets, per token's member (the app's own account without a token). */
function rateLimit(): MiddlewareHandler<Env> {
  return async (c, next) => {
    const etsy = c.var.etsy;
    const token = c.var.token;
    const account = (token && accountByUserId(etsy, token.userId)) || appAccount(etsy);
    const limit = account.rateLimit ?? etsy.rateLimit;
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (account.second.at !== second) account.second = { at: second, count: 0 };
    while (account.day.length > 0 && account.day[0]! <= now - 86_400_000) account.day.shift();
    if (account.day.length >= limit.perDay) {
      account.refused += 1;
      c.header("retry-after", String(Math.max(1, Math.ceil((account.day[0]! + 86_400_000 - now) / 1000))));
      return etsyError(c, 429, "You have exceeded your quota of requests per day");
    }
    if (account.second.count >= limit.perSecond) {
      account.refused += 1;
      c.header("retry-after", "1");
      return etsyError(c, 429, "You have exceeded your quota of requests per second");
    }
    account.second.count += 1;
    account.day.push(now);
    c.header("x-limit-per-second", String(limit.perSecond));
    c.header("x-remaining-this-second", String(limit.perSecond - account.second.count));
    c.header("x-limit-per-day", String(limit.perDay));
    c.header("x-remaining-today", String(limit.perDay - account.day.length));
    await next();
  };
}

function positiveInteger(value: string | undefined): number | null {
  return value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

function shopOf(c: Context<Env>): EtsyAccount | Response {
  const shopId = positiveInteger(c.req.param("shop_id"));
  if (shopId === null) return etsyError(c, 400, "Expected int for path parameter 'shop_id'");
  return accountByShopId(c.var.etsy, shopId) ?? etsyError(c, 404, `Could not find a shop with shop_id = ${shopId}`);
}

function integerParam(c: Context, name: string, fallback: number, min: number, max: number): number | Response {
  const raw = c.req.query(name);
  if (raw === undefined) return fallback;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) return etsyError(c, 400, `Expected parameter '${name}' to be between ${min} and ${max}`);
  return value;
}

const INCLUDES = ["Shipping", "Images", "Shop", "User", "Translations", "Inventory", "Videos", "Personalization"];

function includesOf(c: Context): string[] | Response {
  const raw = c.req.query("includes");
  if (!raw) return [];
  const names = raw.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !INCLUDES.includes(name));
  return unknown.length > 0 ? etsyError(c, 400, `includes must be among ${INCLUDES.join(", ")}, not ${unknown.join(", ")}`) : names;
}

// ---- Etsy's shapes ----------------------------------------------------------------------------

/** Where the stand-in is mounted (http://127.0.0.1:8788/etsy). */
function base(c: Context) {
  return mountBase(c, "/v3/");
}

/** Etsy answers text HTML-escaped. */
function etsyText(text: string) {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#39;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function shopJson(c: Context, account: EtsyAccount) {
  const created = Math.floor(account.createdAt / 1000);
  return {
    shop_id: account.shopId,
    user_id: account.userId,
    shop_name: account.shopName,
    create_date: created,
    created_timestamp: created,
    title: "Handmade ceramics, candles and linens for slow living",
    announcement: null,
    currency_code: "USD",
    is_vacation: false,
    vacation_message: null,
    sale_message: null,
    digital_sale_message: null,
    update_date: created,
    updated_timestamp: created,
    listing_active_count: activeProducts().length,
    digital_listing_count: 0,
    login_name: account.shopName.toLowerCase(),
    accepts_custom_requests: true,
    url: `${base(c)}/shop/${account.shopName}`,
    image_url_760x100: null,
    num_favorers: 214,
    languages: ["en-US"],
    icon_url_fullxfull: null,
    is_using_structured_policies: true,
    has_onboarded_structured_policies: true,
    is_shop_us_based: true,
    transaction_sold_count: 1387,
    shipping_from_country_iso: "US",
    shop_location_country_iso: "US",
    review_count: 312,
    review_average: 4.9,
  };
}

/**
 * A product of the demo catalogue as the shop's Etsy listing: a ShopListing (findAllActiveListingsByShop), or with
 * `includes` a ShopListingWithAssociations (getListing, getListingsByListingIds), which alone carries
 * production_partners, skus and views, and images when Images is included.
 */
export function listingJson(c: Context, account: EtsyAccount, product: DemoProduct, includes: string[] | null) {
  const id = listingId(account, product);
  const created = Math.floor(Date.parse(product.createdAt) / 1000);
  const listing: Record<string, unknown> = {
    listing_id: id,
    user_id: account.userId,
    shop_id: account.shopId,
    title: etsyText(product.title),
    description: etsyText(product.description),
    state: product.status === "active" ? "active" : "inactive",
    creation_timestamp: created,
    created_timestamp: created,
    ending_timestamp: created + 120 * 86_400,
    original_creation_timestamp: created,
    last_modified_timestamp: created,
    updated_timestamp: created,
    state_timestamp: created,
    quantity: 5 + (product.number % 20),
    shop_section_id: sectionId(account, product.categories[0]!),
    featured_rank: -1,
    url: `${base(c)}/listing/${id}/${product.handle}`,
    num_favorers: (product.number * 37) % 400,
    non_taxable: false,
    is_taxable: true,
    is_customizable: false,
    is_personalizable: false,
    personalization_is_required: false,
    personalization_char_count_max: null,
    personalization_instructions: null,
    listing_type: "physical",
    tags: product.tags,
    materials: [product.tags[2]],
    shipping_profile_id: 180_000_000 + account.index,
    return_policy_id: 1_200_000 + account.index,
    processing_min: 1,
    processing_max: 3,
    who_made: "i_did",
    when_made: "made_to_order",
    is_supply: false,
    item_weight: null,
    item_weight_unit: null,
    item_length: null,
    item_width: null,
    item_height: null,
    item_dimensions_unit: null,
    is_private: false,
    style: [],
    file_data: "",
    has_variations: false,
    should_auto_renew: true,
    language: "en-US",
    price: { amount: Math.round(Number(product.price) * 100), divisor: 100, currency_code: product.currency },
    taxonomy_id: 1000 + SECTION_TITLES.indexOf(product.categories[0]!),
  };
  if (includes === null) return listing;
  listing.production_partners = [];
  listing.skus = [];
  listing.views = (product.number * 131) % 2000;
  if (includes.includes("Images")) {
    listing.images = Array.from({ length: product.photoCount }, (_, i) => imageJson(c, account, product, i + 1));
  }
  return listing;
}

function imageJson(c: Context, account: EtsyAccount, product: DemoProduct, n: number) {
  const id = imageId(account, product, n);
  const url = (size: string) => `${base(c)}/images/${account.shopId}/r/il/${id}/il_${size}.${id}.jpg`;
  const hex = product.colour.hex.slice(1).toUpperCase();
  const created = Math.floor(Date.parse(product.createdAt) / 1000);
  return {
    listing_id: listingId(account, product),
    listing_image_id: id,
    hex_code: hex,
    red: Number.parseInt(hex.slice(0, 2), 16),
    green: Number.parseInt(hex.slice(2, 4), 16),
    blue: Number.parseInt(hex.slice(4, 6), 16),
    hue: 0,
    saturation: 0,
    brightness: 0,
    is_black_and_white: false,
    creation_tsz: created,
    created_timestamp: created,
    rank: n,
    url_75x75: url("75x75"),
    url_170x135: url("170x135"),
    url_570xN: url("570xN"),
    url_fullxfull: url("fullxfull"),
    full_height: 1200,
    full_width: 1200,
    alt_text: `${product.title}, photo ${n}`,
  };
}
