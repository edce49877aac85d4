import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sameSitePath } from "../../../contracts/paths.ts";
import type { ShopListingsPage } from "../../../contracts/shops/shops.ts";
import {
  ConnectWooCommerceBody,
  WooCommerceKeysBody,
  WooCommerceProductsQuery,
  WooCommerceReturnQuery,
  type ConnectWooCommerceResponse,
} from "../../../contracts/shops/woocommerce.ts";
import { requireUser } from "../../auth/middleware.ts";
import {
  bindingCookieName,
  CALLBACK_PATH,
  finishConnection,
  receiveKeys,
  RETURN_PATH,
  startConnection,
  wooCommerceListings,
} from "../../services/shops/woocommerce-connection.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** WooCommerce: connecting a store through its own authorisation page, and its products (docs/decisions/030). */
export const wooCommerceApi = router();

const cookieOptions = { httpOnly: true, secure: true, sameSite: "Lax", path: RETURN_PATH } as const;

/** Answers the store's authorisation page; only this browser (its cookie) may finish the connection. */
wooCommerceApi.post("/woocommerce/connect", requireUser, valid("json", ConnectWooCommerceBody), async (c) => {
  const { authorizeUrl, binding, connectionId } = await startConnection(c.env, c.var.auth.user, c.req.valid("json"));
  setCookie(c, await bindingCookieName(connectionId), binding, { ...cookieOptions, maxAge: 15 * 60 });
  return c.json({ authorizeUrl } satisfies ConnectWooCommerceResponse);
});

/** WooCommerce POSTs the keys here (server to server): 200 takes them, anything else makes WooCommerce delete them. */
wooCommerceApi.post(CALLBACK_PATH.replace(/^\/api/, ""), valid("json", WooCommerceKeysBody), async (c) => {
  await receiveKeys(c.env, c.req.valid("json"));
  return c.json({ status: "received" });
});

/**
 * WooCommerce sends the browser back here: to the page that started the
 * connection with `shopConnected=<shop name>`, or with `shopError=<message>`.
 */
wooCommerceApi.get(RETURN_PATH.replace(/^\/api/, ""), valid("query", WooCommerceReturnQuery), async (c) => {
  const query = c.req.valid("query");
  let cookieName: string | null = null;
  const outcome = await finishConnection(c.env, query, async (connectionId) => {
    cookieName = await bindingCookieName(connectionId);
    return getCookie(c, cookieName);
  });
  if (cookieName) deleteCookie(c, cookieName, cookieOptions);
  const target = new URL(outcome.redirectUrl, c.env.APP_URL);
  if (outcome.shopName) target.searchParams.set("shopConnected", outcome.shopName);
  if (outcome.error) target.searchParams.set("shopError", outcome.error);
  c.header("cache-control", "no-store");
  return c.redirect(sameSitePath(`${target.pathname}${target.search}`, c.env.APP_URL) ?? "/products", 302);
});

wooCommerceApi.get("/woocommerce/products", requireUser, valid("query", WooCommerceProductsQuery), async (c) => {
  const query = c.req.valid("query");
  return c.json((await wooCommerceListings(c.env, c.var.auth.user.id, { ...query, pageNumber: Number(query.pageNumber) })) satisfies ShopListingsPage);
});
