import { createHmac, randomBytes } from "node:crypto";
import { GraphQLError } from "graphql";
import type { Context, Hono } from "hono";
import { DEMO_PRODUCTS, searchProducts, type DemoProduct } from "../../demo-shop/catalog.ts";
import { PHOTO_SIZES, productPhotoJpeg, type PhotoSize } from "../../demo-shop/photos.ts";
import { escapeHtml, standalonePage } from "../../html.ts";
import { SANDBOX_SHOPIFY_CLIENT_ID } from "../../provider-vars.ts";

/**
 * The store side of the Shopify stand-in (docs/decisions/029-shopify-store-connection.md):
 * installing the app on a store with Shopify's authorization code grant, and the store's
 * products through the Admin GraphQL API. Every *.myshopify.com store sells the demo catalogue
 * (sandbox/demo-shop: 147 products, active, draft and archived).
 *
 * - `GET /:shop/admin/oauth/authorize?client_id&scope&redirect_uri&state`: the install page, with
 *   an "Install app" button; installing redirects to redirect_uri with code, hmac, host, shop, state
 *   and timestamp, `hmac` being the hex HMAC-SHA256 of the other parameters (sorted, `k=v` joined
 *   by `&`) with the app's client secret, as Shopify signs.
 * - `POST /:shop/admin/oauth/access_token {client_id, client_secret, code}` -> `{access_token, scope}`
 *   (an offline token, shpat_...); a code works once, for a minute, for its store.
 * - `DELETE /:shop/admin/api_permissions/current.json`: the app is uninstalled, the token revoked.
 * - GraphQL `products(first|last, after|before, query)` with `pageInfo`, `productsCount(query)` and
 *   `shop`; `query` understands words, "quoted phrases", `status:` (comma-separated), `title:`,
 *   `tag:` and `product_type:`; image `url(transform: {maxWidth, maxHeight})`. Documents are validated
 *   and answered field by field through ./graphql.ts. Every answer carries `extensions.cost`; each store has a
 *   bucket of 2,000 points refilled at 100 a second, and a query the bucket cannot pay for is
 *   answered THROTTLED, as Shopify does.
 * - `GET /cdn/shop/files/{handle}-{n}.jpg?width=&height=`: the product photos, at the largest
 *   offered size that fits.
 */

const CLIENT_ID = () => process.env.SHOPIFY_CLIENT_ID || SANDBOX_SHOPIFY_CLIENT_ID;
const SCOPES = new Set(["read_products", "write_products", "read_orders", "read_inventory"]);
const CODE_TTL_MS = 60_000;
const PRODUCT_ID_BASE = 8_801_234_560_000;
const PHOTO_VERSION = 1_736_150_400;

export interface Bucket {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
  at: number;
}

export interface ShopifyStoreState {
  codes: Map<string, { shop: string; scope: string; expiresAt: number; used: boolean }>;
  /** Tokens the install flow issued, by token: their store and scope. */
  tokens: Map<string, { shop: string; scope: string; issuedAt: string; revokedAt: string | null }>;
  /** Cost buckets by store. */
  buckets: Map<string, Bucket>;
}

export function createStoreState(): ShopifyStoreState {
  return { codes: new Map(), tokens: new Map(), buckets: new Map() };
}

/** Shopify's signature of its redirects: hex HMAC-SHA256 of the sorted `k=v&...` without hmac. */
export function signQuery(params: Record<string, string>, secret: string): string {
  const message = Object.keys(params)
    .filter((key) => key !== "hmac" && key !== "signature")
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join("&");
  return createHmac("sha256", secret).update(message, "utf8").digest("hex");
}

/** A store's name as its owner would have typed it: pinboard-demo.myshopify.com -> Pinboard Demo. */
export const storeName = (shop: string) =>
  shop
    .replace(/\.myshopify\.com$/, "")
    .split("-")
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(" ");

const hostParam = (shop: string) => Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, "")}`).toString("base64url");

/** Whether the token is refused: revoked by an uninstall. Any other shpat_ token is accepted (billing tests bring their own). */
export function tokenRevoked(store: ShopifyStoreState, token: string): boolean {
  return Boolean(store.tokens.get(token)?.revokedAt);
}

const CSS = `
  body { font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; background: #f1f1f1; color: #303030; margin: 0; }
  main { max-width: 480px; margin: 48px auto; background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 20px; } .note { color: #616161; font-size: 14px; } li { margin: 4px 0; }
  button { margin-top: 16px; padding: 10px 16px; border-radius: 8px; border: 0; background: #303030; color: #fff; font-size: 15px; cursor: pointer; }
`;

function oauthError(c: Context, message: string) {
  return c.html(standalonePage("Shopify", CSS, `<h1>Oauth error invalid_request</h1><p class="note">${escapeHtml(message)}</p>`), 400);
}

interface AuthorizeRequest {
  clientId: string;
  scope: string;
  redirectUri: string;
  state: string;
}

function authorizeProblem(input: AuthorizeRequest): string | null {
  if (input.clientId !== CLIENT_ID()) return "The client_id is not that of an app this store knows.";
  const scopes = input.scope.split(",").map((scope) => scope.trim());
  if (!input.scope || scopes.some((scope) => !SCOPES.has(scope))) return `The scope is invalid: ${input.scope || "(none)"}`;
  if (!/^https?:\/\/[^\s]+$/.test(input.redirectUri)) return "The redirect_uri is missing or not a URL.";
  if (!input.state) return "The state is missing.";
  return null;
}

export function storeRoutes(app: Hono, store: () => ShopifyStoreState, clientSecret: () => string, SHOP: RegExp) {
  app.get("/:shop/admin/oauth/authorize", (c) => {
    const shop = c.req.param("shop");
    if (!SHOP.test(shop)) return c.text("Not Found", 404);
    const input: AuthorizeRequest = {
      clientId: c.req.query("client_id") ?? "",
      scope: c.req.query("scope") ?? "",
      redirectUri: c.req.query("redirect_uri") ?? "",
      state: c.req.query("state") ?? "",
    };
    const problem = authorizeProblem(input);
    if (problem) return oauthError(c, problem);
    const hidden = Object.entries({ client_id: input.clientId, scope: input.scope, redirect_uri: input.redirectUri, state: input.state })
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
      .join("");
    return c.html(
      standalonePage(
        "Install app - Shopify",
        CSS,
        `<h1>Install Pinboard Studio</h1>
         <p class="note">on ${escapeHtml(storeName(shop))} (${escapeHtml(shop)})</p>
         <p>This app will be able to:</p>
         <ul>${input.scope
           .split(",")
           .map((scope) => `<li>${escapeHtml(scope.trim() === "read_products" ? "View products, variants and collections" : scope.trim())}</li>`)
           .join("")}</ul>
         <form method="post">${hidden}<button type="submit">Install app</button></form>`,
      ),
    );
  });

  app.post("/:shop/admin/oauth/authorize", async (c) => {
    const shop = c.req.param("shop");
    if (!SHOP.test(shop)) return c.text("Not Found", 404);
    const form = await c.req.parseBody();
    const input: AuthorizeRequest = {
      clientId: String(form.client_id ?? ""),
      scope: String(form.scope ?? ""),
      redirectUri: String(form.redirect_uri ?? ""),
      state: String(form.state ?? ""),
    };
    const problem = authorizeProblem(input);
    if (problem) return oauthError(c, problem);
    const code = randomBytes(16).toString("hex");
    store().codes.set(code, { shop, scope: input.scope, expiresAt: Date.now() + CODE_TTL_MS, used: false });
    const params: Record<string, string> = { code, host: hostParam(shop), shop, state: input.state, timestamp: String(Math.floor(Date.now() / 1000)) };
    params.hmac = signQuery(params, clientSecret());
    const target = new URL(input.redirectUri);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    return c.redirect(target.toString(), 302);
  });

  app.post("/:shop/admin/oauth/access_token", async (c) => {
    const shop = c.req.param("shop");
    if (!SHOP.test(shop)) return c.text("Not Found", 404);
    const type = c.req.header("content-type") ?? "";
    let input: Record<string, unknown>;
    try {
      input = type.includes("application/json") ? await c.req.json() : ((await c.req.parseBody()) as Record<string, unknown>);
    } catch {
      return c.json({ error: "invalid_request", error_description: "The request body could not be read." }, 400);
    }
    if (input.client_id !== CLIENT_ID() || input.client_secret !== clientSecret())
      return c.json({ error: "invalid_client", error_description: "Client credentials are invalid" }, 400);
    const code = typeof input.code === "string" ? store().codes.get(input.code) : undefined;
    if (!code || code.used || code.shop !== shop || code.expiresAt < Date.now())
      return c.json({ error: "invalid_request", error_description: "The authorization code was not found or was already used" }, 400);
    code.used = true;
    const token = `shpat_${randomBytes(16).toString("hex")}`;
    store().tokens.set(token, { shop, scope: code.scope, issuedAt: new Date().toISOString(), revokedAt: null });
    return c.json({ access_token: token, scope: code.scope });
  });

  app.delete("/:shop/admin/api_permissions/current.json", (c) => {
    const token = c.req.header("x-shopify-access-token") ?? "";
    const known = store().tokens.get(token);
    if (!/^shpat_[A-Za-z0-9]{8,}$/.test(token) || known?.revokedAt)
      return c.json({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }, 401);
    if (known) known.revokedAt = new Date().toISOString();
    else store().tokens.set(token, { shop: c.req.param("shop"), scope: "", issuedAt: new Date().toISOString(), revokedAt: new Date().toISOString() });
    return c.json({});
  });

  app.get("/cdn/shop/files/:file", async (c) => {
    const match = /^(.+)-(\d+)\.jpg$/.exec(c.req.param("file"));
    const product = match ? DEMO_PRODUCTS.find((candidate) => candidate.handle === match[1]) : undefined;
    const width = Number(c.req.query("width") ?? c.req.query("height") ?? 0);
    const size: PhotoSize = !width ? "full" : width >= PHOTO_SIZES.full ? "full" : width >= PHOTO_SIZES.medium ? "medium" : "small";
    const jpeg = product ? await productPhotoJpeg(product, Number(match![2]), size) : null;
    if (!jpeg) return c.text("Not Found", 404);
    return c.body(jpeg as Uint8Array<ArrayBuffer>, 200, { "content-type": "image/jpeg", "cache-control": "public, max-age=31536000, immutable" });
  });
}

// ---------------------------------------------------------------- GraphQL: products, productsCount, shop

export const BUCKET_MAX = 2000;
export const RESTORE_RATE = 100;

export function bucketOf(store: ShopifyStoreState, shop: string): Bucket {
  let bucket = store.buckets.get(shop);
  const now = Date.now();
  if (!bucket) {
    bucket = { maximumAvailable: BUCKET_MAX, currentlyAvailable: BUCKET_MAX, restoreRate: RESTORE_RATE, at: now };
    store.buckets.set(shop, bucket);
  }
  bucket.currentlyAvailable = Math.min(bucket.maximumAvailable, bucket.currentlyAvailable + (bucket.restoreRate * (now - bucket.at)) / 1000);
  bucket.at = now;
  return bucket;
}

export function costExtension(bucket: Bucket, requested: number, actual: number | null) {
  return {
    cost: {
      requestedQueryCost: requested,
      actualQueryCost: actual,
      throttleStatus: { maximumAvailable: bucket.maximumAvailable, currentlyAvailable: Math.floor(bucket.currentlyAvailable), restoreRate: bucket.restoreRate },
    },
  };
}

/** The root fields of the store's side (the rest are billing's). */
export const STORE_ROOT_FIELDS = new Set(["products", "productsCount", "shop"]);

type GraphqlError = { message: string; extensions?: Record<string, unknown>; path?: string[] };
/** A root field of the document, with its coerced arguments (./graphql.ts). */
type RootField = { name: string; args: Record<string, unknown> };

const productGid = (product: DemoProduct) => `gid://shopify/Product/${PRODUCT_ID_BASE + product.number}`;
const cursorOf = (product: DemoProduct) =>
  Buffer.from(JSON.stringify({ last_id: PRODUCT_ID_BASE + product.number, last_value: String(PRODUCT_ID_BASE + product.number) })).toString("base64");
function numberOfCursor(cursor: string): number | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { last_id?: unknown };
    return typeof parsed.last_id === "number" ? parsed.last_id - PRODUCT_ID_BASE : null;
  } catch {
    return null;
  }
}

/** Shopify's product search syntax, as far as the demo shop needs it. */
export function filterProducts(query: string): DemoProduct[] {
  let products: DemoProduct[] = [...DEMO_PRODUCTS];
  const words: string[] = [];
  for (const match of query.matchAll(/(\w+):("(?:[^"\\]|\\.)*"|\S+)|"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    const [, field, rawValue, phrase, word] = match;
    const value = rawValue?.replace(/^"|"$/g, "").toLowerCase() ?? "";
    if (field === "status") {
      const wanted = new Set(value.split(","));
      products = products.filter((product) => wanted.has(product.status));
    } else if (field === "title") products = products.filter((product) => product.title.toLowerCase().includes(value.replace(/\*$/, "")));
    else if (field === "tag") products = products.filter((product) => product.tags.some((tag) => tag.toLowerCase() === value));
    else if (field === "product_type") products = products.filter((product) => product.categories[0]?.toLowerCase() === value);
    else if (field) words.push(`${field}:${value}`);
    else words.push(phrase ?? word ?? "");
  }
  return searchProducts(products, words.join(" "));
}

/** The page size a document asks of a product's media (for its cost: `media(first: n)`). */
function mediaFirst(query: string): number {
  return Number(/\bmedia\s*\(\s*first\s*:\s*(\d+)/.exec(query)?.[1] ?? 10);
}

/** The page size of a connection field: one of `first` or `last`, 1 to 250, as Shopify requires. */
function pageSize(args: Record<string, unknown>): number {
  const first = args.first ?? null;
  const last = args.last ?? null;
  if ((first === null) === (last === null)) throw new GraphQLError("you must provide one of first or last");
  const size = (first ?? last) as number;
  if (size < 1 || size > 250) throw new GraphQLError("The maximum page size is 250 and the minimum is 1");
  return size;
}

/**
 * A product as the stand-in keeps it, every field the schema cut has (./graphql.ts answers only those a
 * document selects); `media(first|last)` and an image's `url(transform:)` are functions of their arguments.
 */
function productNode(product: DemoProduct, origin: string, shop: string) {
  const base = (n: number) => `${origin}/shopify/cdn/shop/files/${product.handle}-${n}.jpg?v=${PHOTO_VERSION}`;
  const photos = Array.from({ length: product.photoCount }, (_, i) => i + 1).map((n) => ({
    __typename: "MediaImage",
    id: `gid://shopify/MediaImage/${(PRODUCT_ID_BASE + product.number) * 10 + n}`,
    mediaContentType: "IMAGE",
    alt: `${product.title}, photo ${n}`,
    image: {
      altText: `${product.title}, photo ${n}`,
      width: PHOTO_SIZES.full,
      height: PHOTO_SIZES.full,
      url: ({ transform }: { transform?: { maxWidth?: number | null; maxHeight?: number | null } | null }) => {
        const sizes = [transform?.maxWidth, transform?.maxHeight].filter((value): value is number => typeof value === "number");
        return sizes.length ? `${base(n)}&width=${Math.min(...sizes)}&height=${Math.min(...sizes)}` : base(n);
      },
    },
  }));
  return {
    __typename: "Product",
    id: productGid(product),
    title: product.title,
    handle: product.handle,
    description: product.description,
    descriptionHtml: `<p>${escapeHtml(product.description)}</p>`,
    onlineStoreUrl: product.status === "active" ? `https://${shop}/products/${product.handle}` : null,
    productType: product.categories[0] ?? "",
    tags: product.tags,
    status: product.status.toUpperCase(),
    vendor: storeName(shop),
    createdAt: product.createdAt,
    totalInventory: 12 + (product.number % 30),
    priceRangeV2: {
      minVariantPrice: { amount: Number(product.price).toFixed(1), currencyCode: product.currency },
      maxVariantPrice: { amount: Number(product.price).toFixed(1), currencyCode: product.currency },
    },
    media: (args: Record<string, unknown>) => {
      const size = pageSize(args);
      return { nodes: args.last != null ? photos.slice(-size) : photos.slice(0, size) };
    },
    photoCount: photos.length,
  };
}

/** What a store query costs, as Shopify counts it: objects 1, a connection 2 plus its page size times its items. */
export function requestedCost(roots: RootField[], query: string): number {
  let cost = 1;
  const products = roots.find((root) => root.name === "products");
  if (products) {
    const size = Number(products.args.first ?? products.args.last ?? 0);
    cost += 2 + size * (5 + 2 * mediaFirst(query));
  }
  if (roots.some((root) => root.name === "productsCount")) cost += 1;
  return cost;
}

/**
 * The store's root fields of a document as whole objects (./graphql.ts applies the document's selection):
 * `{data, errors?, actual}` (actual: the points it really cost).
 */
export function storeQuery(
  shop: string,
  origin: string,
  roots: RootField[],
  query: string,
): { data: Record<string, unknown> | null; errors?: GraphqlError[]; actual: number } {
  const data: Record<string, unknown> = {};
  let actual = 1;
  for (const root of roots) {
    if (root.name === "shop")
      data.shop = {
        id: `gid://shopify/Shop/${shop.length * 7919}`,
        name: storeName(shop),
        myshopifyDomain: shop,
        email: `owner@${shop}`,
        currencyCode: "USD",
        primaryDomain: { url: `https://${shop}`, host: shop },
      };
    else if (root.name === "productsCount") {
      data.productsCount = { count: filterProducts(typeof root.args.query === "string" ? root.args.query : "").length, precision: "EXACT" };
      actual += 1;
    } else if (root.name === "products") {
      const { args } = root;
      let size: number;
      try {
        size = pageSize(args);
      } catch (error) {
        return { data: null, errors: [{ message: (error as Error).message, path: ["products"] }], actual };
      }
      const cursor = (args.after ?? args.before ?? null) as string | null;
      const at = cursor === null ? null : numberOfCursor(cursor);
      if (cursor !== null && at === null)
        return {
          data: null,
          errors: [{ message: "Invalid cursor for current pagination sort.", path: ["products"], extensions: { code: "BAD_REQUEST" } }],
          actual,
        };
      const all = filterProducts(typeof args.query === "string" ? args.query : "");
      let page: DemoProduct[];
      let hasNextPage: boolean;
      let hasPreviousPage: boolean;
      if (args.last != null) {
        const earlier = at === null ? all : all.filter((product) => product.number < at);
        page = earlier.slice(Math.max(0, earlier.length - size));
        hasPreviousPage = earlier.length > page.length;
        hasNextPage = at !== null ? all.some((product) => product.number >= at) : false;
      } else {
        const later = at === null ? all : all.filter((product) => product.number > at);
        page = later.slice(0, size);
        hasNextPage = later.length > page.length;
        hasPreviousPage = at !== null ? all.some((product) => product.number <= at) : false;
      }
      const nodes = page.map((product) => productNode(product, origin, shop));
      const photosPerProduct = mediaFirst(query);
      actual += 2 + nodes.reduce((sum, node) => sum + 5 + 2 * Math.min(node.photoCount, photosPerProduct), 0);
      data.products = {
        nodes,
        edges: page.map((product, i) => ({ cursor: cursorOf(product), node: nodes[i] })),
        pageInfo: {
          hasNextPage,
          hasPreviousPage,
          startCursor: page.length ? cursorOf(page[0]!) : null,
          endCursor: page.length ? cursorOf(page[page.length - 1]!) : null,
        },
      };
    }
  }
  return { data, actual };
}
