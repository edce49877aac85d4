import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sameSitePath } from "../../../contracts/paths.ts";
import {
  SHOPIFY_CONNECTED_PARAM,
  SHOPIFY_ERROR_PARAM,
  ShopifyListingsFromTokenQuery,
  ShopifyListingsQuery,
  ShopifyStateCheckBody,
  type ShopifyStateCheckResponse,
} from "../../../contracts/shops/shopify-shop.ts";
import { requireUser } from "../../auth/middleware.ts";
import { readSessionCookie } from "../../auth/session-cookie.ts";
import { authenticateCookie } from "../../services/accounts/accounts.ts";
import {
  ANONYMOUS_INSTALL_COOKIE,
  ANONYMOUS_INSTALL_TTL_MS,
  anonymousShop,
  attachAnonymousInstall,
  bindingCookieName,
  completeShopifyInstall,
  getShopifyShopListings,
  getShopifyShopListingsFromAccessToken,
  recordShopifyStateCheck,
  SHOPIFY_CALLBACK_PATH,
  startInstallFromShopify,
} from "../../services/shops/shopify-shop.ts";
import { router, type AppBindings } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Connecting Shopify stores and reading their products (spec section 7, Shops and catalogs; decision 029). */
export const shopifyShopApi = router();

const STATE_COOKIE = { httpOnly: true, secure: true, sameSite: "Lax", path: SHOPIFY_CALLBACK_PATH } as const;

async function bindToThisBrowser(c: Context<AppBindings>, state: string, binding: string) {
  setCookie(c, await bindingCookieName(state), binding, { ...STATE_COOKIE, maxAge: 10 * 60 });
}

shopifyShopApi.post("/shopifyAPI/recordShopifyStateCheck", requireUser, valid("json", ShopifyStateCheckBody), async (c) => {
  const input = c.req.valid("json");
  const { authorizeUrl, binding } = await recordShopifyStateCheck(c.env, c.var.auth.user, input);
  // Only this browser may finish the connection: the callback must bring this cookie back.
  await bindToThisBrowser(c, input.stateCheck, binding);
  return c.json({ authorizeUrl } satisfies ShopifyStateCheckResponse);
});

/** The App URL registered with Shopify: an install begun on Shopify's side arrives here with shop, timestamp and hmac. */
shopifyShopApi.get("/shopifyAPI/install", async (c) => {
  const cookie = readSessionCookie(c);
  const signedIn = cookie ? await authenticateCookie(c.env, cookie) : null;
  const { authorizeUrl, binding, state } = await startInstallFromShopify(c.env, new URL(c.req.url).searchParams, signedIn?.user.id ?? null);
  await bindToThisBrowser(c, state, binding);
  return c.redirect(authorizeUrl, 302);
});

/**
 * Shopify sends the browser here once the merchant installed the app. Goes
 * back to the page that started it with `shopifyConnected=<store name>` or
 * `shopifyError=<message>`; an install nobody here is signed in for goes to
 * the sign-up page, its entry kept for the account made or logged in next.
 */
shopifyShopApi.get("/shopifyAPI/oauthCallback", async (c) => {
  const params = new URL(c.req.url).searchParams;
  const state = params.get("state");
  const outcome = await completeShopifyInstall(c.env, params, async (value) => getCookie(c, await bindingCookieName(value)));
  if (state) deleteCookie(c, await bindingCookieName(state), STATE_COOKIE);
  if (outcome.anonymousCookie)
    setCookie(c, ANONYMOUS_INSTALL_COOKIE, outcome.anonymousCookie, {
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
      path: "/api/",
      maxAge: ANONYMOUS_INSTALL_TTL_MS / 1000,
    });
  const target = new URL(outcome.redirectUrl, c.env.APP_URL);
  if (outcome.shopName && !outcome.anonymousCookie) target.searchParams.set(SHOPIFY_CONNECTED_PARAM, outcome.shopName);
  if (outcome.error) target.searchParams.set(SHOPIFY_ERROR_PARAM, outcome.error);
  // outcome.redirectUrl is a normalised path of this site; the guard stays here too.
  return c.redirect(sameSitePath(`${target.pathname}${target.search}`, c.env.APP_URL) ?? "/products", 302);
});

/** The store this browser installed from Shopify's side before signing up (the anonymous entry), without its token. */
shopifyShopApi.get("/shopifyAPI/anonymousShop", async (c) => c.json({ anonymousShop: await anonymousShop(c.env, getCookie(c, ANONYMOUS_INSTALL_COOKIE)) }));

shopifyShopApi.get("/shopifyAPI/getShopifyShopListings", requireUser, valid("query", ShopifyListingsQuery), async (c) =>
  c.json(await getShopifyShopListings(c.env, c.var.auth.user.id, c.req.valid("query"))),
);

shopifyShopApi.get("/shopifyAPI/getShopifyShopListingsFromAccessToken", requireUser, valid("query", ShopifyListingsFromTokenQuery), async (c) =>
  c.json(await getShopifyShopListingsFromAccessToken(c.env, c.req.valid("query"))),
);

/**
 * After a sign-up or login: the anonymous entry this browser holds becomes a
 * connected store of the account; the cookie goes. A failure here never fails
 * the sign-in.
 */
export async function attachAnonymousShopify(c: Context<AppBindings>, userId: string): Promise<void> {
  const cookie = getCookie(c, ANONYMOUS_INSTALL_COOKIE);
  if (!cookie) return;
  try {
    await attachAnonymousInstall(c.env, userId, cookie);
  } catch (error) {
    console.error("Attaching the anonymous Shopify install failed", error instanceof Error ? error.message : String(error));
    return;
  }
  deleteCookie(c, ANONYMOUS_INSTALL_COOKIE, { httpOnly: true, secure: true, sameSite: "Lax", path: "/api/" });
}
