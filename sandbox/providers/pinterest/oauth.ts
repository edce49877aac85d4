import { Hono, type Context } from "hono";
import { randomBytes } from "node:crypto";
import { authorizeErrorPage, redirectBack } from "../../oauth-pages.ts";
import type { SandboxState } from "../../state.ts";
import { ERRORS, escapeHtml, invalid, isHttpUrl, mountBase, pinterestError } from "./http.ts";
import { consentForm, consentPageCss, standalonePage } from "../../html.ts";
import {
  accountFor,
  CODE_LIFETIME_MS,
  DEFAULT_USERNAME,
  issueTokens,
  normalizeUsername,
  parseScopes,
  PINTEREST_SCOPE_DESCRIPTIONS,
  pinterestState,
  tokenResponse,
  USERNAME_PATTERN,
  type PinterestState,
} from "./state.ts";

/**
 * Pinterest's OAuth authorization page (https://www.pinterest.com/oauth/):
 * `GET /oauth/?client_id&redirect_uri&response_type=code&scope&state` answers a
 * consent page listing the requested scopes with a username field and
 * Allow / Deny; Allow redirects to `redirect_uri?code=...&state=...`, Deny to
 * `redirect_uri?error=access_denied&state=...`. Sandbox-only: `&auto_approve=1`
 * (with an optional `&username=`) redirects straight back with a code.
 */
export function pinterestOAuthPages(state: SandboxState) {
  const app = new Hono();

  const authorize = (c: Context) => {
    const params = Object.fromEntries(new URL(c.req.url).searchParams);
    const problem = authorizeProblem(params);
    if (problem) return errorPage(c, problem);
    if (params.auto_approve === "1") {
      const username = (params.username ?? DEFAULT_USERNAME).trim();
      if (!USERNAME_PATTERN.test(username)) {
        return errorPage(c, `auto_approve=1 (sandbox only): username must be 3 to 30 letters, digits or underscores, not "${username}"`);
      }
      return approve(c, pinterestState(state), params, username);
    }
    return consentPage(c, pinterestState(state), mountBase(c, "/oauth"), params, {});
  };
  app.get("/oauth/", authorize);
  app.get("/oauth", authorize);

  app.post("/oauth/approve", async (c) => {
    const form = await c.req.parseBody();
    const fields = Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    const params = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== "username" && name !== "action"));
    const problem = authorizeProblem(params);
    if (problem) return errorPage(c, problem);
    if (fields.action === "deny") return redirectBack(c, params.redirect_uri, { error: "access_denied", state: params.state });
    const username = (fields.username ?? "").trim();
    if (!USERNAME_PATTERN.test(username)) {
      return consentPage(
        c,
        pinterestState(state),
        mountBase(c, "/oauth"),
        params,
        {
          username,
          error: "Enter a username of 3 to 30 letters, digits or underscores.",
        },
        400,
      );
    }
    return approve(c, pinterestState(state), params, username);
  });

  return app;
}

/**
 * `POST /v5/oauth/token` (operationId oauth/token): HTTP Basic client
 * authentication, an application/x-www-form-urlencoded body with
 * grant_type=authorization_code (code, redirect_uri) or grant_type=refresh_token
 * (refresh_token, optional scope). Codes are single-use; a refresh answers a new
 * access token and a new refresh token, and the old refresh token stops working;
 * grant_type=client_credentials (scope) answers a client token (no refresh token)
 * acting for the app owner's account (appOwnerUsername).
 */
export async function tokenEndpoint(c: Context, state: SandboxState) {
  const pinterest = pinterestState(state);
  const client = basicCredentials(c.req.header("authorization"));
  if (!client) return pinterestError(c, ERRORS.authenticationFailed);
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    return invalid(c, "the body must be application/x-www-form-urlencoded.");
  }
  const form = new URLSearchParams(await c.req.text());
  const grantType = form.get("grant_type");
  const continuous = form.get("continuous_refresh");
  if (continuous !== null && continuous !== "true" && continuous !== "false") return invalid(c, "'continuous_refresh' must be true or false.");

  if (grantType === "authorization_code") {
    const code = form.get("code");
    const redirectUri = form.get("redirect_uri");
    if (!code) return invalid(c, "'code' is required with grant_type=authorization_code.");
    if (!redirectUri) return invalid(c, "'redirect_uri' is required with grant_type=authorization_code.");
    const record = pinterest.codes.get(code);
    if (!record || record.used || record.expiresAt < Date.now() || record.clientId !== client.id || record.redirectUri !== redirectUri) {
      return pinterestError(c, ERRORS.invalidGrant);
    }
    record.used = true;
    const issued = issueTokens(pinterest, accountFor(pinterest, record.username), client.id, record.scopes);
    return c.json(tokenResponse(issued, "authorization_code"));
  }

  if (grantType === "refresh_token") {
    const token = form.get("refresh_token");
    if (!token) return invalid(c, "'refresh_token' is required with grant_type=refresh_token.");
    const record = pinterest.tokens.get(token);
    if (record?.kind !== "refresh" || record.spent || record.expiresAt < Date.now() || record.clientId !== client.id) {
      return pinterestError(c, ERRORS.invalidGrant);
    }
    let scopes = record.scopes;
    const requested = form.get("scope");
    if (requested) {
      scopes = parseScopes(requested);
      const extra = scopes.filter((scope) => !record.scopes.includes(scope));
      if (extra.length > 0) return invalid(c, `'scope' asks for scopes the user did not grant: ${extra.join(",")}.`);
    }
    record.spent = true;
    const issued = issueTokens(pinterest, accountFor(pinterest, record.username), client.id, scopes);
    return c.json(tokenResponse(issued, "refresh_token"));
  }

  if (grantType === "client_credentials") {
    // A client token acts for the app owner's own account (one per app id).
    const requested = form.get("scope");
    if (!requested) return invalid(c, "'scope' is required with grant_type=client_credentials.");
    const scopes = parseScopes(requested);
    const unknown = scopes.filter((scope) => !(scope in PINTEREST_SCOPE_DESCRIPTIONS));
    if (unknown.length > 0) return invalid(c, `'scope' has unknown scopes: ${unknown.join(",")}.`);
    const owner = accountFor(pinterest, appOwnerUsername(client.id));
    const issued = issueTokens(pinterest, owner, client.id, scopes);
    // No refresh token in this flow: the app asks for a new client token when this one lapses.
    issued.refresh.spent = true;
    return c.json({
      access_token: issued.access.token,
      token_type: "bearer",
      expires_in: Math.round((issued.access.expiresAt - Date.now()) / 1000),
      scope: scopes.join(","),
      response_type: "client_credentials",
    });
  }
  if (!grantType) return invalid(c, "'grant_type' is required.");
  return invalid(c, `'grant_type' must be authorization_code, refresh_token or client_credentials, not "${grantType}".`);
}

/** The username of the account behind an app's client tokens: "app_" and the app id (digits), cut to Pinterest's 30 characters. */
export function appOwnerUsername(clientId: string) {
  return `app_${clientId.replace(/[^A-Za-z0-9_]/g, "").slice(0, 26) || "owner"}`.toLowerCase();
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  const id = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  return id && secret ? { id, secret } : null;
}

function approve(c: Context, pinterest: PinterestState, params: Record<string, string>, username: string) {
  const account = accountFor(pinterest, username);
  const code = randomBytes(20).toString("hex");
  pinterest.codes.set(code, {
    code,
    username: account.username,
    clientId: params.client_id,
    redirectUri: params.redirect_uri,
    scopes: parseScopes(params.scope),
    expiresAt: Date.now() + CODE_LIFETIME_MS,
    used: false,
  });
  pinterest.recentUsernames = [account.username, ...pinterest.recentUsernames.filter((name) => name !== account.username)].slice(0, 5);
  return redirectBack(c, params.redirect_uri, { code, state: params.state });
}

/** Why Pinterest would refuse this authorization request, or null. */
function authorizeProblem(params: Record<string, string>): string | null {
  if (!params.client_id) return "Missing required parameter: client_id";
  if (!params.redirect_uri) return "Missing required parameter: redirect_uri";
  if (!isHttpUrl(params.redirect_uri)) return `redirect_uri must be an absolute http(s) URL: ${params.redirect_uri}`;
  if (params.redirect_uri.includes("#")) return `redirect_uri must not have a fragment: ${params.redirect_uri}`;
  if (!params.response_type) return "Missing required parameter: response_type";
  if (params.response_type !== "code") return `Unsupported response_type: ${params.response_type} (Pinterest answers response_type=code)`;
  if (!params.scope) return "Missing required parameter: scope";
  const unknown = parseScopes(params.scope).filter((scope) => !(scope in PINTEREST_SCOPE_DESCRIPTIONS));
  if (unknown.length > 0) return `Invalid scope: ${unknown.join(", ")}`;
  return null;
}

// ---- pages ------------------------------------------------------------------------------------

function errorPage(c: Context, problem: string) {
  return authorizeErrorPage(c, PAGE_CSS, "Pinterest", problem);
}

function consentPage(
  c: Context,
  pinterest: PinterestState,
  base: string,
  params: Record<string, string>,
  values: { username?: string; error?: string },
  status: 200 | 400 = 200,
) {
  const action = `${base}/oauth/approve`;
  const carried = Object.fromEntries(Object.entries(params).filter(([name]) => name !== "auto_approve" && name !== "username" && name !== "action"));
  const scopes = parseScopes(params.scope);
  const username = values.username ?? params.username ?? pinterest.recentUsernames[0] ?? DEFAULT_USERNAME;
  const destination = new URL(params.redirect_uri).origin;
  const recent = pinterest.recentUsernames.filter((name) => name !== normalizeUsername(username));
  c.header("cache-control", "no-store");
  return c.html(
    page(
      "Give access to your Pinterest account",
      `<h1>Give access to your Pinterest account</h1>
      <p class="note"><strong>Local sandbox:</strong> this page stands in for Pinterest's. No Pinterest account is used;
      type any username and the sandbox creates that account (with a few boards) on first use.</p>
      <p><strong>${escapeHtml(destination)}</strong> (app <code>${escapeHtml(params.client_id)}</code>) would like to:</p>
      <ul class="scopes">
        ${scopes.map((scope) => `<li>${escapeHtml(PINTEREST_SCOPE_DESCRIPTIONS[scope])} <code>${escapeHtml(scope)}</code></li>`).join("\n        ")}
      </ul>
      ${consentForm({
        action,
        carried,
        field: {
          name: "username",
          label: "Pinterest username",
          value: username,
          pattern: "[A-Za-z0-9_]{3,30}",
          autocomplete: "username",
          hint: recent.length ? `<p class="hint">Used before in this sandbox: ${recent.map((name) => `<code>${escapeHtml(name)}</code>`).join(", ")}</p>` : "",
        },
        allowLabel: "Give access",
        error: values.error,
      })}`,
    ),
    status,
  );
}

const PAGE_CSS = consentPageCss({
  page: "#efefef",
  text: "#111",
  accent: "#e60023",
  soft: "#efefef",
  border: "#cdcdcd",
  radius: "1.5rem",
  focus: "#0074e8",
  error: "#b60000",
});

function page(title: string, body: string) {
  return standalonePage(title, PAGE_CSS, body);
}
