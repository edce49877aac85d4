import { Hono } from "hono";
import { productPhotoJpeg, type PhotoSize } from "../../demo-shop/photos.ts";
import { escapeHtml, standalonePage } from "../../html.ts";
import type { SandboxState } from "../../state.ts";
import { etsyApplicationApi } from "./api.ts";
import { etsyOAuthPages } from "./oauth.ts";
import { activeProducts, etsyState, imageId, listingId, listingOf, photoOf, SHOP_NAME } from "./state.ts";

export { etsyControl } from "./control.ts";

/**
 * Stand-in for Etsy, mounted at /etsy (decision 028): every shop sells the demo
 * catalogue's active products (sandbox/demo-shop) in Etsy's shapes.
 *
 * - `GET /oauth/connect`: the authorization (consent) page; `POST /v3/public/oauth/token`: the
 *   token endpoint (PKCE checked) — see ./oauth.ts;
 * - `/v3/application/*`: the Open API v3 calls the app makes — see ./api.ts;
 * - `GET /images/{shop_id}/r/il/{image_id}/il_{fullxfull|570xN|170x135|75x75}.{image_id}.jpg`: the
 *   photos (Etsy's are on i.etsystatic.com);
 * - `GET /listing/{listing_id}/{slug}` and `GET /shop/{shop_name}`: plain listing and shop pages,
 *   so that a pin's link leads somewhere locally.
 */
export function etsyProvider(state: SandboxState) {
  const app = new Hono();

  app.route("/", etsyOAuthPages(state));
  app.route("/v3/application", etsyApplicationApi(state));

  app.get("/images/:shop/r/il/:image/:file", async (c) => {
    const match = /^il_(fullxfull|570xN|170x135|75x75)\.(\d+)\.jpg$/.exec(c.req.param("file"));
    const photo = match && match[2] === c.req.param("image") ? photoOf(Number(match[2])) : undefined;
    if (!match || !photo) return c.text("Not found", 404);
    const size: PhotoSize = match[1] === "fullxfull" ? "full" : match[1] === "570xN" ? "medium" : "small";
    const jpeg = await productPhotoJpeg(photo.product, photo.n, size);
    if (!jpeg) return c.text("Not found", 404);
    c.header("content-type", "image/jpeg");
    c.header("cache-control", "public, max-age=86400");
    return c.body(jpeg as Uint8Array<ArrayBuffer>);
  });

  app.get("/listing/:id/:slug?", (c) => {
    const found = /^\d+$/.test(c.req.param("id")) ? listingOf(etsyState(state), Number(c.req.param("id"))) : undefined;
    if (found?.product.status !== "active") return c.html(standalonePage("Listing not found", PAGE_CSS, "<h1>Sorry, this item is unavailable.</h1>"), 404);
    const { account, product } = found;
    const image = imageId(account, product, 1);
    return c.html(
      standalonePage(
        product.title,
        PAGE_CSS,
        `<p><a href="../../shop/${escapeHtml(account.shopName)}">${escapeHtml(account.shopName)}</a></p>
        <h1>${escapeHtml(product.title)}</h1>
        <img src="../../images/${account.shopId}/r/il/${image}/il_570xN.${image}.jpg" alt="${escapeHtml(product.title)}" width="570" height="570">
        <p class="price">$${escapeHtml(product.price)}</p>
        <p>${escapeHtml(product.description)}</p>`,
      ),
    );
  });

  app.get("/shop/:name", (c) => {
    const name = c.req.param("name");
    const account = SHOP_NAME.test(name) ? etsyState(state).accounts.get(name.toLowerCase()) : undefined;
    if (!account?.hasShop) return c.html(standalonePage("Shop not found", PAGE_CSS, "<h1>Sorry, this shop is unavailable.</h1>"), 404);
    const items = activeProducts()
      .map(
        (product) =>
          `<li><a href="../listing/${listingId(account, product)}/${escapeHtml(product.handle)}">${escapeHtml(product.title)}</a> $${escapeHtml(product.price)}</li>`,
      )
      .join("\n");
    return c.html(standalonePage(account.shopName, PAGE_CSS, `<h1>${escapeHtml(account.shopName)}</h1><ul>${items}</ul>`));
  });

  return app;
}

const PAGE_CSS = `
      body { font-family: system-ui, sans-serif; color: #222; margin: 0; }
      main { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
      img { max-width: 100%; height: auto; }
      .price { font-size: 1.5rem; font-weight: 700; }
`;
