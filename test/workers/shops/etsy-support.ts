import { expect } from "vitest";
import { bearer, json, type TestUser } from "../accounts/accounts-support.ts";
import { app, cookiesSetBy, read, sandbox } from "../support.ts";

let counter = 0;
/** An Etsy shop name unique to this run (4-20 letters and digits; the stand-in keeps shops between tests). */
export function etsyShopName(prefix: string): string {
  counter += 1;
  return `${prefix.replace(/[^A-Za-z]/g, "").slice(0, 10) || "Shop"}${crypto.randomUUID().replace(/-/g, "").slice(0, 7)}${counter}`.slice(0, 20);
}

export interface EtsyConnectionAttempt {
  /** The answer of POST /api/etsyAPI/connectEtsyShop. */
  started: Response;
  authorizeUrl: URL;
  /** The cookie the start set, as the browser that started it sends it back. */
  cookie: string;
  /** Where Etsy sent the browser back to: our callback with code and state. */
  callbackPath: string;
}

/** Starts connecting and consents on the Etsy stand-in as `shopName` (auto-approved), stopping before our callback. */
export async function startEtsyConnection(user: TestUser, shopName: string, redirectUrl?: string): Promise<EtsyConnectionAttempt> {
  const started = await app("/api/etsyAPI/connectEtsyShop", json(redirectUrl === undefined ? {} : { redirectUrl }, bearer(user.tokens)));
  expect(started.status).toBe(200);
  const authorizeUrl = new URL((await read(started.clone())).authorizeUrl);
  const consent = await fetch(`${authorizeUrl}&auto_approve=1&shop_name=${shopName}`, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get("location")!);
  return { started, authorizeUrl, cookie: cookiesSetBy(started), callbackPath: `${back.pathname}${back.search}` };
}

/** Our callback as the browser sends it (with `cookie`); answers where it redirects. */
export async function finishEtsyConnection(attempt: { callbackPath: string }, cookie: string | null): Promise<URL> {
  const callback = await app(attempt.callbackPath, { redirect: "manual", headers: cookie ? { cookie } : {} });
  expect(callback.status).toBe(302);
  return new URL(callback.headers.get("location")!, "http://app.test");
}

/** Connects an Etsy shop the way a browser does, and answers our id of it. */
export async function connectEtsyShop(user: TestUser, shopName: string): Promise<string> {
  const attempt = await startEtsyConnection(user, shopName);
  const back = await finishEtsyConnection(attempt, attempt.cookie);
  expect(back.searchParams.get("etsyError")).toBeNull();
  expect(back.searchParams.get("etsyConnected")).toBe(shopName);
  const { authorizedShops } = await read(await app("/api/shops", { headers: bearer(user.tokens) }));
  const shop = (authorizedShops as { id: string; shopType: string; shopName: string }[]).find(
    (candidate) => candidate.shopType === "Etsy" && candidate.shopName === shopName,
  );
  expect(shop).toBeDefined();
  return shop!.id;
}

export interface EtsyStandInAccount {
  user_id: number;
  shop_id: number | null;
  shop_name: string;
  calls_today: number;
  recent_calls: number[];
  refused: number;
  grants: { grant_type: "authorization_code" | "refresh_token"; at: number }[];
  tokens: { kind: "access" | "refresh"; value: string }[];
}

/** What the Etsy stand-in holds for a shop. */
export async function etsyAccount(shopName: string): Promise<EtsyStandInAccount> {
  const [account] = await sandbox<EtsyStandInAccount[]>(`/etsy/accounts?shop_name=${shopName}`);
  expect(account).toBeDefined();
  return account!;
}
