import { Hono } from "hono";
import type { SandboxState } from "../../state.ts";
import { optionalJson } from "../../webhook-outbox.ts";
import { settleCallback, wooAuthPages } from "./auth.ts";
import { wooRestApi } from "./rest.ts";
import { STORE_SLUG, wooState } from "./state.ts";

/**
 * Stand-in for WooCommerce stores, mounted at /woocommerce: every path
 * `/woocommerce/{store}` is a WordPress site with WooCommerce (any slug of
 * lower-case letters, digits and dashes), selling the demo catalogue. Its app
 * authorisation endpoint is in ./auth.ts, its REST API in ./rest.ts.
 * Requests are recorded and faults injected by the sandbox's own controls
 * (`service: "woocommerce"`, paths such as `/demo/wp-json/wc/v3/products`).
 */
export function woocommerceProvider(state: SandboxState) {
  const app = new Hono();
  app.route("/", wooAuthPages(state));
  app.route("/", wooRestApi(state));
  return app;
}

/**
 * Controls under /__sandbox/woocommerce:
 *
 * - `GET|POST /settings {holdCallbacks?}`: while held, approving keeps the key delivery for a test
 *   (the workers tests' app cannot be reached from the sandbox).
 * - `GET /callbacks?store=&user_id=`: the deliveries of keys to apps, oldest first, with the exact
 *   request (url, headers, body) and how it went.
 * - `POST /callbacks/:id/answered {status}`: how the app answered a held delivery; 200 answers
 *   `{returnUrl}` (where WooCommerce sends the browser), anything else deletes the key.
 * - `POST /stores/:store {name?, currency?}`: a store's name and currency.
 * - `GET /keys?store=`: the keys issued (secrets masked); `DELETE /keys/:keyId`: the shop owner
 *   revokes a key (WooCommerce → Settings → Advanced → REST API).
 */
export function woocommerceControl(state: SandboxState) {
  const control = new Hono();

  const settings = () => ({ holdCallbacks: wooState(state).holdCallbacks });
  control.get("/settings", (c) => c.json(settings()));
  control.post("/settings", async (c) => {
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    if (input.holdCallbacks !== undefined && typeof input.holdCallbacks !== "boolean") return c.json({ error: "holdCallbacks must be a boolean" }, 400);
    if (input.holdCallbacks !== undefined) wooState(state).holdCallbacks = input.holdCallbacks as boolean;
    return c.json(settings());
  });

  control.get("/callbacks", (c) => {
    const { store, user_id: userId } = c.req.query();
    return c.json(wooState(state).callbacks.filter((callback) => (!store || callback.store === store) && (!userId || callback.userId === userId)));
  });
  control.post("/callbacks/:id/answered", async (c) => {
    const woo = wooState(state);
    const callback = woo.callbacks.find((candidate) => candidate.id === c.req.param("id"));
    if (!callback) return c.json({ error: `No such callback: ${c.req.param("id")}` }, 404);
    if (callback.delivery !== "held") return c.json({ error: `That callback was ${callback.delivery} already` }, 409);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    if (!Number.isInteger(input.status) || (input.status as number) < 100 || (input.status as number) > 599)
      return c.json({ error: "status must be an HTTP status" }, 400);
    return c.json(settleCallback(woo, callback, input.status as number));
  });

  control.post("/stores/:store", async (c) => {
    const store = c.req.param("store");
    if (!STORE_SLUG.test(store)) return c.json({ error: "store must be lower-case letters, digits and dashes" }, 400);
    const input = await optionalJson(c);
    if (input instanceof Response) return input;
    if (input.name !== undefined && (typeof input.name !== "string" || !input.name.trim())) return c.json({ error: "name must be text" }, 400);
    if (input.currency !== undefined && (typeof input.currency !== "string" || !/^[A-Z]{3}$/.test(input.currency)))
      return c.json({ error: "currency must be an ISO 4217 code" }, 400);
    const woo = wooState(state);
    const current = woo.stores.get(store) ?? {};
    woo.stores.set(store, {
      ...current,
      ...(input.name ? { name: input.name as string } : {}),
      ...(input.currency ? { currency: input.currency as string } : {}),
    });
    return c.json({ store, ...woo.stores.get(store) });
  });

  control.get("/keys", (c) => {
    const store = c.req.query("store");
    return c.json(
      [...wooState(state).keys.values()]
        .filter((key) => !store || key.store === store)
        .map(({ consumerSecret, consumerKey, ...key }) => ({ ...key, truncatedKey: consumerKey.slice(-7), consumerSecret: `****${consumerSecret.slice(-4)}` })),
    );
  });
  control.delete("/keys/:keyId", (c) => {
    const woo = wooState(state);
    const keyId = Number(c.req.param("keyId"));
    for (const [consumerKey, key] of woo.keys) {
      if (key.keyId === keyId) {
        woo.keys.delete(consumerKey);
        return c.json({ revoked: keyId });
      }
    }
    return c.json({ error: `No such key: ${c.req.param("keyId")}` }, 404);
  });

  return control;
}
