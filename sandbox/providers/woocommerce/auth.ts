import { Hono, type Context } from "hono";
import { escapeHtml, standalonePage } from "../../html.ts";
import type { SandboxState } from "../../state.ts";
import { randHash, STORE_SLUG, storeName, wooState, type WooCallback, type WooKey, type WooState } from "./state.ts";

/**
 * WooCommerce's app authorisation endpoint (class WC_Auth, /wc-auth/v1/):
 *
 * - `GET /:store/wc-auth/v1/authorize?app_name&scope&user_id&return_url&callback_url`: the
 *   grant page ("<app> would like to connect to your store", what the scope allows, Approve
 *   and Deny). WooCommerce first asks the shop owner to log in; the stand-in's owner is
 *   always logged in.
 * - `GET /:store/wc-auth/v1/access_granted?...&wc_auth_nonce=`: the Approve link. Creates a
 *   key, POSTs `{key_id, user_id, consumer_key, consumer_secret, key_permissions}` as JSON to
 *   callback_url and, when the app answers 200, redirects the browser to
 *   `return_url?success=1&user_id=...`; any other answer deletes the key and shows
 *   WooCommerce's error page (401). Deny goes to `return_url?success=0&user_id=...`.
 *
 * Like WooCommerce, every parameter is required, scope is read, write or read_write and
 * callback_url must be https; the stand-in also accepts http for hosts that only exist on
 * this machine or in tests (127.0.0.1, localhost, *.localhost, *.test), where the local app runs.
 * With `holdCallbacks` (see control.ts) approving does not POST: the delivery is kept for a
 * test to make (the workers tests' app has no address the sandbox can reach).
 */

const PARAMS = ["app_name", "user_id", "return_url", "callback_url", "scope"] as const;
const SCOPES = { read: "Read", write: "Write", read_write: "Read/Write" } as const;
const PERMISSIONS: Record<keyof typeof SCOPES, string[]> = {
  read: ["View coupons", "View customers", "View orders and sales reports", "View products"],
  write: ["Create webhooks", "Create coupons", "Create customers", "Create orders", "Create products"],
  read_write: [
    "Create webhooks",
    "View and manage coupons",
    "View and manage customers",
    "View and manage orders and sales reports",
    "View and manage products",
  ],
};
const NONCE_LIFETIME_MS = 60 * 60_000;

type AuthParams = Record<(typeof PARAMS)[number], string>;

/** WooCommerce's get_formatted_url: a URL without a scheme gets https://. */
const formatted = (url: string) => (url.includes("://") ? url : `https://${url}`);

function localHost(url: URL) {
  const host = url.hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host.endsWith(".test") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
}

/** WC_Auth::make_validation: the parameters, or why the request is refused. */
function validate(query: Record<string, string>): AuthParams | string {
  for (const name of PARAMS) if (!query[name]) return `Missing parameter ${name}`;
  if (!(query.scope! in SCOPES)) return `Invalid scope ${query.scope}`;
  for (const name of ["return_url", "callback_url"] as const) {
    try {
      const url = new URL(formatted(query[name]!));
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not web");
    } catch {
      return `The ${formatted(query[name]!)} is not a valid URL`;
    }
  }
  const callback = new URL(formatted(query.callback_url!));
  if (callback.protocol !== "https:" && !localHost(callback)) return "The callback_url needs to be over SSL";
  return Object.fromEntries(PARAMS.map((name) => [name, query[name]!])) as AuthParams;
}

function withQuery(url: string, values: Record<string, string>) {
  const target = new URL(formatted(url));
  for (const [name, value] of Object.entries(values)) target.searchParams.set(name, value);
  return target.toString();
}

function authQuery(params: AuthParams) {
  return new URLSearchParams(PARAMS.map((name) => [name, params[name]])).toString();
}

export function wooAuthPages(state: SandboxState) {
  const app = new Hono();

  app.get("/:store/wc-auth/v1/authorize", (c) => {
    const store = c.req.param("store");
    if (!STORE_SLUG.test(store)) return c.notFound();
    const params = validate(c.req.query());
    if (typeof params === "string") return accessDenied(c, params);
    const woo = wooState(state);
    const nonce = randHash().slice(0, 10);
    woo.nonces.set(nonce, { store, query: authQuery(params), expiresAt: Date.now() + NONCE_LIFETIME_MS });
    const base = new URL(c.req.url);
    const granted = `${base.origin}${base.pathname.replace(/\/authorize$/, "/access_granted")}?${authQuery(params)}&wc_auth_nonce=${nonce}`;
    const deny = withQuery(params.return_url, { success: "0", user_id: params.user_id });
    const scope = params.scope as keyof typeof SCOPES;
    c.header("cache-control", "no-store");
    return c.html(
      page(
        `${storeName(woo, store)} › Connect`,
        `<h1>${escapeHtml(params.app_name)} would like to connect to your store</h1>
      <p class="note"><strong>Local sandbox:</strong> this page stands in for WooCommerce's on the store
      <strong>${escapeHtml(storeName(woo, store))}</strong>. Its owner is always logged in here.</p>
      <p>This will give "<strong>${escapeHtml(params.app_name)}</strong>" <strong>${SCOPES[scope]}</strong> access which will allow it to:</p>
      <ul class="permissions">
        ${PERMISSIONS[scope].map((permission) => `<li>${escapeHtml(permission)}</li>`).join("\n        ")}
      </ul>
      <p class="user">Logged in as shop owner</p>
      <p class="actions">
        <a class="button" id="approve" href="${escapeHtml(granted)}">Approve</a>
        <a class="button secondary" id="deny" href="${escapeHtml(deny)}">Deny</a>
      </p>`,
      ),
    );
  });

  app.get("/:store/wc-auth/v1/access_granted", async (c) => {
    const store = c.req.param("store");
    if (!STORE_SLUG.test(store)) return c.notFound();
    const params = validate(c.req.query());
    if (typeof params === "string") return accessDenied(c, params);
    const woo = wooState(state);
    const nonce = woo.nonces.get(c.req.query("wc_auth_nonce") ?? "");
    if (!nonce || nonce.store !== store || nonce.query !== authQuery(params) || nonce.expiresAt < Date.now())
      return accessDenied(c, "Invalid nonce verification");
    woo.nonces.delete(c.req.query("wc_auth_nonce")!);
    const key = createKey(woo, store, params);
    const callback: WooCallback = {
      id: crypto.randomUUID(),
      store,
      keyId: key.keyId,
      url: formatted(params.callback_url),
      headers: { "content-type": "application/json;charset=UTF-8", "user-agent": "WordPress/6.8; WooCommerce/9.9" },
      body: JSON.stringify({
        key_id: key.keyId,
        user_id: params.user_id,
        consumer_key: key.consumerKey,
        consumer_secret: key.consumerSecret,
        key_permissions: key.permissions,
      }),
      userId: params.user_id,
      returnUrl: withQuery(params.return_url, { success: "1", user_id: params.user_id }),
      delivery: "held",
      status: null,
      at: new Date().toISOString(),
    };
    woo.callbacks.push(callback);
    c.header("cache-control", "no-store");
    if (woo.holdCallbacks) {
      c.header("x-sandbox-callback-id", callback.id);
      return c.html(
        page(
          "Waiting for the app",
          `<h1>Waiting for ${escapeHtml(params.app_name)}</h1>
      <p class="note"><strong>Local sandbox:</strong> the keys are held for delivery (callback <code>${escapeHtml(callback.id)}</code>).
      A test delivers them to the app and tells the sandbox how the app answered.</p>`,
        ),
        202,
      );
    }
    try {
      const response = await fetch(callback.url, {
        method: "POST",
        headers: callback.headers,
        body: callback.body,
        redirect: "manual",
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer().catch(() => undefined);
      callback.status = response.status;
      callback.delivery = response.status === 200 ? "delivered" : "refused";
    } catch {
      callback.delivery = "unreachable";
    }
    if (callback.delivery !== "delivered") {
      woo.keys.delete(key.consumerKey);
      return accessDenied(c, "An error occurred in the request and at the time were unable to send the consumer data");
    }
    return c.redirect(callback.returnUrl, 302);
  });

  return app;
}

/**
 * A test tells the stand-in how the app answered a held delivery: 200 keeps the key and answers
 * where WooCommerce sends the browser; anything else deletes the key, as WooCommerce does.
 */
export function settleCallback(woo: WooState, callback: WooCallback, status: number): { returnUrl: string } | { error: string } {
  callback.status = status;
  if (status === 200) {
    callback.delivery = "delivered";
    return { returnUrl: callback.returnUrl };
  }
  callback.delivery = "refused";
  for (const [consumerKey, key] of woo.keys) if (key.keyId === callback.keyId) woo.keys.delete(consumerKey);
  return { error: "Error: An error occurred in the request and at the time were unable to send the consumer data." };
}

function createKey(woo: WooState, store: string, params: AuthParams): WooKey {
  const key: WooKey = {
    keyId: woo.nextKeyId++,
    store,
    consumerKey: `ck_${randHash()}`,
    consumerSecret: `cs_${randHash()}`,
    permissions: params.scope as WooKey["permissions"],
    description: `${params.app_name.slice(0, 170)} - API (${new Date().toISOString().slice(0, 19).replace("T", " ")})`,
    createdAt: new Date().toISOString(),
  };
  woo.keys.set(key.consumerKey, key);
  return key;
}

/** WooCommerce answers a refused request with wp_die: "Error: ….", titled Access denied, status 401. */
function accessDenied(c: Context, message: string) {
  c.header("cache-control", "no-store");
  return c.html(page("Access denied", `<h1>Access denied</h1>\n      <p class="error" role="alert">Error: ${escapeHtml(message)}.</p>`), 401);
}

const PAGE_CSS = `
      body { font-family: system-ui, sans-serif; background: #f0f0f1; color: #1d2327; margin: 0; }
      main { max-width: 32rem; margin: 2rem auto; background: #fff; border: 1px solid #c3c4c7; padding: 1.5rem 2rem; }
      h1 { font-size: 1.3rem; margin-top: 0; }
      .permissions li { margin: 0.3rem 0; }
      .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
      .button { font-weight: 600; padding: 0.55rem 1.1rem; border-radius: 3px; background: #7f54b3; color: #fff; text-decoration: none; }
      .button.secondary { background: #f6f7f7; color: #2c3338; border: 1px solid #2c3338; }
      .button:focus-visible { outline: 3px solid #2271b1; outline-offset: 2px; }
      .note { background: #fcf9e8; border-left: 4px solid #dba617; padding: 0.6rem 0.8rem; }
      .user { color: #50575e; font-size: 0.9rem; }
      .error { color: #b32d2e; }
`;

function page(title: string, body: string) {
  return standalonePage(title, PAGE_CSS, body);
}
