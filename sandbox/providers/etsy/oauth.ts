import { randomBytes } from "node:crypto";
import { Hono, type Context } from "hono";
import { consentForm, consentPageCss, escapeHtml, standalonePage } from "../../html.ts";
import { SANDBOX_ETSY_KEYSTRING } from "../../provider-vars.ts";
import { authorizeErrorPage, redirectBack } from "../../oauth-pages.ts";
import type { SandboxState } from "../../state.ts";
import { isHttpUrl, mountBase } from "../pinterest/http.ts";
import { accountFor, CODE_LIFETIME_MS, DEFAULT_SHOP_NAME, ETSY_SCOPE_DESCRIPTIONS, etsyState, issueTokens, s256, SHOP_NAME, type EtsyState } from "./state.ts";

/**
 * Etsy's OAuth 2.0 with PKCE (https://developers.etsy.com/documentation/essentials/authentication):
 *
 * - `GET /oauth/connect?response_type=code&client_id&redirect_uri&scope&state&code_challenge&code_challenge_method=S256`:
 *   the consent page (a shop name field, "Allow access" and "Cancel"); Allow redirects to
 *   `redirect_uri?code&state`, Cancel to `redirect_uri?error=access_denied&error_description&state`.
 *   Sandbox-only: `&auto_approve=1` (with an optional `&shop_name=`) redirects straight back with a code.
 * - `POST /v3/public/oauth/token` (form): grant_type=authorization_code with client_id, redirect_uri,
 *   code and code_verifier (whose S256 must be the challenge), or grant_type=refresh_token with
 *   client_id and refresh_token. Answers {access_token, token_type, expires_in, refresh_token}; codes
 *   are good once, a refresh token too (the refresh answers a new one). Refusals are OAuth's
 *   400 {error, error_description}.
 */
export function etsyOAuthPages(state: SandboxState) {
  const app = new Hono();

  app.get("/oauth/connect", (c) => {
    const params = Object.fromEntries(new URL(c.req.url).searchParams);
    const problem = authorizeProblem(params);
    if (problem) return errorPage(c, problem);
    if (params.auto_approve === "1") {
      const shopName = (params.shop_name ?? DEFAULT_SHOP_NAME).trim();
      if (!SHOP_NAME.test(shopName)) return errorPage(c, `auto_approve=1 (sandbox only): shop_name must be 4 to 20 letters and digits, not "${shopName}"`);
      return approve(c, etsyState(state), params, shopName);
    }
    return consentPage(c, etsyState(state), params, {});
  });

  app.post("/oauth/connect/approve", async (c) => {
    const form = await c.req.parseBody();
    const fields = Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const params = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== "shop_name" && name !== "action"));
    const problem = authorizeProblem(params);
    if (problem) return errorPage(c, problem);
    if (fields.action === "deny") {
      return redirectBack(c, params.redirect_uri, { error: "access_denied", error_description: "The user denied the request", state: params.state });
    }
    const shopName = (fields.shop_name ?? "").trim();
    if (!SHOP_NAME.test(shopName)) {
      return consentPage(c, etsyState(state), params, { shopName, error: "Enter a shop name of 4 to 20 letters and digits." }, 400);
    }
    return approve(c, etsyState(state), params, shopName);
  });

  app.post("/v3/public/oauth/token", (c) => tokenEndpoint(c, state));

  return app;
}

const oauthError = (c: Context, error: string, description: string, status: 400 | 401 = 400) => c.json({ error, error_description: description }, status);

async function tokenEndpoint(c: Context, state: SandboxState) {
  const etsy = etsyState(state);
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header("content-type") ?? "")) {
    return oauthError(c, "invalid_request", "The body must be application/x-www-form-urlencoded");
  }
  const form = new URLSearchParams(await c.req.text());
  const clientId = form.get("client_id");
  if (!clientId) return oauthError(c, "invalid_request", "client_id is required");
  if (clientId !== SANDBOX_ETSY_KEYSTRING) return oauthError(c, "invalid_client", "The client_id is not an Etsy app's keystring", 401);
  const grantType = form.get("grant_type");

  if (grantType === "authorization_code") {
    const code = form.get("code");
    const redirectUri = form.get("redirect_uri");
    const verifier = form.get("code_verifier");
    if (!code || !redirectUri || !verifier)
      return oauthError(c, "invalid_request", "code, redirect_uri and code_verifier are required with grant_type=authorization_code");
    const record = etsy.codes.get(code);
    if (!record || record.used || record.expiresAt < Date.now() || record.clientId !== clientId)
      return oauthError(c, "invalid_grant", "The authorization code is invalid or expired");
    if (record.redirectUri !== redirectUri) return oauthError(c, "invalid_grant", "redirect_uri does not match the authorization request");
    // A code whose verifier is wrong is used up all the same: it cannot be tried again.
    record.used = true;
    if (s256(verifier) !== record.challenge) return oauthError(c, "invalid_grant", "code_verifier is invalid");
    const account = [...etsy.accounts.values()].find((candidate) => candidate.userId === record.userId)!;
    return c.json(issueTokens(etsy, account, clientId, record.scopes));
  }

  if (grantType === "refresh_token") {
    const value = form.get("refresh_token");
    if (!value) return oauthError(c, "invalid_request", "refresh_token is required with grant_type=refresh_token");
    const record = etsy.tokens.get(value);
    if (record?.kind !== "refresh" || record.spent || record.expiresAt < Date.now() || record.clientId !== clientId) {
      return oauthError(c, "invalid_grant", "The refresh token is invalid or expired");
    }
    record.spent = true;
    const account = [...etsy.accounts.values()].find((candidate) => candidate.userId === record.userId)!;
    return c.json(issueTokens(etsy, account, clientId, record.scopes, "refresh_token"));
  }

  if (!grantType) return oauthError(c, "invalid_request", "grant_type is required");
  return oauthError(c, "unsupported_grant_type", `grant_type must be authorization_code or refresh_token, not "${grantType}"`);
}

function approve(c: Context, etsy: EtsyState, params: Record<string, string>, shopName: string) {
  const account = accountFor(etsy, shopName);
  const code = randomBytes(24).toString("base64url");
  etsy.codes.set(code, {
    code,
    userId: account.userId,
    clientId: params.client_id!,
    redirectUri: params.redirect_uri!,
    challenge: params.code_challenge!,
    scopes: params.scope!.split(" ").filter(Boolean),
    expiresAt: Date.now() + CODE_LIFETIME_MS,
    used: false,
  });
  etsy.recentShopNames = [account.shopName, ...etsy.recentShopNames.filter((name) => name !== account.shopName)].slice(0, 5);
  return redirectBack(c, params.redirect_uri!, { code, state: params.state });
}

/** Why Etsy would refuse this authorization request, or null. */
function authorizeProblem(params: Record<string, string>): string | null {
  if (params.response_type !== "code") return "response_type must be code";
  if (!params.client_id) return "client_id is required";
  if (params.client_id !== SANDBOX_ETSY_KEYSTRING) return `client_id ${params.client_id} is not an Etsy app's keystring`;
  if (!params.redirect_uri || !isHttpUrl(params.redirect_uri)) return "redirect_uri must be an absolute URL";
  if (!params.state) return "state is required";
  if (!params.scope) return "scope is required";
  const unknown = params.scope.split(" ").filter((scope) => scope && !(scope in ETSY_SCOPE_DESCRIPTIONS));
  if (unknown.length > 0) return `Unknown scope: ${unknown.join(", ")}`;
  if (!params.code_challenge || !/^[A-Za-z0-9_-]{43,128}$/.test(params.code_challenge))
    return "code_challenge is required: the base64url SHA-256 of the code verifier";
  if (params.code_challenge_method !== "S256") return "code_challenge_method must be S256";
  return null;
}

// ---- pages ------------------------------------------------------------------------------------

function errorPage(c: Context, problem: string) {
  return authorizeErrorPage(c, PAGE_CSS, "Etsy", problem);
}

function consentPage(c: Context, etsy: EtsyState, params: Record<string, string>, values: { shopName?: string; error?: string }, status: 200 | 400 = 200) {
  const action = `${mountBase(c, "/oauth/connect")}/oauth/connect/approve`;
  const carried = Object.fromEntries(Object.entries(params).filter(([name]) => !["auto_approve", "shop_name", "action"].includes(name)));
  const shopName = values.shopName ?? params.shop_name ?? etsy.recentShopNames[0] ?? DEFAULT_SHOP_NAME;
  const scopes = params.scope!.split(" ").filter(Boolean);
  c.header("cache-control", "no-store");
  return c.html(
    standalonePage(
      "Allow access to your Etsy shop",
      PAGE_CSS,
      `<h1>Allow access to your Etsy shop</h1>
      <p class="note"><strong>Local sandbox:</strong> this page stands in for Etsy's. No Etsy account is used;
      type any shop name and the sandbox opens that shop, selling the demo catalogue, on first use.</p>
      <p><strong>${escapeHtml(new URL(params.redirect_uri!).origin)}</strong> would like to:</p>
      <ul class="scopes">
        ${scopes.map((scope) => `<li>${escapeHtml(ETSY_SCOPE_DESCRIPTIONS[scope]!)} <code>${escapeHtml(scope)}</code></li>`).join("\n        ")}
      </ul>
      ${consentForm({
        action,
        carried,
        field: { name: "shop_name", label: "Etsy shop name", value: shopName, pattern: "[A-Za-z0-9]{4,20}" },
        allowLabel: "Allow access",
        error: values.error,
      })}`,
    ),
    status,
  );
}

const PAGE_CSS = consentPageCss({
  page: "#f5f0eb",
  text: "#222",
  accent: "#222",
  soft: "#eee",
  border: "#bbb",
  radius: "0.75rem",
  focus: "#0066cc",
  error: "#a61a00",
});
