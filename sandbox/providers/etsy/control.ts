import { Hono, type Context } from "hono";
import { jsonInput } from "../../control-body.ts";
import { SANDBOX_ETSY_KEYSTRING } from "../../provider-vars.ts";
import type { SandboxState } from "../../state.ts";
import { accountFor, ETSY_SCOPE_DESCRIPTIONS, etsyState, issueTokens, SHOP_NAME, type EtsyAccount, type EtsyState } from "./state.ts";

/**
 * Sandbox-only controls for the Etsy stand-in, mounted at /__sandbox/etsy. The
 * generic ones apply too: `/__sandbox/requests?service=etsy` (recorded calls,
 * secrets masked) and `/__sandbox/faults` with service "etsy" (a status such as
 * 401, 429 with a Retry-After header, 503, or a delay, for a path such as
 * /v3/application/shops/{shop_id}/listings/active). Forgotten by `POST /__sandbox/reset`.
 */
export function etsyControl(state: SandboxState) {
  const control = new Hono();

  /** The shops the stand-in knows, their budgets and live tokens. */
  control.get("/accounts", (c) => {
    const etsy = etsyState(state);
    const name = c.req.query("shop_name")?.toLowerCase();
    return c.json(
      [...etsy.accounts.values()].filter((account) => !name || account.shopName.toLowerCase() === name).map((account) => accountView(etsy, account)),
    );
  });

  /** {shop_name, has_shop?}: a member (with or without a shop). */
  control.post("/accounts", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const account = accountOf(c, etsyState(state), input);
    if (account instanceof Response) return account;
    if (input.has_shop !== undefined && typeof input.has_shop !== "boolean") return c.json({ error: "has_shop must be a boolean" }, 400);
    account.hasShop = input.has_shop ?? true;
    return c.json(accountView(etsyState(state), account), 201);
  });

  /** {shop_name, scope?}: tokens for a shop without the consent page (the token endpoint's answer). */
  control.post("/tokens", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const account = accountOf(c, etsyState(state), input);
    if (account instanceof Response) return account;
    const scopes = typeof input.scope === "string" ? input.scope.split(" ").filter(Boolean) : ["shops_r", "listings_r"];
    const unknown = scopes.filter((scope) => !(scope in ETSY_SCOPE_DESCRIPTIONS));
    if (unknown.length > 0) return c.json({ error: `unknown scopes: ${unknown.join(", ")}` }, 400);
    return c.json(issueTokens(etsyState(state), account, SANDBOX_ETSY_KEYSTRING, scopes), 201);
  });

  /** {shop_name}: the shop's access tokens expire now (its refresh tokens still work). */
  control.post("/expire-token", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const account = accountOf(c, etsyState(state), input);
    if (account instanceof Response) return account;
    const tokens = tokensOf(etsyState(state), account).filter((token) => token.kind === "access");
    for (const token of tokens) token.expiresAt = Date.now() - 1;
    return c.json({ shop_name: account.shopName, tokens: tokens.length });
  });

  /** {shop_name}: the member removed the app on Etsy: every access and refresh token stops working. */
  control.post("/revoke", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const account = accountOf(c, etsyState(state), input);
    if (account instanceof Response) return account;
    const tokens = tokensOf(etsyState(state), account);
    for (const token of tokens) token.spent = true;
    return c.json({ shop_name: account.shopName, tokens: tokens.length });
  });

  /** {perSecond, perDay, shop_name?}: the budget of one shop's tokens, or the default of every one. */
  control.post("/rate-limit", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const count = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;
    if (!count(input.perSecond) || !count(input.perDay)) return c.json({ error: "perSecond and perDay must be integers, 0 or more" }, 400);
    const limit = { perSecond: input.perSecond as number, perDay: input.perDay as number };
    if (input.shop_name === undefined) {
      etsyState(state).rateLimit = limit;
      return c.json({ rate_limit: limit });
    }
    const account = accountOf(c, etsyState(state), input);
    if (account instanceof Response) return account;
    account.rateLimit = limit;
    account.day = [];
    account.second = { at: 0, count: 0 };
    return c.json({ shop_name: account.shopName, rate_limit: limit });
  });

  return control;
}

function tokensOf(etsy: EtsyState, account: EtsyAccount) {
  return [...etsy.tokens.values()].filter((token) => token.userId === account.userId && !token.spent);
}

function accountView(etsy: EtsyState, account: EtsyAccount) {
  return {
    user_id: account.userId,
    shop_id: account.hasShop ? account.shopId : null,
    shop_name: account.shopName,
    rate_limit: account.rateLimit ?? etsy.rateLimit,
    calls_today: account.day.length,
    /** When the last calls were counted (ms since the epoch). */
    recent_calls: account.day.slice(-50),
    refused: account.refused,
    grants: account.grants.map((grant) => ({ grant_type: grant.type, at: grant.at })),
    tokens: tokensOf(etsy, account).map((token) => ({ kind: token.kind, value: token.value, expires_at: new Date(token.expiresAt).toISOString() })),
  };
}

/** The shop named by the body's shop_name (created on first use), or a 400 answer. */
function accountOf(c: Context, etsy: EtsyState, input: Record<string, unknown>): EtsyAccount | Response {
  const name = typeof input.shop_name === "string" ? input.shop_name.trim() : "";
  if (!SHOP_NAME.test(name)) return c.json({ error: "shop_name must be 4 to 20 letters and digits" }, 400);
  return accountFor(etsy, name);
}
