import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SANDBOX_ETSY_KEYSTRING, SANDBOX_ETSY_SHARED_SECRET } from "../../../sandbox/provider-vars.ts";
import { useSandbox } from "../../support/sandbox.ts";

// The Etsy stand-in speaks Etsy's OAuth (PKCE checked) and Open API v3 shapes, with its rate-limit
// headers on every answer (decision 028).
const sandbox = useSandbox();
const KEY = `${SANDBOX_ETSY_KEYSTRING}:${SANDBOX_ETSY_SHARED_SECRET}`;
const REDIRECT = "https://app.example/api/etsyAPI/oauthCallback";
const VERIFIER = "a-verifier-of-forty-three-characters-or-more-0123";
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");

function authorizeUrl(overrides: Record<string, string> = {}) {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: SANDBOX_ETSY_KEYSTRING,
    redirect_uri: REDIRECT,
    scope: "shops_r listings_r",
    state: "state-1",
    code_challenge: CHALLENGE,
    code_challenge_method: "S256",
    ...overrides,
  });
  return `${sandbox.url}/etsy/oauth/connect?${params}`;
}

async function code(shopName = "PotteryBarnOwl") {
  const answer = await fetch(`${authorizeUrl()}&auto_approve=1&shop_name=${shopName}`, { redirect: "manual" });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get("location")!);
  expect(back.searchParams.get("state")).toBe("state-1");
  return back.searchParams.get("code")!;
}

function token(form: Record<string, string>) {
  return fetch(`${sandbox.url}/etsy/v3/public/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: SANDBOX_ETSY_KEYSTRING, ...form }),
  });
}

const exchange = async (value: string, verifier = VERIFIER) =>
  token({ grant_type: "authorization_code", redirect_uri: REDIRECT, code: value, code_verifier: verifier });

function api(path: string, accessToken?: string, key = KEY) {
  return fetch(`${sandbox.url}/etsy/v3/application${path}`, {
    headers: { "x-api-key": key, ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
  });
}

describe("the Etsy stand-in's OAuth", () => {
  it("grants <user_id>.<token> tokens for a code and its verifier, once, and rotates refresh tokens", async () => {
    const first = await code();
    const wrong = await exchange(first, "another-verifier-of-forty-three-characters-xx");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "invalid_grant", error_description: "code_verifier is invalid" });
    // The code was spent by the wrong try.
    expect((await exchange(first)).status).toBe(400);

    const granted = await exchange(await code());
    expect(granted.status).toBe(200);
    const tokens = (await granted.json()) as { access_token: string; refresh_token: string; expires_in: number; token_type: string };
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(tokens.access_token).toMatch(/^\d+\.[A-Za-z0-9_-]+$/);
    const me = await (await api("/users/me", tokens.access_token)).json();
    expect(tokens.access_token.startsWith(`${me.user_id}.`)).toBe(true);

    const renewed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(renewed.status).toBe(200);
    expect((await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status).toBe(400);
  });

  it("refuses an authorization request without an S256 challenge, or for an unknown app", async () => {
    const refusals: Record<string, string>[] = [
      { code_challenge: "" },
      { code_challenge_method: "plain" },
      { client_id: "someone-else" },
      { scope: "everything" },
    ];
    for (const overrides of refusals) {
      const page = await fetch(authorizeUrl(overrides));
      expect(page.status).toBe(400);
    }
    const consent = await fetch(authorizeUrl());
    expect(consent.status).toBe(200);
    const html = await consent.text();
    expect(html).toContain("Allow access");
    expect(html).toContain('<label for="shop_name">');
  });
});

describe("the Etsy stand-in's Open API v3", () => {
  it("needs the key with its shared secret, and puts Etsy's rate-limit headers on every answer", async () => {
    expect(await (await api("/shops/1", undefined, SANDBOX_ETSY_KEYSTRING)).json()).toEqual({ error: "Shared secret is required in x-api-key header" });
    const { access_token } = (await (await exchange(await code("HeaderShop"))).json()) as { access_token: string };
    const { shop_id } = await (await api("/users/me", access_token)).json();
    for (const path of [`/shops/${shop_id}`, `/shops/${shop_id}/listings/active?limit=2`, "/shops/999/listings/active"]) {
      const answer = await api(path, access_token);
      for (const header of ["x-limit-per-second", "x-remaining-this-second", "x-limit-per-day", "x-remaining-today"]) {
        expect(answer.headers.get(header), `${header} on ${path}`).toMatch(/^\d+$/);
      }
    }
    expect((await api(`/shops/${shop_id}/listings/active?limit=101`, access_token)).status).toBe(400);
    expect((await api(`/shops/${shop_id}`, "58000000.not-a-token")).status).toBe(401);
  });

  it("answers 429 with Retry-After and without the budget headers once the second's budget is spent", async () => {
    const shopName = "TightBudgetShop";
    const { access_token } = (await (await exchange(await code(shopName))).json()) as { access_token: string };
    await fetch(`${sandbox.url}/__sandbox/etsy/rate-limit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ shop_name: shopName, perSecond: 2, perDay: 100 }),
    });
    // Five calls within well under a second span at most two seconds: one of them holds three or more.
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => api("/users/me", access_token)));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.headers.get("retry-after")).toBe("1");
    expect(refused[0]!.headers.get("x-remaining-this-second")).toBeNull();
    const [account] = await (await fetch(`${sandbox.url}/__sandbox/etsy/accounts?shop_name=${shopName}`)).json();
    expect(account.refused).toBe(refused.length);
  });

  it("lists the demo catalogue's active products, with images in Etsy's sizes only when asked", async () => {
    const { access_token } = (await (await exchange(await code("CatalogueShop"))).json()) as { access_token: string };
    const { shop_id } = await (await api("/users/me", access_token)).json();
    const page = await (await api(`/shops/${shop_id}/listings/active?limit=3&offset=1&keywords=mug`, access_token)).json();
    expect(page.count).toBeGreaterThan(3);
    expect(page.results).toHaveLength(3);
    expect(page.results[0]).toMatchObject({ shop_id, state: "active", price: { divisor: 100, currency_code: "USD" } });
    expect(page.results[0].images).toBeUndefined();
    const ids = page.results.map((listing: { listing_id: number }) => listing.listing_id).join(",");
    const batch = await (await api(`/listings/batch?listing_ids=${ids}&includes=Images`, access_token)).json();
    const image = batch.results[0].images[0];
    const sizes = await Promise.all(
      [image.url_170x135, image.url_570xN, image.url_fullxfull].map(async (url: string) => (await (await fetch(url)).arrayBuffer()).byteLength),
    );
    expect(sizes[0]).toBeLessThan(sizes[1]!);
    expect(sizes[1]).toBeLessThan(sizes[2]!);
  });
});
