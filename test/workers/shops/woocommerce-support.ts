import { expect } from "vitest";
import { bearer, json, type TestUser } from "../accounts/accounts-support.ts";
import { app, cookiesSetBy, read, sandbox, testEnv } from "../support.ts";

/**
 * Connecting a WooCommerce store the way a browser and the store do it
 * (decision 030), against the stand-in: our connect call, the store's
 * Approve, the keys WooCommerce POSTs to our callback (held by the stand-in
 * and delivered here: the worker under test has no address the sandbox can
 * reach), and the browser's return.
 */

let counter = 0;
/** A store of its own for each test (the stand-in's state is shared by the test files running at once). */
export const newStore = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;
export const storeUrl = (slug: string) => `${testEnv.SANDBOX_URL}/woocommerce/${slug}`;

export interface HeldCallback {
  id: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  returnUrl: string;
  keyId: number;
}

/** Approving keeps the keys' delivery for the test to make. */
export function holdWooCommerceCallbacks() {
  return sandbox("/woocommerce/settings", { method: "POST", json: { holdCallbacks: true } });
}

/** The user names their store: our answer carries the store's authorisation page and this browser's cookie. */
export async function startWooCommerce(user: TestUser, store: string, redirectUrl?: string) {
  const response = await app("/api/woocommerce/connect", json({ storeUrl: store, ...(redirectUrl ? { redirectUrl } : {}) }, bearer(user.tokens)));
  expect(response.status, await response.clone().text()).toBe(200);
  const { authorizeUrl } = await read(response);
  return { authorizeUrl: new URL(authorizeUrl as string), cookie: cookiesSetBy(response) };
}

/** The shop owner clicks Approve on the store's page; the stand-in holds the keys it would POST to us. */
export async function approveWooCommerce(authorizeUrl: URL): Promise<HeldCallback> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("Pinboard Studio would like to connect to your store");
  const href = /id="approve" href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
  expect(href).toBeTruthy();
  const granted = await fetch(href!, { redirect: "manual" });
  expect(granted.status, "the stand-in must hold callbacks (holdWooCommerceCallbacks)").toBe(202);
  const id = granted.headers.get("x-sandbox-callback-id");
  const callbacks = await sandbox<HeldCallback[]>(`/woocommerce/callbacks?user_id=${encodeURIComponent(authorizeUrl.searchParams.get("user_id")!)}`);
  const callback = callbacks.find((candidate) => candidate.id === id);
  expect(callback).toBeTruthy();
  return callback!;
}

/** Delivers the POST WooCommerce would make to our callback, and tells the stand-in how we answered. */
export async function deliverWooCommerceKeys(callback: HeldCallback, body = callback.body) {
  const url = new URL(callback.url);
  const response = await app(`${url.pathname}${url.search}`, { method: "POST", headers: callback.headers, body });
  const settled = await sandbox<{ returnUrl?: string; error?: string }>(`/woocommerce/callbacks/${callback.id}/answered`, {
    method: "POST",
    json: { status: response.status },
  });
  return { response, settled };
}

/** The browser follows WooCommerce's redirect back to our return_url; answers where we send it. */
export async function comeBackFromWooCommerce(returnUrl: string, cookie: string) {
  const url = new URL(returnUrl);
  const response = await app(`${url.pathname}${url.search}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!, "http://app.test");
}

export interface ConnectedWooShop {
  id: string;
  shopType: string;
  shopUrl: string;
  shopName: string;
  status: string;
}

/** The whole connection of the stand-in's store `slug` to `user`: answers where the browser lands and the shop. */
export async function connectWooCommerceStore(user: TestUser, slug: string) {
  await holdWooCommerceCallbacks();
  const { authorizeUrl, cookie } = await startWooCommerce(user, storeUrl(slug));
  const callback = await approveWooCommerce(authorizeUrl);
  const { response, settled } = await deliverWooCommerceKeys(callback);
  expect(response.status, await response.clone().text()).toBe(200);
  const back = await comeBackFromWooCommerce(settled.returnUrl!, cookie);
  const shops = (await read(await app("/api/shops", { headers: bearer(user.tokens) }))).authorizedShops as ConnectedWooShop[];
  const shop = shops.find((candidate) => candidate.shopUrl === storeUrl(slug));
  expect(shop).toBeTruthy();
  return { back, callback, shop: shop!, authorizeUrl };
}
