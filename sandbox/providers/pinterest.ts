import { Hono } from "hono";
import type { SandboxState } from "../state.ts";
import { mediaUpload, pinterestV5 } from "./pinterest/api.ts";
import { pinterestOAuthPages } from "./pinterest/oauth.ts";
import { pinterestState } from "./pinterest/state.ts";

export { pinterestControl } from "./pinterest/control.ts";

/**
 * Stand-in for Pinterest, mounted at /pinterest (docs/decisions/008-pinterest-stand-in.md):
 *
 * - `GET  /oauth/`: the authorization (consent) page; `POST /oauth/approve` is what it posts;
 * - `/v5/*`: API v5 as described by ../shared/specs/pinterest-api-v5.openapi.json for the
 *   operations the app uses (oauth/token, user_account/get, boards/list, boards/create,
 *   board_sections/list, board_sections/create, boards/list_pins, pins/create, media/create,
 *   media/get, media/list, the catalog data sources of catalogs.ts: feeds/create, feeds/get,
 *   feeds/list, feeds/ingest, feed_processing_results/list, items_issues/list), and for keyword
 *   research the client-credentials token, terms_suggested/list, terms_related/list and
 *   trending_keywords/list (pinterest/trends.ts, data in pinterest/trends-data.ts; controls under
 *   /__sandbox/pinterest/trends/: rise, today, rate-limit);
 * - `POST /media-upload/`: where a registered video is uploaded (Pinterest's is an S3 bucket);
 * - `GET  /images/:pin_id`: Pinterest's copy of a pin's picture (uploaded as base64, or fetched from its image_url
 *   when the pin was made);
 * - `GET  /avatars/:username.svg`: an account's profile image.
 */
export function pinterestProvider(state: SandboxState) {
  const app = new Hono();

  app.route("/", pinterestOAuthPages(state));
  app.route("/v5", pinterestV5(state));
  app.post("/media-upload/", (c) => mediaUpload(c, state));

  app.get("/images/:pin_id", (c) => {
    const pin = pinterestState(state).pins.find((candidate) => candidate.id === c.req.param("pin_id"));
    if (!pin?.media.data) return c.json({ code: 404, message: "Image not found." }, 404);
    c.header("content-type", pin.media.contentType ?? "application/octet-stream");
    c.header("cache-control", "public, max-age=86400");
    return c.body(new Uint8Array(pin.media.data));
  });

  app.get("/avatars/:file", (c) => {
    const match = /^([a-z0-9_]{3,30})\.svg$/.exec(c.req.param("file"));
    if (!match) return c.json({ code: 404, message: "Image not found." }, 404);
    const initial = match[1].charAt(0).toUpperCase();
    c.header("content-type", "image/svg+xml");
    c.header("cache-control", "public, max-age=86400");
    return c.body(
      `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${initial}">` +
        `<circle cx="48" cy="48" r="48" fill="#e60023"/>` +
        `<text x="48" y="62" font-family="Arial, sans-serif" font-size="40" fill="#fff" text-anchor="middle">${initial}</text></svg>`,
    );
  });

  return app;
}
