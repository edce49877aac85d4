/**
 * The signing secret of the Stripe stand-in's webhook deliveries. Not a
 * secret: it only ever signs sandbox events, and the local app is given it
 * below so that it accepts them.
 */
export const SANDBOX_STRIPE_WEBHOOK_SECRET = "whsec_sandbox_pinboard_local_0123456789";

/**
 * The signing secret of the e-mail (Resend) stand-in's webhook deliveries, in Resend's form (whsec_ and the
 * base64 key). Not a secret either: the local app is given it below.
 */
export const SANDBOX_EMAIL_WEBHOOK_SECRET = "whsec_cGluYm9hcmQtc2FuZGJveC1yZXNlbmQtd2ViaG9vay1rZXk=";

/** The id of the PayPal stand-in's webhook: its deliveries verify for this id only. */
export const SANDBOX_PAYPAL_WEBHOOK_ID = "8PT597110X687430LSANDBOX";

/** The client secret the Shopify stand-in signs its webhooks with (X-Shopify-Hmac-Sha256). Not a secret either. */
export const SANDBOX_SHOPIFY_CLIENT_SECRET = "shpss_sandbox_pinboard_local_0123456789";
/** The Partner API token the Shopify stand-in accepts (its Partner API answers any other with 401). Not a secret either. */
export const SANDBOX_SHOPIFY_PARTNER_TOKEN = "prtapi_sandbox_pinboard_local_0123456789";
/** The app the Shopify stand-in's Partner organization has (the same id its charge confirmation pages carry). */
export const SANDBOX_SHOPIFY_PARTNER_APP_ID = "gid://partners/App/7654321";
/** The client id of the app the Shopify stand-in knows (its install flow refuses any other). */
export const SANDBOX_SHOPIFY_CLIENT_ID = "pinboard-local-shopify-client";

/** The Etsy stand-in's app: its keystring (the OAuth client id) and shared secret, which it expects as `keystring:secret` in x-api-key. */
export const SANDBOX_ETSY_KEYSTRING = "pinboardlocaletsykeystring";
export const SANDBOX_ETSY_SHARED_SECRET = "sandboxetsysecret01";

/**
 * Where each provider client finds its provider when running locally: the
 * sandbox, one path prefix per provider. Production values are the [vars] of
 * wrangler.toml. Used by `npm start`, the e2e tests and the workers tests.
 */
export function providerVars(urls: { appUrl: string; sandboxUrl: string }): Record<string, string> {
  return {
    APP_ENV: "development",
    DEV_CONTROLS: "on",
    APP_URL: urls.appUrl,
    EMAIL_API_URL: `${urls.sandboxUrl}/email`,
    EMAIL_WEBHOOK_SECRET: SANDBOX_EMAIL_WEBHOOK_SECRET,
    GOOGLE_CLIENT_ID: "pinboard-local.apps.googleusercontent.com",
    GOOGLE_AUTH_URL: `${urls.sandboxUrl}/google/o/oauth2/v2/auth`,
    GOOGLE_JWKS_URL: `${urls.sandboxUrl}/google/oauth2/v3/certs`,
    OPENAI_BASE_URL: `${urls.sandboxUrl}/openai/v1`,
    PINTEREST_API_URL: `${urls.sandboxUrl}/pinterest/v5`,
    PINTEREST_OAUTH_URL: `${urls.sandboxUrl}/pinterest/oauth/`,
    PINTEREST_CLIENT_ID: "1500000000000001",
    STRIPE_API_URL: `${urls.sandboxUrl}/stripe`,
    STRIPE_WEBHOOK_SECRET: SANDBOX_STRIPE_WEBHOOK_SECRET,
    PAYPAL_API_URL: `${urls.sandboxUrl}/paypal`,
    PAYPAL_CLIENT_ID: "pinboard-local-paypal-client",
    PAYPAL_WEBHOOK_ID: SANDBOX_PAYPAL_WEBHOOK_ID,
    SHOPIFY_ADMIN_URL: `${urls.sandboxUrl}/shopify/{shop}/admin/api`,
    SHOPIFY_CLIENT_SECRET: SANDBOX_SHOPIFY_CLIENT_SECRET,
    SHOPIFY_TEST_CHARGES: "true",
    SHOPIFY_PARTNER_API_URL: `${urls.sandboxUrl}/shopify/partners/4100100/api/2026-07/graphql.json`,
    SHOPIFY_PARTNER_APP_ID: SANDBOX_SHOPIFY_PARTNER_APP_ID,
    SHOPIFY_PARTNER_ACCESS_TOKEN: SANDBOX_SHOPIFY_PARTNER_TOKEN,
    ETSY_API_URL: `${urls.sandboxUrl}/etsy/v3`,
    ETSY_OAUTH_URL: `${urls.sandboxUrl}/etsy/oauth/connect`,
    ETSY_KEYSTRING: SANDBOX_ETSY_KEYSTRING,
    ETSY_SHARED_SECRET: SANDBOX_ETSY_SHARED_SECRET,
    SHOPIFY_CLIENT_ID: SANDBOX_SHOPIFY_CLIENT_ID,
    // Conversion tracking only sends in the live configuration; locally these are never reached by the app.
    META_CAPI_URL: `${urls.sandboxUrl}/meta`,
    META_PIXEL_ID: "1234567890123456",
    TIKTOK_EVENTS_URL: `${urls.sandboxUrl}/tiktok`,
    TIKTOK_PIXEL_CODE: "CLOCALPIXEL000000000",
    // The DNS stand-in resolves the names the guarded fetch looks up; the sandbox and the app itself (its
    // configured origin: the demo products' pictures are the app's) are the origins it fetches without the
    // address check (decision 076). Both are on this machine's loopback here; in production neither is needed.
    DNS_RESOLVER_URL: `${urls.sandboxUrl}/dns`,
    TRUSTED_FETCH_ORIGINS: [new URL(urls.sandboxUrl).origin, new URL(urls.appUrl).origin].join(","),
    // Through the sandbox, which forwards to the video service and records the calls.
    VIDEO_SERVICE_URL: `${urls.sandboxUrl}/video`,
  };
}
