import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ConnectEtsyShopBody, EtsyShopListingsQuery, type ConnectEtsyShopResponse } from "../../../contracts/shops/etsy.ts";
import { sameSitePath } from "../../../contracts/paths.ts";
import type { ShopListingsPage } from "../../../contracts/shops/shops.ts";
import { requireUser } from "../../auth/middleware.ts";
import {
  completeEtsyConnection,
  ETSY_CALLBACK_PATH,
  etsyBindingCookieName,
  etsyShopListings,
  startEtsyConnection,
} from "../../services/shops/etsy-connection.ts";
import { ServiceError } from "../../services/core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Etsy (spec section 7, Shops; decision 028): connecting a shop and reading its listings. */
export const etsyApi = router();

const BINDING_COOKIE = { httpOnly: true, secure: true, sameSite: "Lax", path: ETSY_CALLBACK_PATH } as const;

/** Starts connecting an Etsy shop: answers Etsy's authorization page; only this browser may finish (its cookie). */
etsyApi.post("/etsyAPI/connectEtsyShop", requireUser, valid("json", ConnectEtsyShopBody), async (c) => {
  const { authorizeUrl, state, binding } = await startEtsyConnection(c.env, c.var.auth.user, c.req.valid("json").redirectUrl);
  setCookie(c, await etsyBindingCookieName(state), binding, { ...BINDING_COOKIE, maxAge: 10 * 60 });
  return c.json({ authorizeUrl } satisfies ConnectEtsyShopResponse);
});

/**
 * Etsy sends the browser here after consent. The one-time state names the user
 * and must come back with the cookie of the browser that started it. Goes back
 * to the page that started it with `etsyConnected=<shop name>` or `etsyError=<message>`.
 */
etsyApi.get("/etsyAPI/oauthCallback", async (c) => {
  const state = c.req.query("state");
  const outcome = await completeEtsyConnection(c.env, { code: c.req.query("code"), state, error: c.req.query("error") }, async (value) =>
    getCookie(c, await etsyBindingCookieName(value)),
  );
  if (state) deleteCookie(c, await etsyBindingCookieName(state), BINDING_COOKIE);
  const target = new URL(outcome.redirectUrl, c.env.APP_URL);
  if (outcome.shopName) target.searchParams.set("etsyConnected", outcome.shopName);
  if (outcome.error) target.searchParams.set("etsyError", outcome.error);
  return c.redirect(sameSitePath(`${target.pathname}${target.search}`, c.env.APP_URL) ?? "/products", 302);
});

etsyApi.get("/etsyAPI/getEtsyShopListings", requireUser, valid("query", EtsyShopListingsQuery), async (c) => {
  try {
    return c.json((await etsyShopListings(c.env, c.var.auth.user.id, c.req.valid("query"))) satisfies ShopListingsPage);
  } catch (error) {
    if (error instanceof ServiceError && error.details?.retryAfterSeconds) c.header("retry-after", error.details.retryAfterSeconds);
    throw error;
  }
});
