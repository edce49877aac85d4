import { createRequestHandler } from "@remix-run/cloudflare";
import { Hono } from "hono";
import * as remixBuild from "virtual:remix-build";
import { getLoadContext } from "./load-context.ts";
import { account } from "./api/accounts/account.ts";
import { analyticsApi } from "./api/pinterest/analytics.ts";
import { approvalsApi } from "./api/pinterest/approvals.ts";
import { adminRedeemCodesApi } from "./api/admin/admin-redeem-codes.ts";
import { adminTemplatesApi } from "./api/admin/admin-templates.ts";
import { adminApi } from "./api/admin/admin.ts";
import { affiliateApi, affiliateRedirects } from "./api/growth/affiliate.ts";
import { ai, aiHighMem } from "./api/content/ai.ts";
import { contentApi } from "./api/content/content.ts";
import { contactApi } from "./api/accounts/contact.ts";
import { emailWebhookApi } from "./api/accounts/email-webhook.ts";
import { credits } from "./api/billing/credits.ts";
import { designSettingsApi } from "./api/content/design-settings.ts";
import { devControls } from "./api/core/dev-controls.ts";
import { draftsApi } from "./api/content/drafts.ts";
import { guardRequestBody } from "./api/core/body-guard.ts";
import { apiNotFound, apiOnError } from "./api/core/errors.ts";
import { catalogsApi } from "./api/pinterest/catalogs.ts";
import { health } from "./api/core/health.ts";
import { imageProxy } from "./api/content/image-proxy.ts";
import { keywordsApi } from "./api/growth/keywords.ts";
import { trendAlertsApi } from "./api/growth/trend-alerts.ts";
import { paypalApi } from "./api/billing/paypal.ts";
import { pinterestApi, pinterestVideo } from "./api/pinterest/pinterest.ts";
import { plansApi } from "./api/billing/plans.ts";
import { pricingParityApi } from "./api/billing/pricing-parity.ts";
import { publicPinsApi } from "./api/pinterest/public-pins.ts";
import { referralsApi } from "./api/growth/referrals.ts";
import { rssApi } from "./api/pinterest/rss.ts";
import { tracking } from "./api/growth/tracking.ts";
import { videoApi as videoPins } from "./api/content/video.ts";
import { mediaApi } from "./api/content/media.ts";
import { rendering } from "./api/content/rendering.ts";
import { scraping } from "./api/content/scraping.ts";
import { shopifyBillingApi } from "./api/billing/shopify-billing.ts";
import { schedulingApi, schedulingHighMem, schedulingVideo } from "./api/pinterest/scheduling.ts";
import { stripeApi } from "./api/billing/stripe.ts";
import { templatesApi } from "./api/content/templates.ts";
import type { AppBindings } from "./api/core/hono.ts";
import { shopsApi } from "./api/shops/shops.ts";
import { showcaseRoutes } from "./api/content/showcase.ts";
import { wooCommerceApi } from "./api/shops/woocommerce.ts";
import { wordpressApi } from "./api/shops/wordpress.ts";
import { etsyApi } from "./api/shops/etsy.ts";
import { shopifyShopApi } from "./api/shops/shopify-shop.ts";
import { MEDIA_PATH_PREFIX, serveMedia } from "./media/store.ts";
import { mayServeMedia } from "./services/content/pin-renders.ts";
import * as backupGenerator from "./services/content/backup-generator.ts";
import { FEED_PATH_PREFIX, feedFileObject } from "./services/pinterest/catalogs.ts";
import { cachedPage, setPageCacheBuild } from "./http/page-cache.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { APP_VERSION } from "./version.ts";
import { cameFromOurSite, NOT_FROM_OUR_SITE } from "./auth/middleware.ts";

/** /api: the product's API (spec section 7), one router per domain. */
const api = new Hono<AppBindings>();
api.route("/health", health);
// Before account: /user/credits must not be taken for a /user/{handle}.
api.route("/", credits);
api.route("/", account);
api.route("/", publicPinsApi);
api.route("/", templatesApi);
api.route("/", stripeApi);
api.route("/", paypalApi);
api.route("/", shopifyBillingApi);
api.route("/", plansApi);
api.route("/", pinterestApi);
api.route("/", pricingParityApi);
api.route("/", tracking);
api.route("/", imageProxy);
api.route("/", designSettingsApi);
api.route("/", mediaApi);
api.route("/", draftsApi);
api.route("/", schedulingApi);
api.route("/", ai);
api.route("/", shopsApi);
api.route("/", wooCommerceApi);
api.route("/", etsyApi);
api.route("/", shopifyShopApi);
api.route("/", catalogsApi);
api.route("/", affiliateApi);
api.route("/", referralsApi);
api.route("/", contentApi);
api.route("/", adminRedeemCodesApi);
api.route("/", adminTemplatesApi);
api.route("/", adminApi);
api.route("/", contactApi);
api.route("/", emailWebhookApi);
api.route("/", keywordsApi);
api.route("/", trendAlertsApi);
api.route("/", rssApi);
api.route("/", wordpressApi);
api.route("/", approvalsApi);
api.route("/", analyticsApi);
// 404 unless DEV_CONTROLS is "on" (never in production): controls for local runs, tests and benchmarks.
api.route("/", devControls);

/** /highMemLimitApi: rendering and bulk calls that need the most memory. */
const highMemLimitApi = new Hono<AppBindings>();
highMemLimitApi.route("/", rendering);
highMemLimitApi.route("/", scraping);
highMemLimitApi.route("/", schedulingHighMem);
highMemLimitApi.route("/", aiHighMem);

/** /videoApi: video creation and upload calls. */
const videoApi = new Hono<AppBindings>();
videoApi.route("/", schedulingVideo);
videoApi.route("/", pinterestVideo);
videoApi.route("/", videoPins);

const handleRemixRequest = createRequestHandler(remixBuild, "production");
// Cached pages are kept per build: a deployment never serves the previous build's pages.
setPageCacheBuild(remixBuild.assets.version);

/** The whole worker's HTTP side: API routers, media, then Remix for every page. */
export const app = new Hono<AppBindings>();

app.use(securityHeaders);
app.use(async (c, next) => {
  await next();
  c.res.headers.set("x-app-version", APP_VERSION);
});

app.onError(apiOnError);
for (const [prefix, router] of [
  ["/api", api],
  ["/highMemLimitApi", highMemLimitApi],
  ["/videoApi", videoApi],
] as const) {
  // Bodies are bounded in size and depth before any route reads them.
  app.use(`${prefix}/*`, guardRequestBody);
  app.route(prefix, router);
  // Unknown API paths answer JSON, never a page.
  app.all(`${prefix}/*`, apiNotFound);
}

app.on(["GET", "HEAD"], `${MEDIA_PATH_PREFIX}*`, async (c) => {
  let key: string;
  try {
    key = decodeURIComponent(c.req.path.slice(MEDIA_PATH_PREFIX.length));
  } catch {
    return new Response("Not found", { status: 404 });
  }
  // A pin rendered for scheduling is not served before the schedule paid its credit.
  if (!(await mayServeMedia(c.env, key))) return new Response("Not found", { status: 404 });
  return serveMedia(c.env, key, c.req.raw);
});

// A catalog's product feed file, for Pinterest to download (decision 043): public, named by an unguessable token.
app.get(`${FEED_PATH_PREFIX}:file`, async (c) => {
  const object = await feedFileObject(c.env, c.req.param("file"));
  if (!object) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(object.body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
      "last-modified": object.uploaded.toUTCString(),
      etag: object.httpEtag,
      "x-robots-tag": "noindex",
    },
  });
});

// /spm, /earn, /influencer: redirects home with a pgref, before any page (and the 404 page).
app.route("/", affiliateRedirects);

// The home page's example pins and Open Graph picture, rendered by the pin engine.
app.route("/", showcaseRoutes);

// Everything else is a page: server-rendered by Remix at the edge, the public ones kept in the edge cache (decision 042).
app.all("*", (c) => {
  // A page's form (the basic generator's, decision 055) posted from another site: refused plainly, not the 500 Remix answers to it.
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.header("origin") !== undefined && !cameFromOurSite(c)) return c.text(NOT_FROM_OUR_SITE, 403);
  return cachedPage(c, () =>
    handleRemixRequest(
      c.req.raw,
      getLoadContext({
        request: c.req.raw,
        context: { cloudflare: { env: c.env, ctx: c.executionCtx }, cspNonce: c.var.cspNonce, services: { backupGenerator } },
      }),
    ),
  );
});
