/**
 * Every route of the app, with an example request the campaigns mutate
 * (test/workers/core/campaign-malformed.test.ts) and, for the routes that take a
 * user's resource, which resource (campaign-cross-user.test.ts). A route the
 * app serves and this table does not know fails both campaigns: add it here
 * the day it is added to the app.
 */

export type ResourceKind =
  | "template"
  | "category"
  | "draft"
  | "designProfile"
  | "media"
  | "video"
  | "font"
  | "pinterestProfile"
  | "pinterestHandle"
  | "scheduledPin"
  | "repeatingPin"
  | "subscription"
  | "shopifyCharge"
  | "stripeSession"
  | "lifetimeSession"
  | "paypalSubscription"
  | "shopProfile"
  | "shopifyStore"
  | "referralCode"
  | "videoJob"
  | "catalog"
  | "catalogItem"
  | "trendAlert"
  | "rssFeed"
  | "approvalReviewer"
  | "pinHistoryEntry"
  | "pinHistoryArchive";

/**
 * Where a route takes a user's resource: a path parameter, a body field (dot
 * path) or a query parameter, and which of the resource's values goes there:
 * its id (the default), or another one it is known by ("name" for a design
 * profile by name, "refresh" for the refresh handle of a Pinterest profile,
 * "woocommerce" for the id of a shop profile that is a WooCommerce store,
 * "url" for a media item's address under /media/).
 */
export interface OwnedSlot {
  kind: ResourceKind;
  param?: string;
  field?: string;
  query?: string;
  by?: "id" | "name" | "refresh" | "woocommerce" | "url";
}

export interface RouteExample {
  /** Path parameters for an ordinary request. */
  params?: Record<string, string>;
  /** Query parameters for an ordinary request. */
  query?: Record<string, string>;
  /** A request body of the route's shape (JSON), or "multipart" for uploads. */
  body?: Record<string, unknown> | "multipart";
  /** Needs no sign-in (public, webhooks): the campaign also sends it signed out with every case. */
  public?: boolean;
  /** Whose effects the campaign must not trigger with the well-formed variants (it signs the user out, deletes the account). */
  sacrificial?: boolean;
  /** Calls that reach a provider or render: the campaign keeps to the cases that are refused before. */
  slow?: boolean;
  /** The user-owned resource it takes, and where: a path parameter or a body field (dot path). */
  owns?: OwnedSlot;
  /** Further user-owned resources the same request takes (the cross-user campaign tries each with the caller's own in the others). */
  alsoOwns?: OwnedSlot[];
  /**
   * Slots (path parameter, query parameter or body dot path) that look like a
   * resource id but name nothing a user owns, with the reason. Names that are
   * never a user's anywhere are in NOT_USER_OWNED instead.
   */
  notOwned?: Record<string, string>;
  /** Lists only the caller's own things (checked by reading them as the second user). */
  listsOwn?: boolean;
  /**
   * Authenticated by the caller's WordPress access key alone (`Authorization: Bearer pbwp_...`,
   * decision 054), never by a sign-in: the campaigns send the caller's key where they would send
   * its id token (and the cookie cases, which such a route refuses, as they are).
   */
  wordpressKey?: boolean;
}

const catalogItem = {
  title: "Linen napkins, set of 4",
  description: "Stonewashed linen napkins.",
  link: "https://linen.example/napkins",
  price: "24.00",
  currency: "USD",
  availability: "in stock",
  images: ["https://linen.example/a.jpg", "https://linen.example/b.jpg"],
};
const post = {
  id: "post-1",
  title: "Linen napkins",
  description: "Three folds for a dinner table.",
  url: "https://linen.example/napkins",
  allImages: ["https://linen.example/a.jpg"],
};
const template = { title: "Plain", background: "#ffffff", layers: [], categories: [] };
const pin = {
  title: "Linen napkins",
  description: "Three folds.",
  url: "https://linen.example/napkins",
  imageURL: "https://linen.example/a.jpg",
  boardId: "1234567890",
  boardName: "Table",
  pinterestProfileUsername: "someone",
  type: "Queue",
};

export const ROUTES: Record<string, RouteExample> = {
  "GET /api/health": { public: true },
  "GET /api/user/credits": { listsOwn: true },
  "POST /api/user/incrementUsedPinCredits": { body: { creditAmount: 1, category: "image", reference: "campaign-ref-0001" } },
  "POST /api/scraping/addPinHistoryAndAdjustCredits": { body: { pinDetails: { action: "downloaded", title: "x" }, numCreditsToConsume: 1, category: "image" } },
  "POST /api/signup": { public: true, body: { email: "campaign@example.test", password: "Violet-Harbour-42!", firstName: "Cam", lastName: "Paign" } },
  "POST /api/login": { public: true, body: { email: "campaign@example.test", password: "Violet-Harbour-42!" } },
  "POST /api/auth/token": {
    public: true,
    body: { grant_type: "refresh_token", refresh_token: "not-a-token" },
    notOwned: { refresh_token: "a sign-in credential: whoever holds it is signed in as its user" },
  },
  "POST /api/logout": {
    public: true,
    sacrificial: true,
    body: { refreshToken: "not-a-token" },
    notOwned: { refreshToken: "a sign-in credential: whoever holds it may end that session" },
  },
  "POST /api/signInWithGoogle": {
    public: true,
    slow: true,
    body: { idToken: "not.a.token" },
    notOwned: { idToken: "Google's signed statement of who signs in" },
  },
  "POST /api/user/forgotPassword": { public: true, body: { email: "campaign@example.test" } },
  "POST /api/user/resetPassword": {
    public: true,
    body: { token: "not-a-token", password: "Violet-Harbour-42!" },
    notOwned: { token: "an e-mailed one-time credential" },
  },
  "POST /api/user/verifyUserEmail": {
    public: true,
    body: { uid: "someone", token: "not-a-token" },
    notOwned: { uid: "checked together with the e-mailed token", token: "an e-mailed one-time credential" },
  },
  "POST /api/user/newsletterSignup": { public: true, body: { email: "campaign@example.test" } },
  "POST /api/sendEmail": { public: true, body: { feedbackText: "The scheduler is great.", userEmail: "campaign@example.test" } },
  "GET /api/keywords/research": { public: true, slow: true, query: { keyword: "christmas decor", region: "US" } },
  "POST /api/keywords/useAsAiKeywords": { body: { keywords: ["christmas decor", "christmas nails"] } },
  "POST /api/user/unsubscribe": { public: true, body: { token: "not-a-token" }, notOwned: { token: "an e-mailed credential" } },
  "POST /api/trendAlerts/unsubscribe": { public: true, query: { token: "not-a-token" }, notOwned: { token: "an e-mailed credential" } },
  "POST /api/user/unsubscribe/oneClick": { public: true, query: { token: "not-a-token" }, notOwned: { token: "an e-mailed credential" } },
  "GET /api/trendAlerts/userTrendAlerts": { listsOwn: true },
  "GET /api/trendAlerts/history": { listsOwn: true },
  "POST /api/trendAlerts/createTrendAlert": {
    body: { newTrendAlertSettings: { keywords: ["christmas decor"], regions: ["US"], interests: ["home_decor"], frequency: "weekly" } },
  },
  "POST /api/trendAlerts/updateTrendAlert": {
    body: { alertId: "a1", newTrendAlertSettings: { keywords: ["christmas nails"], regions: ["US", "GB+IE"], interests: [], frequency: "daily" } },
    owns: { kind: "trendAlert", field: "alertId" },
  },
  "POST /api/trendAlerts/pauseTrendAlert": { body: { alertId: "a1", paused: true }, owns: { kind: "trendAlert", field: "alertId" } },
  "DELETE /api/trendAlerts/deleteTrendAlert/:id": { params: { id: "a1" }, owns: { kind: "trendAlert", param: "id" } },
  "GET /api/user": { listsOwn: true },
  "POST /api/user": { body: { updates: { firstName: "Cam" } } },
  "POST /api/user/image": { body: "multipart" },
  "POST /api/user/sendEmailVerificationLink": { slow: true },
  "POST /api/user/setOnboardingChecklist": { body: { onboardingChecklist: [{ name: "connectPinterest", isChecked: true }] } },
  "POST /api/user/cookiesConsent": { body: { cookiesConsent: true } },
  "DELETE /api/user/deleteUserAccount": { sacrificial: true },
  "GET /api/user/:handle": { public: true, params: { handle: "someone" } },
  "GET /api/user/:handle/picture": { public: true, params: { handle: "someone" } },
  "GET /api/user/:handle/pins": { public: true, params: { handle: "someone" } },
  "GET /api/templates": { query: { lastTemplateId: "t1" }, listsOwn: true, owns: { kind: "template", query: "lastTemplateId" } },
  "POST /api/templates/addNewTemplate": { body: { template } },
  "POST /api/templates/updateTemplate": { body: { template: { ...template, templateId: "t1" } }, owns: { kind: "template", field: "template.templateId" } },
  "POST /api/templates/unshareTemplate": { body: { templateId: "t1" }, owns: { kind: "template", field: "templateId" } },
  "GET /api/templates/standardTemplates": {},
  "GET /api/templates/favoriteTemplates": { listsOwn: true },
  "POST /api/templates/getTemplateSet": { body: { templateSet: ["t1"] }, owns: { kind: "template", field: "templateSet.0" } },
  "GET /api/templates/sharedTemplates/getSharedTemplates": {
    query: { lastTemplateId: "t1" },
    notOwned: { lastTemplateId: "a shared template: every signed-in user may read it" },
  },
  "GET /api/templates/categories/getTemplateCategories": { listsOwn: true },
  "POST /api/templates/categories/addTemplateCategory": { body: { name: "Recipes" } },
  "DELETE /api/templates/categories/deleteTemplateCategory/:id": { params: { id: "c1" }, owns: { kind: "category", param: "id" } },
  "GET /api/templates/colorPalettes": {},
  "GET /api/userTemplates/recentlyUpdatedTemplates": { listsOwn: true },
  "POST /api/user/templates/toggleTemplateFavorite": { body: { templateId: "t1" }, owns: { kind: "template", field: "templateId" } },
  "GET /api/template/:id": { params: { id: "t1" }, owns: { kind: "template", param: "id" } },
  "DELETE /api/template/:id": { params: { id: "t1" }, owns: { kind: "template", param: "id" } },
  "POST /api/stripeSubscriptions/startStripeSubscription": { slow: true, body: { planId: "starter-monthly" } },
  "POST /api/stripeSubscriptions/activateStripeSubscription": {
    slow: true,
    body: { session_id: "cs_test_x" },
    owns: { kind: "stripeSession", field: "session_id" },
  },
  "POST /api/stripeSubscriptions/cancelStripeSubscription": {
    slow: true,
    body: { subscriptionID: "sub_x", cancelReason: "Too expensive" },
    owns: { kind: "subscription", field: "subscriptionID" },
  },
  "POST /api/stripeSubscriptions/reactivateStripeSubscription": {
    slow: true,
    body: { subscriptionID: "sub_x" },
    owns: { kind: "subscription", field: "subscriptionID" },
  },
  "POST /api/stripeSubscriptions/reviseStripeSubscription": {
    slow: true,
    body: { subscriptionID: "sub_x", newStripePriceID: "price_x", newPlanId: "pro-monthly" },
    owns: { kind: "subscription", field: "subscriptionID" },
  },
  "POST /api/stripeSubscriptions/startStripeOnceOffPayment": { slow: true, body: { stripePriceID: "price_x", planId: "lifetime", returnUrl: "/lifetime" } },
  "POST /api/stripe/webhook": {
    public: true,
    body: { id: "evt_x", type: "invoice.paid" },
    notOwned: { id: "Stripe's event id: signed by Stripe, and what it names is read back from Stripe" },
  },
  "POST /api/subscriptions/activateUserSubscription": {
    slow: true,
    body: { subscriptionID: "I-ABC123", planId: "starter-monthly" },
    owns: { kind: "paypalSubscription", field: "subscriptionID" },
  },
  "POST /api/subscriptions/cancelSubscription": {
    slow: true,
    body: { subscriptionID: "I-ABC123", cancelReason: "x" },
    owns: { kind: "paypalSubscription", field: "subscriptionID" },
  },
  "POST /api/subscriptions/suspendSubscription": {
    slow: true,
    body: { subscriptionID: "I-ABC123" },
    owns: { kind: "paypalSubscription", field: "subscriptionID" },
  },
  "POST /api/subscriptions/reactivateSubscription": {
    slow: true,
    body: { subscriptionID: "I-ABC123" },
    owns: { kind: "paypalSubscription", field: "subscriptionID" },
  },
  "POST /api/subscriptions/revise": {
    slow: true,
    body: { subscriptionID: "I-ABC123", newPlanPayPalID: "P-X", newPlanName: "Pro", newPlanId: "pro-monthly" },
    owns: { kind: "paypalSubscription", field: "subscriptionID" },
  },
  "POST /api/subscriptions/startPayPalSubscription": { slow: true, body: { planId: "starter-monthly" } },
  "POST /api/paypal/webhook": {
    public: true,
    body: { id: "WH-x", event_type: "BILLING.SUBSCRIPTION.ACTIVATED" },
    notOwned: { id: "PayPal's event id: signed by PayPal, and what it names is read back from PayPal" },
  },
  "POST /api/shopifySubscriptions/startSubscription": {
    slow: true,
    body: { planId: "starter-monthly", shopID: "shop1" },
    owns: { kind: "shopifyStore", field: "shopID" },
  },
  "POST /api/shopifySubscriptions/activateShopifySubscription": { slow: true, body: { chargeId: "123" }, owns: { kind: "shopifyCharge", field: "chargeId" } },
  "POST /api/shopifySubscriptions/cancelShopifySubscription": {
    slow: true,
    body: { subscriptionID: "123", cancelReason: "x" },
    owns: { kind: "shopifyCharge", field: "subscriptionID" },
  },
  "POST /api/shopify/webhook": { public: true, body: { app_subscription: {} } },
  "POST /api/email/webhook": {
    public: true,
    body: { type: "email.bounced", created_at: "2026-12-03T12:00:00.000Z", data: { email_id: "x", to: ["someone@example.test"] } },
    notOwned: { "data.email_id": "Resend's id of an e-mail we sent: the delivery is signed by Resend" },
  },
  "GET /api/subscriptions/getPlans": { public: true },
  "GET /api/subscriptions/getLifetimePlans": { public: true },
  "GET /api/subscriptions/getPlan/:id": { public: true, params: { id: "starter-monthly" }, notOwned: { id: "a plan of the catalogue" } },
  "GET /api/subscriptions/current": { listsOwn: true },
  "POST /api/subscriptions/activateLifetimePurchase": {
    slow: true,
    body: { session_id: "cs_x", planId: "lifetime" },
    owns: { kind: "lifetimeSession", field: "session_id" },
  },
  "POST /api/subscriptions/redeemPurchaseCode": { body: { redemptionCode: "NOT-A-CODE" } },
  // What a plan change would do, before checkout (decision 082): about the caller's own plan only.
  "GET /api/subscriptions/planChangePreview": {
    query: { planId: "lifetime", timeZone: "Europe/Paris" },
    notOwned: { planId: "a plan of the catalogue", redemptionCode: "a redeem code: whoever holds it may redeem it" },
  },
  // Admin console: redeem codes (issue 20, decision 053); the campaigns' users are not admins.
  "POST /api/admin/redeemCodes": { body: { planId: "starter-monthly", count: 1, months: 1, expiresAt: 4102444800000, note: "Campaign" } },
  "GET /api/admin/redeemCodeBatches": {},
  "GET /api/admin/redeemCodeBatches/:batchId": { params: { batchId: "campaign-batch" }, notOwned: { batchId: "a batch of redeem codes: admins only" } },
  "GET /api/admin/redeemCodeBatches/:batchId/csv": {
    params: { batchId: "campaign-batch" },
    query: { timeZone: "Europe/Paris" },
    notOwned: { batchId: "a batch of redeem codes: admins only" },
  },
  "POST /api/admin/redeemCodeBatches/:batchId/disable": {
    params: { batchId: "campaign-batch" },
    notOwned: { batchId: "a batch of redeem codes: admins only" },
  },
  "POST /api/admin/redeemCodes/:code/disable": { params: { code: "ABCD-EFGH-JKLM-NPQR" }, notOwned: { code: "a redeem code: admins only" } },
  // Admin console: standard templates and categories (issue 20, decision 053).
  "GET /api/admin/standardTemplates": {},
  "POST /api/admin/standardTemplates": { body: { template } },
  "POST /api/admin/standardTemplates/reorder": { body: { category: "Food", templateIds: ["std-full-bleed-banner-01"] } },
  "POST /api/admin/standardTemplates/:templateId/publish": {
    params: { templateId: "std-full-bleed-banner-01" },
    body: { published: true },
    notOwned: { templateId: "a standard template: admins only" },
  },
  "POST /api/admin/templateCategories": { body: { name: "Campaign" } },
  "POST /api/admin/templateCategories/reorder": { body: { categoryIds: ["std-cat-food"] } },
  "GET /api/referrals/getReferralCode": { listsOwn: true },
  "GET /api/referrals/getReferralProfile/:code": {
    public: true,
    params: { code: "ZZZZZZZZ" },
    notOwned: { code: "a referral code is public: it is in every invite link, and the profile shows only a first name and a count" },
  },
  "POST /api/referrals/sendReferralInvite": {
    slow: true,
    body: { email: "campaign-friend@example.test", referralCode: "ZZZZZZZZ" },
    owns: { kind: "referralCode", field: "referralCode" },
  },
  "POST /api/referrals/recordReferral": { body: { referralCode: "ZZZZZZZZ" } },
  "POST /api/pinterestAPI/recordPinterestStateCheck": { body: { stateCheck: "campaign-state-0123456789", redirectUrl: "/scheduling" } },
  "GET /api/pinterestAPI/oauthCallback": { public: true, query: { state: "x", code: "y" } },
  "POST /api/pinterestAPI/activatePinterestProfile": { body: { username: "someone" }, owns: { kind: "pinterestProfile", field: "username" } },
  "POST /api/pinterestAPI/removeAuthorizedPinterestProfile": { body: { username: "someone" }, owns: { kind: "pinterestProfile", field: "username" } },
  "GET /api/pinterestAPI/failingPinterestProfiles": { listsOwn: true },
  "POST /api/pinterestAPI/refreshPinterestAccessToken": {
    body: { refresh_token: "x" },
    owns: { kind: "pinterestHandle", field: "refresh_token", by: "refresh" },
  },
  "POST /api/pinterestAPI/getAllUserPinterestBoards": { body: { access_token: "x" }, owns: { kind: "pinterestHandle", field: "access_token" } },
  "POST /api/pinterestAPI/getBoardSections": { body: { access_token: "x", boardId: "1" }, owns: { kind: "pinterestHandle", field: "access_token" } },
  "POST /api/pinterestAPI/createPinterestBoard": { body: { access_token: "x", boardName: "New" }, owns: { kind: "pinterestHandle", field: "access_token" } },
  "GET /api/pricingParity/:countryCode": { public: true, params: { countryCode: "IN" } },
  "GET /api/pricingParity": { public: true },
  "POST /api/facebook/addToCart": { body: { value: 16.99 } },
  "POST /api/facebook/subscribe": { body: { value: 16.99 } },
  "POST /api/facebook/completeRegistration": { body: {} },
  "POST /api/tiktok/addToCart": { body: { value: 16.99 } },
  "POST /api/tiktok/subscribe": { body: { value: 16.99 } },
  "POST /api/tiktok/signup": { body: {} },
  "GET /api/scraping/imageProxy": { slow: true, query: { url: "https://linen.example/a.jpg", width: "600" } },
  "GET /api/user/getDesignSettingsProfiles/:id": { params: { id: "someone" }, listsOwn: true, owns: { kind: "designProfile", param: "id" } },
  "GET /api/user/getDesignSettingsProfile/:name": { params: { name: "Evergreen" }, owns: { kind: "designProfile", param: "name", by: "name" } },
  "POST /api/user/saveDesignSettings": { body: { designSettings: {}, profileId: "p1" }, owns: { kind: "designProfile", field: "profileId" } },
  "POST /api/user/renameDesignProfile": { body: { newProfileName: "Renamed", profileId: "p1" }, owns: { kind: "designProfile", field: "profileId" } },
  "DELETE /api/user/deleteDesignProfile/:id": { params: { id: "p1" }, owns: { kind: "designProfile", param: "id" } },
  "POST /api/user/media/uploadMedia": { body: "multipart" },
  "GET /api/user/media/getUserMedia": { query: { mediaType: "image" }, listsOwn: true, owns: { kind: "media", query: "lastMediaId" } },
  "DELETE /api/user/media/deleteMedia/:id": { params: { id: "m1" }, owns: { kind: "media", param: "id" } },
  "POST /api/user/drafts/createDraft": {
    body: { posts: [post], name: "Draft", date: "24/11/2026" },
    notOwned: { "posts.0.id": "the grid's own name for one of its posts" },
  },
  "POST /api/user/drafts/updateDraft": {
    body: { posts: [post], draftId: "d1", name: "Draft", date: "24/11/2026" },
    owns: { kind: "draft", field: "draftId" },
    notOwned: { "posts.0.id": "the grid's own name for one of its posts" },
  },
  "POST /api/user/drafts/renameDraft": { body: { draftId: "d1", newName: "Renamed" }, owns: { kind: "draft", field: "draftId" } },
  "GET /api/user/drafts/latestDraft": { listsOwn: true },
  "GET /api/user/drafts/getDraft/:id": { params: { id: "d1" }, owns: { kind: "draft", param: "id" } },
  "GET /api/user/drafts/getDrafts": { query: { lastDraftId: "d1" }, listsOwn: true, owns: { kind: "draft", query: "lastDraftId" } },
  "DELETE /api/user/drafts/deleteDraft/:id": { params: { id: "d1" }, owns: { kind: "draft", param: "id" } },
  "POST /api/scheduling/saveSchedulingSettings": {
    body: { newSettings: {}, pinterestProfileUsername: "someone" },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "POST /api/scheduling/schedulePin": { body: pin, owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" } },
  "POST /api/scheduling/updateScheduledPin": { body: { pin: { id: "pin-00000001", title: "Changed" } }, owns: { kind: "scheduledPin", field: "pin.id" } },
  "POST /api/scheduling/updateScheduledPins": {
    body: { pinterestUsername: "someone", pinsToUpdate: [{ id: "pin-00000001", title: "Changed" }] },
    owns: { kind: "pinterestProfile", field: "pinterestUsername" },
    alsoOwns: [{ kind: "scheduledPin", field: "pinsToUpdate.0.id" }],
  },
  "POST /api/scheduling/deleteScheduledPin": { body: { pinId: "pin-00000001" }, owns: { kind: "scheduledPin", field: "pinId" } },
  "POST /api/scheduling/deleteRepeatingPin": { body: { pinId: "pin-00000001" }, owns: { kind: "repeatingPin", field: "pinId" } },
  "POST /api/scheduling/updateRepeatingPin": { body: { pin: { id: "pin-00000001", intervalInDays: 3 } }, owns: { kind: "repeatingPin", field: "pin.id" } },
  "POST /api/scheduling/updateRepeatingPins": {
    body: { pinterestUsername: "someone", pinsToUpdate: [{ id: "pin-00000001", intervalInDays: 3 }] },
    owns: { kind: "pinterestProfile", field: "pinterestUsername" },
    alsoOwns: [{ kind: "repeatingPin", field: "pinsToUpdate.0.id" }],
  },
  "GET /api/scheduling/getScheduledPins/:username": {
    params: { username: "someone" },
    query: { status: "all" },
    owns: { kind: "pinterestProfile", param: "username" },
    alsoOwns: [{ kind: "scheduledPin", query: "lastPinId" }],
  },
  "GET /api/scheduling/getRepeatingPins/:username": {
    params: { username: "someone" },
    owns: { kind: "pinterestProfile", param: "username" },
    alsoOwns: [{ kind: "repeatingPin", query: "lastPinId" }],
  },
  "POST /api/user/getPinHistory": { body: { startAtDate: null }, listsOwn: true },
  "POST /api/user/pinHistory/setPublic": { body: { id: "entry-1", isPublic: true }, owns: { kind: "pinHistoryEntry", field: "id" } },
  "GET /api/user/pinHistory/archives": { listsOwn: true },
  "GET /api/user/pinHistory/archives/:month": { params: { month: "2024-01" }, owns: { kind: "pinHistoryArchive", param: "month" } },
  "GET /api/user/:handle/pins/:postId/image": {
    public: true,
    params: { handle: "someone", postId: "entry-1" },
    notOwned: { postId: "a public pin's id: only pins made public are served" },
  },
  "POST /api/openAI/rewriteText": { body: { prompt: "Linen napkins", numResults: 1 } },
  "POST /api/openAI/getAltTextFromImage": { body: { imageURL: "https://linen.example/a.jpg" } },
  "POST /api/openAI/generateImage": { slow: true, body: { prompt: "A linen napkin folded on a table" } },
  "POST /highMemLimitApi/scraping/renderTemplateImage": {
    slow: true,
    body: { post: { ...post, template }, purpose: "schedule" },
    notOwned: { "post.id": "the grid's own name for the post drawn" },
  },
  "POST /highMemLimitApi/scraping/scrapeWebsite": { slow: true, body: { url: "https://linen.example/napkins" } },
  "POST /highMemLimitApi/scraping/scrapeWebsites": { slow: true, body: { urls: ["https://linen.example/napkins"] } },
  "POST /highMemLimitApi/scraping/getSitemapPostURLs": { slow: true, body: { url: "https://linen.example/sitemap.xml" } },
  "POST /highMemLimitApi/scraping/scrapeFeed": { slow: true, body: { url: "https://linen.example/feed.xml" } },
  "GET /highMemLimitApi/scheduling/resetScheduledTimes/:username": { params: { username: "someone" }, owns: { kind: "pinterestProfile", param: "username" } },
  "POST /highMemLimitApi/scheduling/deleteAllScheduledPins": {
    body: { pinterestProfileUsername: "someone" },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "POST /highMemLimitApi/openAI/rewriteTextNoDuplicates": { body: { prompt: "Linen napkins", numResults: 2 } },
  "POST /highMemLimitApi/openAI/rewriteTextNoDuplicatesFree": { body: { prompt: "Linen napkins", numResults: 2 } },
  "POST /api/dev/credits/grant": { body: { amount: 5 } },
  "POST /api/dev/d1/execute": { public: true, body: { sql: "SELECT 1" } },
  "POST /api/dev/pinHistory/backdate": { body: { days: 30 } },
  "POST /api/dev/scheduling/rerunAlarm": {
    body: { pinterestProfileUsername: "someone" },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "POST /api/dev/analytics/sync": {
    body: { pinterestProfileUsername: "someone" },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "POST /api/dev/analytics/backdate": {
    body: { pinterestProfileUsername: "someone", days: 10 },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "POST /api/dev/analytics/fill": {
    body: { pinterestProfileUsername: "someone", pins: [] },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "GET /api/analytics/overview": { query: { username: "someone", days: "30" }, owns: { kind: "pinterestProfile", query: "username" } },
  "GET /api/analytics/pins": {
    query: { username: "someone", days: "30", sortBy: "impressions", limit: "20" },
    owns: { kind: "pinterestProfile", query: "username" },
  },
  "GET /api/analytics/bestTimes": { query: { username: "someone" }, owns: { kind: "pinterestProfile", query: "username" } },
  "GET /api/analytics/families": { listsOwn: true },
  "GET /api/analytics/export": { query: { username: "someone", days: "7" }, owns: { kind: "pinterestProfile", query: "username" } },
  "GET /api/analytics/weeklySummary": { listsOwn: true },
  "POST /api/analytics/weeklySummary": { body: { enabled: false } },
  "GET /api/shops": { listsOwn: true },
  "POST /api/etsyAPI/activateShopProfile": { body: { shopID: "shop1" }, owns: { kind: "shopProfile", field: "shopID" } },
  "POST /api/etsyAPI/deactivateAllShopProfiles": {},
  "DELETE /api/etsyAPI/removeShopProfile/:shop": { params: { shop: "shop1" }, owns: { kind: "shopProfile", param: "shop" } },
  "POST /api/woocommerce/connect": { slow: true, body: { storeUrl: "https://shop.example", redirectUrl: "/products" } },
  "POST /api/woocommerce/callback": {
    public: true,
    body: { key_id: 1, user_id: "not-a-connection", consumer_key: `ck_${"a".repeat(40)}`, consumer_secret: `cs_${"b".repeat(40)}`, key_permissions: "read" },
    notOwned: { key_id: "the store's own number for the key it made", user_id: "our signed name of one connection under way, checked by its signature" },
  },
  "GET /api/woocommerce/return": {
    public: true,
    query: { success: "1", user_id: "not-a-connection" },
    notOwned: { user_id: "our signed name of one connection under way, honoured only in the browser that started it" },
  },
  "GET /api/woocommerce/products": {
    slow: true,
    query: { shopID: "shop1", pageNumber: "1", searchInput: "mug" },
    owns: { kind: "shopProfile", query: "shopID", by: "woocommerce" },
  },
  "POST /api/etsyAPI/connectEtsyShop": { body: { redirectUrl: "/products" } },
  "GET /api/etsyAPI/oauthCallback": { public: true, query: { state: "x", code: "y" } },
  "GET /api/etsyAPI/getEtsyShopListings": {
    slow: true,
    query: { shopID: "shop1", pageNumber: "1", searchInput: "" },
    owns: { kind: "shopProfile", query: "shopID" },
  },
  "POST /api/shopifyAPI/recordShopifyStateCheck": { body: { shop: "campaign.myshopify.com", stateCheck: "campaignstate0123456789", redirectUrl: "/products" } },
  "GET /api/shopifyAPI/install": { public: true, query: { shop: "campaign.myshopify.com", hmac: "0".repeat(64), host: "aG9zdA", timestamp: "1700000000" } },
  "GET /api/shopifyAPI/oauthCallback": {
    public: true,
    query: { code: "c0de", hmac: "0".repeat(64), host: "aG9zdA", shop: "campaign.myshopify.com", state: "campaignstate0123456789", timestamp: "1700000000" },
  },
  "GET /api/shopifyAPI/anonymousShop": { public: true },
  "GET /api/shopifyAPI/getShopifyShopListings": {
    slow: true,
    query: { shopID: "shop1", searchInput: "mug", productStatus: "all" },
    owns: { kind: "shopifyStore", query: "shopID" },
  },
  "GET /api/shopifyAPI/getShopifyShopListingsFromAccessToken": {
    slow: true,
    query: { accessToken: "shpat_campaign0123456789", shopName: "campaign.myshopify.com" },
    notOwned: { accessToken: "a store's Admin API token the caller brings: a credential, checked by Shopify, used once and never kept (decision 029)" },
  },
  "POST /videoApi/scheduling/schedulePin": {
    body: { ...pin, mediaType: "video", media_id: "12345" },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  // Affiliate programme (issue 16).
  "POST /api/affiliate/incrementAffiliateClicks": { public: true, body: { affiliateID: "earnyourhappy" } },
  "POST /api/affiliate/setUserAffiliateID": { body: { affiliateID: "earnyourhappy" } },
  "POST /api/affiliate/recordAffiliateSale": { slow: true, body: { session_id: "cs_test_x" }, owns: { kind: "stripeSession", field: "session_id" } },
  "GET /api/affiliate/getAffiliateData": { listsOwn: true },
  "POST /api/affiliate/createAffiliateProfile": { body: { affiliateID: "campaign-affiliate" } },
  "POST /api/affiliate/saveWiseTag": { body: { wiseTag: "@campaign" } },
  "GET /api/admin/affiliatePayouts": {},
  "POST /api/admin/affiliatePayouts/markPaid": { body: { affiliateID: "campaign-affiliate", amountCents: 10000 } },
  // Blog posts and pages (issue 17, decision 039).
  "GET /api/blogs/getBlogPost/:slug": { public: true, params: { slug: "pinterest-seo-basics" }, notOwned: { slug: "a published post: public" } },
  "GET /api/blogs/getRelatedBlogPosts/:slug": { public: true, params: { slug: "pinterest-seo-basics" }, notOwned: { slug: "a published post: public" } },
  "GET /api/pages/getPage/:slug": { public: true, params: { slug: "about" }, notOwned: { slug: "a published page: public" } },
  "GET /api/admin/users": { query: { q: "maya", page: "1" } },
  "GET /api/admin/users/:userId": { params: { userId: "campaign-user" }, notOwned: { userId: "an account as the admin console's subject: admins only" } },
  "POST /api/admin/users/:userId/credits": {
    params: { userId: "campaign-user" },
    body: { amount: 5, reason: "Campaign", reference: "campaign-grant-1" },
    notOwned: { userId: "an account as the admin console's subject: admins only" },
  },
  "POST /api/admin/users/:userId/role": {
    params: { userId: "campaign-user" },
    body: { role: "user" },
    notOwned: { userId: "an account as the admin console's subject: admins only" },
  },
  "POST /api/admin/users/:userId/block": {
    params: { userId: "campaign-user" },
    notOwned: { userId: "an account as the admin console's subject: admins only" },
  },
  "POST /api/admin/users/:userId/unblock": {
    params: { userId: "campaign-user" },
    notOwned: { userId: "an account as the admin console's subject: admins only" },
  },
  "GET /api/admin/auditLog": { query: { targetKind: "user", targetId: "campaign-user" }, notOwned: { targetId: "an audit log filter: admins only" } },
  "GET /api/admin/content": { query: { kind: "post" } },
  "POST /api/admin/content/preview": { body: { body: "# Hello" } },
  "POST /api/admin/content": { body: { kind: "post", slug: "campaign-post", title: "Campaign", description: "A post.", body: "Text.", author: "Cam" } },
  "GET /api/admin/content/:id": { params: { id: "seed-post-pinterest-seo-basics" }, notOwned: { id: "a post or page: site content, managed by admins only" } },
  "POST /api/admin/content/:id": {
    params: { id: "seed-post-pinterest-seo-basics" },
    body: { kind: "post", slug: "campaign-post", title: "Campaign", description: "A post.", body: "Text.", author: "Cam" },
    notOwned: { id: "a post or page: site content, managed by admins only" },
  },
  "POST /api/admin/content/:id/publish": {
    params: { id: "seed-post-pinterest-seo-basics" },
    body: { published: true },
    notOwned: { id: "a post or page: site content, managed by admins only" },
  },
  "DELETE /api/admin/content/:id": {
    params: { id: "seed-post-pinterest-seo-basics" },
    notOwned: { id: "a post or page: site content, managed by admins only" },
  },
  "GET /example-pins/:templateId": {
    public: true,
    slow: true,
    params: { templateId: "std-full-bleed-banner-01" },
    notOwned: { templateId: "a standard template, the same for everyone" },
  },
  "GET /og-image.png": { public: true, slow: true },
  "GET /spm": { public: true },
  "GET /earn": { public: true },
  "GET /influencer": { public: true, query: { name: "jane" } },
  "GET /influencer/:name": { public: true, params: { name: "jane" }, notOwned: { name: "an affiliate's public link name" } },
  "POST /videoApi/pinterestAPI/uploadVideoToPinterest": {
    slow: true,
    body: { videoURL: "http://app.test/media/users/u1/media/v1.mp4", videoThumbnail: "http://app.test/media/users/u1/media/t1.jpg", access_token: "x" },
    owns: { kind: "pinterestHandle", field: "access_token" },
    alsoOwns: [
      { kind: "video", field: "videoURL", by: "url" },
      { kind: "media", field: "videoThumbnail", by: "url" },
    ],
  },
  "POST /videoApi/video/createFFMPEGVideo": {
    slow: true,
    body: { post: { ...post, templateType: "std-video-panel-02" } },
    notOwned: { "post.id": "the post's id in the caller's own generator grid: it names nothing stored" },
  },
  "GET /videoApi/video/getVideoJob/:jobId": { params: { jobId: "00000000-0000-4000-8000-000000000000" }, owns: { kind: "videoJob", param: "jobId" } },
  // Catalogs (issue 18, decision 043). Item deletions come before the catalog's own (destructive calls run in this order).
  "GET /api/catalogs/getCatalogs/:id": { params: { id: "latest" }, listsOwn: true, owns: { kind: "catalog", param: "id" } },
  "POST /api/catalogs/createCatalog": {
    body: { name: "Spring linens", pinterestUsername: "linen_lark", currency: "USD" },
    owns: { kind: "pinterestProfile", field: "pinterestUsername" },
  },
  "PATCH /api/catalogs/updateCatalog/:id": { params: { id: "c1" }, body: { name: "Summer linens" }, owns: { kind: "catalog", param: "id" } },
  "POST /api/catalogs/addItemsToCatalog": { body: { catalogID: "c1", items: [catalogItem] }, owns: { kind: "catalog", field: "catalogID" } },
  "GET /api/catalogs/getCatalogItems/:id": { params: { id: "c1" }, owns: { kind: "catalog", param: "id" } },
  "PATCH /api/catalogs/updateCatalogItem/:id": {
    params: { id: "i1" },
    body: { title: "Linen napkins, set of 6", price: "32.00" },
    owns: { kind: "catalogItem", param: "id" },
  },
  "POST /api/catalogs/publishCatalog/:id": { slow: true, params: { id: "c1" }, owns: { kind: "catalog", param: "id" } },
  "GET /api/catalogs/getCatalogStatus/:id": { slow: true, params: { id: "c1" }, owns: { kind: "catalog", param: "id" } },
  "DELETE /api/catalogs/deleteCatalogItemImage": {
    body: { catalogItemID: "i1", image: "https://linen.example/b.jpg" },
    owns: { kind: "catalogItem", field: "catalogItemID" },
  },
  "DELETE /api/catalogs/deleteCatalogItem/:id": { params: { id: "i1" }, owns: { kind: "catalogItem", param: "id" } },
  "DELETE /api/catalogs/deleteCatalog/:id": { params: { id: "c1" }, owns: { kind: "catalog", param: "id" } },
  "GET /catalog-feeds/:file": {
    public: true,
    params: { file: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.csv" },
    notOwned: { file: "a catalog's published feed file: public by design for Pinterest to download, named by an unguessable token" },
  },
  // RSS feeds for Pinterest's auto-publish (issue 18, decision 044).
  "GET /api/rss/feed/:token": { public: true, params: { token: "A".repeat(43) }, notOwned: { token: "a feed's public address: Pinterest reads it by design" } },
  "GET /api/rss/getRSSFeeds": { listsOwn: true },
  "POST /api/rss/createRSSFeed": {
    body: {
      sourceUrl: "https://linen.example/feed.xml",
      pinterestProfileUsername: "someone",
      boardId: "1234567890",
      boardName: "Table",
      designSettings: { templateIds: ["t1"] },
    },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
    alsoOwns: [{ kind: "template", field: "designSettings.templateIds.0" }],
  },
  "PATCH /api/rss/updateRSSFeed/:id": {
    params: { id: "f1" },
    body: { name: "Renamed feed", pinterestProfileUsername: "someone", designSettings: { templateIds: ["t1"] } },
    owns: { kind: "rssFeed", param: "id" },
    alsoOwns: [
      { kind: "pinterestProfile", field: "pinterestProfileUsername" },
      { kind: "template", field: "designSettings.templateIds.0" },
    ],
  },
  "DELETE /api/rss/deleteRSSFeed/:id": { params: { id: "f1" }, owns: { kind: "rssFeed", param: "id" } },
  "GET /api/rss/getRSSFeedDesignSettings/:id": { params: { id: "f1" }, owns: { kind: "rssFeed", param: "id" } },
  "GET /api/rss/getRSSFeedItems/:id": { params: { id: "f1" }, owns: { kind: "rssFeed", param: "id" } },
  "POST /api/rss/checkRSSFeed/:id": { slow: true, params: { id: "f1" }, owns: { kind: "rssFeed", param: "id" } },
  // The WordPress hand-off (issue 20, decision 054): the key on /profile (rotating and revoking it would take the
  // campaign's key away: they get a user of their own), then the plugin's calls, authenticated by the key.
  "GET /api/wordpress/accessKey": { listsOwn: true },
  "POST /api/wordpress/accessKey": {},
  "POST /api/wordpress/accessKey/rotate": { sacrificial: true },
  "DELETE /api/wordpress/accessKey": { sacrificial: true },
  "GET /api/wordpress/account": { wordpressKey: true, listsOwn: true },
  "GET /api/wordpress/boards/:username": {
    wordpressKey: true,
    slow: true,
    params: { username: "someone" },
    owns: { kind: "pinterestProfile", param: "username" },
  },
  "POST /api/wordpress/pins": {
    wordpressKey: true,
    slow: true,
    body: {
      url: "https://linen.example/napkins",
      title: "Three folds for linen napkins",
      excerpt: "Simple folds for a dinner table.",
      images: [],
      destination: "queue",
      pinterestProfileUsername: "someone",
      boardId: "1234567890",
      boardName: "Table",
      reference: "campaign-wp-0001",
    },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "GET /api/approvals": { listsOwn: true },
  "PUT /api/approvals/settings": {
    body: { pinterestProfileUsername: "someone", approvalRequired: true },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "POST /api/approvals/reviewers": {
    body: { pinterestProfileUsername: "someone", email: "reviewer@example.com" },
    owns: { kind: "pinterestProfile", field: "pinterestProfileUsername" },
  },
  "DELETE /api/approvals/reviewers/:reviewerId": {
    params: { reviewerId: "6f1c1f0e-7d1a-4c55-9d43-5a9a3f0b2c11" },
    owns: { kind: "approvalReviewer", param: "reviewerId" },
  },
  // A reviewer's calls: authorised by the signed link (Authorization: Bearer), never by a sign-in.
  "GET /api/approvals/review": { public: true },
  "POST /api/approvals/review": {
    public: true,
    body: { decisions: [{ pinId: "pin-00000001", decision: "approve", comment: "Looks good" }] },
    notOwned: {
      "decisions.0.pinId":
        "a pin of the profile the reviewer's signed link names: the link is the authority, and the profile's own queue answers for its pins only",
    },
  },
};

/**
 * Names of slots (the last name of a path parameter, query parameter or body
 * field) that look like a resource id but never name a user's resource, with
 * the reason: the cross-user campaign asks every other id-like slot to be
 * `owns`/`alsoOwns` or a route's `notOwned`.
 */
export const NOT_USER_OWNED: Record<string, string> = {
  handle: "a public profile page: anyone may read it by design",
  countryCode: "a country",
  planId: "a plan of the catalogue",
  newPlanId: "a plan of the catalogue",
  stripePriceID: "the Stripe price of a plan of the catalogue",
  newStripePriceID: "the Stripe price of a plan of the catalogue",
  newPlanPayPalID: "the PayPal plan of a plan of the catalogue",
  boardId: "a Pinterest board: Pinterest checks it against the token of the caller's profile that the request names",
  media_id: "a video uploaded to Pinterest: Pinterest checks it against the token of the caller's profile",
  affiliateID: "an affiliate's public link id (pgref): anyone may click it, and a customer names the one that sent them",
  reference: "an idempotency key: keys are kept per caller, so another user's key names nothing of theirs",
};

/** Keys like "POST /api/x" of every route the app serves (Hono's own table), and its pages. */
export function servedRoutes(honoRoutes: { method: string; path: string }[]): string[] {
  return [...new Set(honoRoutes.filter((route) => route.method !== "ALL" && !route.path.includes("*")).map((route) => `${route.method} ${route.path}`))];
}

/** A route's path with its parameters filled in. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? "x"));
}

/** Every (dot) path of an example body, objects and arrays included, a few levels deep. */
export function fieldPaths(value: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (depth > 3 || value === null || typeof value !== "object") return [];
  const entries = Array.isArray(value) ? value.slice(0, 1).map((item, i) => [String(i), item] as const) : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...fieldPaths(item, [...prefix, key], depth + 1)]);
}

/** A copy of `body` with the field at `path` set to `replacement` (objects on the way made when missing). */
export function withField(body: Record<string, unknown>, path: string[], replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let target: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (target[key] === null || typeof target[key] !== "object") target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[path[path.length - 1]] = replacement;
  return copy;
}
