import { createHmac } from "node:crypto";
import { expect } from "vitest";
import { SANDBOX_SHOPIFY_CLIENT_SECRET } from "../../../sandbox/provider-vars.ts";
import { bearer, json, type TestUser } from "../accounts/accounts-support.ts";
import { app, cookiesSetBy, read } from "../support.ts";

// Connecting Shopify stores the way a browser does: our state check, the stand-in's install page,
// Shopify's signed redirect to our callback, carrying the cookies our answers set.

let stores = 0;
/** A store of its own for each test (the sandbox is shared with tests running alongside). */
export const newStore = (prefix = "shop") => `${prefix}-${Date.now().toString(36)}-${(stores += 1)}.myshopify.com`;

export const stateCheck = () => `state${crypto.randomUUID().replaceAll("-", "")}`;

/** Records a state check for the user's browser; answers Shopify's authorization page and the cookie binding it. */
export async function recordState(user: TestUser, shop: string, state = stateCheck(), redirectUrl = "/products") {
  const response = await app("/api/shopifyAPI/recordShopifyStateCheck", json({ shop, stateCheck: state, redirectUrl }, bearer(user.tokens)));
  expect(response.status).toBe(200);
  const { authorizeUrl } = (await read(response)) as { authorizeUrl: string };
  return { authorizeUrl, cookie: cookiesSetBy(response), state };
}

/** Clicks "Install app" on the stand-in's page: answers where Shopify sends the browser (our callback, signed). */
export async function installOnShopify(authorizeUrl: string): Promise<URL> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Install app");
  const url = new URL(authorizeUrl);
  const response = await fetch(`${url.origin}${url.pathname}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: url.searchParams.toString(),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}

/** Follows Shopify's redirect into our callback with this browser's cookies; answers where we send the browser and what we set. */
export async function callback(redirect: URL, cookie: string) {
  const response = await app(`${redirect.pathname}${redirect.search}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  expect(response.status).toBe(302);
  return { location: new URL(response.headers.get("location")!, "http://app.test"), cookies: cookiesSetBy(response) };
}

/** Connects a store to the user through the whole install flow; answers its id in authorizedShops. */
export async function connectStore(user: TestUser, shop = newStore()): Promise<{ id: string; shop: string; shopName: string }> {
  const { authorizeUrl, cookie } = await recordState(user, shop);
  const { location } = await callback(await installOnShopify(authorizeUrl), cookie);
  expect(location.pathname).toBe("/products");
  const shopName = location.searchParams.get("shopifyConnected");
  expect(shopName).toBeTruthy();
  const { authorizedShops } = await read(await app("/api/shops", { headers: bearer(user.tokens) }));
  const profile = (authorizedShops as { id: string; shopType: string; shopName: string }[]).find(
    (candidate) => candidate.shopType === "Shopify" && candidate.shopName === shopName,
  );
  expect(profile).toBeTruthy();
  return { id: profile!.id, shop, shopName: shopName! };
}

/** A redirect as Shopify would sign it (the stand-in's client secret is the app's in the tests). */
export function signed(params: Record<string, string>, secret = SANDBOX_SHOPIFY_CLIENT_SECRET): URLSearchParams {
  const message = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join("&");
  return new URLSearchParams({ ...params, hmac: createHmac("sha256", secret).update(message).digest("hex") });
}
