import { Hono, type Context } from "hono";
import { DEMO_PRODUCTS, searchProducts, type DemoProduct } from "../../demo-shop/catalog.ts";
import { productPhotoJpeg } from "../../demo-shop/photos.ts";
import { escapeHtml } from "../../html.ts";
import type { SandboxState } from "../../state.ts";
import { STORE_SLUG, storeCurrency, storeName, wooError, wooState, type WooKey } from "./state.ts";

/**
 * The stores' WordPress REST API, as WooCommerce 9 answers it:
 *
 * - `GET /:store/wp-json/`: the site index (name, description, url, home, namespaces), no key needed.
 * - `GET /:store/wp-json/wc/v3/products?page&per_page&search&status`: the demo catalogue's
 *   products, newest first, in WooCommerce's product shape, with `X-WP-Total`,
 *   `X-WP-TotalPages` and a `Link` header. The catalogue's active products are `publish`,
 *   its drafts `draft` and its archived ones `private`; `status` defaults to any.
 * - `GET /:store/wp-json/wc/v3/settings/general` and `/settings/general/:id`: the store's
 *   general settings, among them `woocommerce_currency`.
 * - `GET /:store/wp-content/uploads/2025/01/:handle-:n.jpg`: the product photos.
 *
 * Keys: HTTP Basic (consumer key as user, secret as password) or the `consumer_key` and
 * `consumer_secret` query parameters; a key opens only the store that issued it, and a
 * write-only key cannot read. WooCommerce accepts these two forms over https only (plain
 * http needs OAuth 1.0a signatures); the stand-in speaks http and accepts them there.
 */

const PRODUCT_ID_BASE = 4000;
const STATUS_OF: Record<DemoProduct["status"], string> = { active: "publish", draft: "draft", archived: "private" };
const STATUSES = new Set(["any", "future", "trash", "draft", "pending", "private", "publish"]);

export function storeBase(c: Context, store: string): string {
  const url = new URL(c.req.url);
  const marker = `/${store}/`;
  const index = url.pathname.indexOf(marker);
  return `${url.origin}${url.pathname.slice(0, index + marker.length - 1)}`;
}

const local = (iso: string) => iso.replace(/Z$/, "");
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
const termId = (text: string) => 10 + ([...slug(text)].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 9973, 7) % 9000);

/** Every fifth product is on sale: `price` is the sale price, `regular_price` the usual one. */
function prices(product: DemoProduct) {
  if (product.number % 5 !== 0) return { price: product.price, regular_price: product.price, sale_price: "", on_sale: false };
  const sale = (Number(product.price) * 0.8).toFixed(2);
  return { price: sale, regular_price: product.price, sale_price: sale, on_sale: true };
}

export function photoPath(product: DemoProduct, n: number) {
  return `/wp-content/uploads/2025/01/${product.handle}-${n}.jpg`;
}

/** The currency symbols WooCommerce writes into price_html, as HTML entities (the stores sell in these). */
const SYMBOLS: Record<string, string> = { USD: "&#36;", EUR: "&euro;", GBP: "&pound;" };

/** WooCommerce's price_html: the amount, or on sale the regular amount struck through and the sale amount. */
function priceHtml(price: string, regular: string, currency: string) {
  const amount = (value: string) =>
    `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">${SYMBOLS[currency] ?? currency}</span>${value}</bdi></span>`;
  return price === regular ? amount(price) : `<del aria-hidden="true">${amount(regular)}</del> <ins aria-hidden="true">${amount(price)}</ins>`;
}

/**
 * A product of the demo catalogue as WooCommerce answers it in the view context: every field of the
 * documentation's Product properties table, with a simple, physical product's values.
 */
function productJson(base: string, product: DemoProduct, currency: string) {
  const created = local(product.createdAt);
  const sentence = product.description.split(". ")[0];
  const price = prices(product);
  return {
    id: PRODUCT_ID_BASE + product.number,
    name: product.title,
    slug: product.handle,
    permalink: `${base}/product/${product.handle}/`,
    date_created: created,
    date_created_gmt: created,
    date_modified: created,
    date_modified_gmt: created,
    type: "simple",
    status: STATUS_OF[product.status],
    featured: product.number % 11 === 0,
    catalog_visibility: "visible",
    // WordPress keeps descriptions as HTML (with entities) and curls quotes on output.
    description: `<p>${escapeHtml(product.description)}</p>\n<ul>\n<li>Colour: ${escapeHtml(product.colour.name)}</li>\n<li>Handmade &#8211; no two are quite alike</li>\n</ul>\n`,
    short_description: `<p>${escapeHtml(sentence ?? product.description)}.</p>\n`,
    sku: `DEMO-${String(product.number).padStart(4, "0")}`,
    ...price,
    date_on_sale_from: null,
    date_on_sale_from_gmt: null,
    date_on_sale_to: null,
    date_on_sale_to_gmt: null,
    price_html: priceHtml(price.price, price.regular_price, currency),
    purchasable: product.status === "active",
    total_sales: (product.number * 7) % 40,
    virtual: false,
    downloadable: false,
    downloads: [],
    download_limit: -1,
    download_expiry: -1,
    external_url: "",
    button_text: "",
    tax_status: "taxable",
    tax_class: "",
    manage_stock: false,
    stock_quantity: null,
    stock_status: "instock",
    backorders: "no",
    backorders_allowed: false,
    backordered: false,
    sold_individually: false,
    weight: "",
    dimensions: { length: "", width: "", height: "" },
    shipping_required: true,
    shipping_taxable: true,
    shipping_class: "",
    shipping_class_id: 0,
    reviews_allowed: true,
    average_rating: "0.00",
    rating_count: 0,
    related_ids: [],
    upsell_ids: [],
    cross_sell_ids: [],
    parent_id: 0,
    purchase_note: "",
    categories: product.categories.map((name) => ({ id: termId(name), name, slug: slug(name) })),
    tags: product.tags.map((name) => ({ id: termId(`tag-${name}`), name, slug: slug(name) })),
    images: Array.from({ length: product.photoCount }, (_, i) => ({
      id: 90_000 + product.number * 10 + i + 1,
      date_created: created,
      date_created_gmt: created,
      date_modified: created,
      date_modified_gmt: created,
      src: `${base}${photoPath(product, i + 1)}`,
      name: `${product.handle}-${i + 1}`,
      alt: i === 0 ? product.title : "",
    })),
    attributes: [],
    default_attributes: [],
    variations: [],
    grouped_products: [],
    menu_order: 0,
    meta_data: [],
    _links: {
      self: [{ href: `${base}/wp-json/wc/v3/products/${PRODUCT_ID_BASE + product.number}` }],
      collection: [{ href: `${base}/wp-json/wc/v3/products` }],
    },
  };
}

/** The key of a request (Basic or query string), or WooCommerce's 401 answer. */
function authenticate(c: Context, state: SandboxState, store: string): WooKey | Response {
  let consumerKey = c.req.query("consumer_key");
  let consumerSecret = c.req.query("consumer_secret");
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    consumerKey = colon >= 0 ? decoded.slice(0, colon) : decoded;
    consumerSecret = colon >= 0 ? decoded.slice(colon + 1) : "";
  }
  if (!consumerKey) return c.json(wooError("woocommerce_rest_cannot_view", "Sorry, you cannot list resources.", 401), 401);
  const key = wooState(state).keys.get(consumerKey);
  if (!key || key.store !== store) return c.json(wooError("woocommerce_rest_authentication_error", "Consumer key is invalid.", 401), 401);
  if (key.consumerSecret !== consumerSecret) return c.json(wooError("woocommerce_rest_authentication_error", "Consumer secret is invalid.", 401), 401);
  if (key.permissions === "write")
    return c.json(wooError("woocommerce_rest_authentication_error", "The API key provided does not have read permissions.", 401), 401);
  return key;
}

function invalidParams(c: Context, params: Record<string, string>) {
  return c.json({ code: "rest_invalid_param", message: `Invalid parameter(s): ${Object.keys(params).join(", ")}`, data: { status: 400, params } }, 400);
}

function integerParam(value: string | undefined, fallback: number, min: number, max: number): number | null {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

/** The general settings as WooCommerce answers them (each with its group_id and _links). */
function generalSettings(state: SandboxState, store: string, base: string) {
  const woo = wooState(state);
  const setting = (id: string, label: string, type: string, value: string, extra: Record<string, unknown> = {}) => ({
    id,
    label,
    description: "",
    type,
    default: "",
    tip: "",
    value,
    ...extra,
    group_id: "general",
    _links: {
      self: [{ href: `${base}/wp-json/wc/v3/settings/general/${id}` }],
      collection: [{ href: `${base}/wp-json/wc/v3/settings/general` }],
    },
  });
  return [
    setting("woocommerce_store_address", "Address line 1", "text", "12 Kiln Lane"),
    setting("woocommerce_store_city", "City", "text", "Portland"),
    setting("woocommerce_default_country", "Country and state", "select", "US:OR"),
    setting("woocommerce_store_postcode", "Postcode / ZIP", "text", "97201"),
    setting("woocommerce_currency", "Currency", "select", storeCurrency(woo, store), {
      default: "USD",
      options: { USD: "United States (US) dollar ($)", EUR: "Euro (€)", GBP: "Pound sterling (£)" },
    }),
    setting("woocommerce_currency_pos", "Currency position", "select", "left"),
    setting("woocommerce_price_thousand_sep", "Thousand separator", "text", ","),
    setting("woocommerce_price_decimal_sep", "Decimal separator", "text", "."),
    setting("woocommerce_price_num_decimals", "Number of decimals", "number", "2"),
  ];
}

const byHandle = new Map(DEMO_PRODUCTS.map((product) => [product.handle, product]));

export function wooRestApi(state: SandboxState) {
  const app = new Hono();

  app.use("/:store/*", async (c, next) => {
    if (!STORE_SLUG.test(c.req.param("store") ?? ""))
      return c.json(wooError("rest_no_route", "No route was found matching the URL and request method.", 404), 404);
    await next();
  });

  const index = (c: Context) => {
    const store = c.req.param("store")!;
    const base = storeBase(c, store);
    return c.json({
      name: storeName(wooState(state), store),
      description: "Handmade homeware (WooCommerce demo store)",
      url: base,
      home: base,
      gmt_offset: "0",
      timezone_string: "UTC",
      namespaces: ["oembed/1.0", "wc/store/v1", "wc/v1", "wc/v2", "wc/v3", "wc-admin", "wp/v2"],
      authentication: [],
      routes: {},
      _links: { help: [{ href: "https://developer.wordpress.org/rest-api/" }] },
    });
  };
  app.get("/:store/wp-json", index);
  app.get("/:store/wp-json/", index);

  app.get("/:store/wp-json/wc/v3/products", (c) => {
    const store = c.req.param("store");
    const key = authenticate(c, state, store);
    if (key instanceof Response) return key;
    const query = c.req.query();
    const page = integerParam(query.page, 1, 1, Number.MAX_SAFE_INTEGER);
    if (page === null) return invalidParams(c, { page: "page is not of type integer." });
    const perPage = integerParam(query.per_page, 10, 1, 100);
    if (perPage === null) return invalidParams(c, { per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)" });
    const status = query.status ?? "any";
    if (!STATUSES.has(status)) return invalidParams(c, { status: `status is not one of ${[...STATUSES].join(", ")}.` });
    const matching = searchProducts(DEMO_PRODUCTS, query.search ?? "")
      .filter((product) => (status === "any" ? true : STATUS_OF[product.status] === status))
      .reverse();
    const total = matching.length;
    const totalPages = Math.ceil(total / perPage);
    const base = storeBase(c, store);
    c.header("X-WP-Total", String(total));
    c.header("X-WP-TotalPages", String(totalPages));
    const link = (n: number) => {
      const url = new URL(c.req.url);
      url.searchParams.set("page", String(n));
      return `<${base}/wp-json/wc/v3/products?${url.searchParams}>`;
    };
    const links = [page > 1 && page <= totalPages + 1 ? `${link(page - 1)}; rel="prev"` : "", page < totalPages ? `${link(page + 1)}; rel="next"` : ""].filter(
      Boolean,
    );
    if (links.length) c.header("Link", links.join(", "));
    return c.json(matching.slice((page - 1) * perPage, page * perPage).map((product) => productJson(base, product, storeCurrency(wooState(state), store))));
  });

  app.get("/:store/wp-json/wc/v3/settings/general", (c) => {
    const key = authenticate(c, state, c.req.param("store"));
    if (key instanceof Response) return key;
    return c.json(generalSettings(state, c.req.param("store"), storeBase(c, c.req.param("store"))));
  });
  app.get("/:store/wp-json/wc/v3/settings/general/:id", (c) => {
    const key = authenticate(c, state, c.req.param("store"));
    if (key instanceof Response) return key;
    const setting = generalSettings(state, c.req.param("store"), storeBase(c, c.req.param("store"))).find((candidate) => candidate.id === c.req.param("id"));
    if (!setting) return c.json(wooError("rest_setting_setting_invalid", "Invalid setting.", 404), 404);
    return c.json(setting);
  });

  app.get("/:store/wp-content/uploads/2025/01/:file", async (c) => {
    const match = /^(.+)-(\d+)\.jpg$/.exec(c.req.param("file"));
    const product = match ? byHandle.get(match[1]!) : undefined;
    const jpeg = product ? await productPhotoJpeg(product, Number(match![2])) : null;
    if (!jpeg) return c.text("Not Found", 404);
    return c.body(jpeg as Uint8Array<ArrayBuffer>, 200, { "content-type": "image/jpeg", "cache-control": "public, max-age=31536000, immutable" });
  });

  return app;
}
