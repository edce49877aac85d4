import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch, set by SQLite when a row is written. */
const createdAt = () => integer("created_at", { mode: "number" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

/**
 * Subscription plans (spec section 9). Seeded data, not code paths: prices and
 * credits change by editing workers/db/seed-data.ts and re-running the seed.
 */
export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(), // stable slug, e.g. "starter-monthly"
  name: text("name").notNull(),
  tier: text("tier", { enum: ["free", "starter", "pro", "growth", "agency", "lifetime"] }).notNull(),
  billingPeriod: text("billing_period", { enum: ["none", "month", "year", "once"] }).notNull(),
  price: real("price").notNull(), // USD
  creditsPerMonth: integer("credits_per_month").notNull(),
  freeTrialDays: integer("free_trial_days").notNull(),
  planOrder: integer("plan_order").notNull(),
  /** The plan's price in Stripe (null for Free): the id the Stripe calls and the stand-in use. */
  stripePriceId: text("stripe_price_id").unique(),
});

/**
 * Which scheduling Durable Objects have work and when their next alarm is due.
 * Each ProfileScheduler writes its own row; the cron sweep uses it to re-arm
 * alarms that went missing or overdue.
 */
export const schedulerIndex = sqliteTable(
  "scheduler_index",
  {
    profileKey: text("profile_key").primaryKey(),
    nextDueAt: integer("next_due_at"), // ms; null when the queue is empty
    pendingCount: integer("pending_count").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("scheduler_index_next_due").on(t.nextDueAt)],
);

/** Video rendering jobs carried by the video-jobs queue to the FFmpeg service. */
export const videoJobs = sqliteTable(
  "video_jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id"),
    status: text("status", { enum: ["queued", "rendering", "done", "failed"] }).notNull(),
    /** 0..1, as the video service reports it. */
    progress: real("progress").notNull().default(0),
    /** The finished video's length. */
    durationSeconds: real("duration_seconds"),
    /** The scheduled pin the video's creation credits paid for (migration 0018). */
    firstPinId: text("first_pin_id"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    payload: text("payload", { mode: "json" }).notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("video_jobs_user").on(t.userId)],
);

/** A person with an account. E-mails are stored lowercased. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    /** Versioned PBKDF2 hash (workers/auth/password-hash.ts); null for Google-only accounts. */
    passwordHash: text("password_hash"),
    googleSub: text("google_sub").unique(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    handle: text("handle").notNull().unique(),
    /** Authorization comes from this column only, never from the client. */
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    imageKey: text("image_key"),
    leadSource: text("lead_source"),
    leadSourceOther: text("lead_source_other"),
    signupIp: text("signup_ip"),
    isEmailVerified: integer("is_email_verified", { mode: "boolean" }).notNull().default(false),
    cookiesConsent: integer("cookies_consent", { mode: "boolean" }),
    /** Names of the onboarding steps the user has done (workers/domain/onboarding.ts). */
    onboardingDone: text("onboarding_done", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    referralCode: text("referral_code").notNull().unique(),
    planId: text("plan_id")
      .notNull()
      .default("free")
      .references(() => plans.id),
    planStatus: text("plan_status").notNull().default("Inactive"),
    cancelSubscriptionDate: integer("cancel_subscription_date"),
    usedFreeTrial: integer("used_free_trial", { mode: "boolean" }).notNull().default(false),
    /** When an admin blocked the account (decision 051): no sign-in, no session, its queues paused. Null: not blocked. */
    blockedAt: integer("blocked_at"),
    /** When the user's per-pin records left D1 for their UserLedger object (decision 084). Null: not moved yet. */
    ledgerMovedAt: integer("ledger_moved_at"),
    /** When the user asked for the weekly insights e-mail (decision 093). Null: not wanted (the default). */
    weeklySummaryAt: integer("weekly_summary_at"),
    /** The last week ("2026-W49") the weekly insights e-mail was sent for, claimed before sending. */
    weeklySummaryWeek: text("weekly_summary_week"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("users_role").on(t.role),
    index("users_ledger_unmoved").on(t.createdAt).where(sql`${t.ledgerMovedAt} IS NULL`),
    index("users_weekly_summary").on(t.weeklySummaryWeek).where(sql`${t.weeklySummaryAt} IS NOT NULL`),
  ],
);

/**
 * A sign-in: one per login, holding the rotating refresh-token family and the
 * browser's session cookie. Revoking it logs that sign-in out everywhere.
 */
export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the session cookie's value. */
    cookieHash: text("cookie_hash").notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    revokeReason: text("revoke_reason"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("auth_sessions_user").on(t.userId)],
);

/** Refresh tokens, stored hashed. A used one presented again revokes its whole session. */
export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => authSessions.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    usedAt: integer("used_at"),
    /** The token that replaced this one: its hash, and itself sealed (AES-GCM), answered again within the grace (decision 019). */
    successorHash: text("successor_hash"),
    successorSealed: text("successor_sealed"),
  },
  (t) => [index("refresh_tokens_session").on(t.sessionId)],
);

/** One-time password-reset tokens, stored hashed. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("password_resets_user").on(t.userId)],
);

/**
 * A handle a user had before (issue 40 point 9): its public address leads to the user's handle now. A user's
 * current handle wins over anyone's old one; the newest few per user are kept (HANDLE_REDIRECTS_KEPT), and the
 * account's deletion deletes them.
 */
export const handleRedirects = sqliteTable(
  "handle_redirects",
  {
    oldHandle: text("old_handle").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("handle_redirects_user").on(t.userId, t.createdAt)],
);

/** Fixed-window counters for rate limits (login, sign-up, e-mails sent). */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    bucket: text("bucket").primaryKey(),
    count: integer("count").notNull(),
    resetAt: integer("reset_at").notNull(),
  },
  // The cron sweep's look-up of expired windows (purgeExpiredRateLimits).
  (t) => [index("rate_limits_reset_at").on(t.resetAt)],
);

/** Newsletter subscribers (with or without an account). */
export const newsletterSubscribers = sqliteTable("newsletter_subscribers", {
  email: text("email").primaryKey(),
  source: text("source").notNull(),
  subscribedAt: integer("subscribed_at").notNull(),
  unsubscribedAt: integer("unsubscribed_at"),
});

/**
 * Pin templates: standard ones (seeded, no owner, read-only but for admins)
 * and users' own. The design (background, layers, family, image slots) is
 * stored as JSON validated by contracts/content/template.ts.
 */
export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    design: text("design", { mode: "json" }).notNull(),
    /** Category names, as a JSON array. */
    categories: text("categories", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    isStandard: integer("is_standard", { mode: "boolean" }).notNull().default(false),
    isShared: integer("is_shared", { mode: "boolean" }).notNull().default(false),
    favoriteCount: integer("favorite_count").notNull().default(0),
    /** Order of standard templates in the gallery. */
    position: integer("position").notNull().default(0),
    /** A standard template users see (lists, /generate, template sets); an admin unpublishes it to hide it. */
    isPublished: integer("is_published", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("templates_owner_updated").on(t.ownerId, t.updatedAt),
    index("templates_shared").on(t.isShared, t.updatedAt),
    index("templates_standard").on(t.isStandard, t.position),
  ],
);

/** Template categories: standard ones (no owner) and each user's own. */
export const templateCategories = sqliteTable(
  "template_categories",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The name lowercased: a user cannot have two categories differing only in case. */
    nameKey: text("name_key").notNull(),
    /** Order of the standard categories (admins reorder them); a user's own are listed by name. */
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("template_categories_owner_name").on(t.ownerId, t.nameKey)],
);

export const templateFavorites = sqliteTable(
  "template_favorites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.templateId] }), index("template_favorites_template").on(t.templateId)],
);

/** The 18 colour palettes of the design settings (seeded). */
export const colorPalettes = sqliteTable("color_palettes", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  colors: text("colors", { mode: "json" }).$type<{ r: number; g: number; b: number; a: number }[]>().notNull(),
  position: integer("position").notNull(),
});

/**
 * Named design-settings profiles (spec section 3, Design settings). The
 * settings are JSON validated by contracts/content/design-settings.ts. One profile per
 * user is marked active: the one /generate opens with.
 */
export const designSettingsProfiles = sqliteTable(
  "design_settings_profiles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The name lowercased: a user cannot have two profiles differing only in case. */
    nameKey: text("name_key").notNull(),
    settings: text("settings", { mode: "json" }).notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("design_settings_profiles_user_name").on(t.userId, t.nameKey), index("design_settings_profiles_user_updated").on(t.userId, t.updatedAt)],
);

/** The media library: a user's uploaded images, videos and fonts, stored in R2. */
export const userMedia = sqliteTable(
  "user_media",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mediaType: text("media_type", { enum: ["image", "video", "font"] }).notNull(),
    /** The R2 object key (under the user's media prefix). */
    objectKey: text("object_key").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    /** Fonts: the family name read from the font file. */
    fontFamily: text("font_family"),
    /** Fonts: the format the user uploaded (ttf, otf, woff, woff2); stored files are always TrueType/OpenType. */
    sourceFormat: text("source_format"),
    createdAt: createdAt(),
  },
  (t) => [
    index("user_media_user_type_created").on(t.userId, t.mediaType, t.createdAt),
    // The library of all types, newest first, without sorting the whole library (migration 0035, docs/scale.md).
    index("user_media_user_created").on(t.userId, t.createdAt),
  ],
);

/** Saved generator sessions (spec section 4, Drafts): the posts as JSON (contracts/content/post.ts). */
export const drafts = sqliteTable(
  "drafts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The client's local date-time label for the draft. */
    date: text("date").notNull(),
    posts: text("posts", { mode: "json" }).notNull(),
    postCount: integer("post_count").notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("drafts_user_updated").on(t.userId, t.updatedAt)],
);

/**
 * The credit ledger: every grant (positive) and spend (negative) is a row.
 * A spend is idempotent by its reference: a retried request never charges twice.
 */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Credits: negative for a spend, positive for a grant (AI text costs 0.5). */
    amount: real("amount").notNull(),
    category: text("category").notNull(),
    reason: text("reason").notNull(),
    reference: text("reference").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("credit_ledger_user_reference").on(t.userId, t.reference), index("credit_ledger_user_created").on(t.userId, t.createdAt)],
);

/**
 * Running totals of the credit ledger per user and billing month [periodStart, periodEnd)
 * (migrations 0038 and 0042, docs/decisions/063-credit-month-totals.md): the sums a month's balance needs, so
 * reading it costs one row, not a SUM over the month's ledger. Written by credits.ts (summed from the
 * ledger once) when a month is first counted; kept equal to the ledger's sums by triggers on
 * credit_ledger (insert, delete, and update of user, amount, reference or date).
 */
export const creditMonthTotals = sqliteTable(
  "credit_month_totals",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end").notNull(),
    /**
     * Where the month's spends (and admin grants) are counted from: periodStart, or for a month that opens with a
     * plan change the start of the month it interrupted (migration 0042, docs/decisions/081-credits-across-plan-changes.md).
     */
    spendsFrom: integer("spends_from").notNull(),
    /** Plan grants (neither reversals nor admin grants), from periodStart. */
    grants: real("grants").notNull().default(0),
    /** The plan grants of paid plans (those not under "grant:free:"). */
    paidGrants: real("paid_grants").notNull().default(0),
    /** Admin grants ("admin-grant:"). */
    adminGrants: real("admin_grants").notNull().default(0),
    /** Spends, as their negative sum, reversals (positive) included. */
    spends: real("spends").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.periodStart, t.periodEnd] }),
    // A billing month is at most 31 days and counts spends from at most 32 days before it: the triggers look months up
    // within 32 days either side of a row's date.
    check(
      "credit_month_totals_length",
      sql`${t.periodEnd} > ${t.periodStart} AND ${t.periodEnd} - ${t.periodStart} <= 2764800000 AND ${t.spendsFrom} <= ${t.periodStart} AND ${t.periodStart} - ${t.spendsFrom} <= 2764800000`,
    ),
  ],
);

/** What happened to each pin: downloaded, scheduled or pinned, with its credit category. */
export const pinHistory = sqliteTable(
  "pin_history",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    action: text("action", { enum: ["downloaded", "scheduled", "pinned"] }).notNull(),
    category: text("category").notNull(),
    credits: real("credits").notNull(),
    title: text("title").notNull().default(""),
    description: text("description").notNull().default(""),
    url: text("url").notNull().default(""),
    imageUrl: text("image_url").notNull().default(""),
    mediaType: text("media_type", { enum: ["image", "video"] })
      .notNull()
      .default("image"),
    boardId: text("board_id"),
    boardName: text("board_name"),
    pinterestProfile: text("pinterest_profile"),
    pinterestPinId: text("pinterest_pin_id"),
    /** The idempotency reference of the credit spend that paid for it. */
    reference: text("reference").notNull(),
    createdAt: createdAt(),
    /** The pin's id in its profile's queue (ProfileScheduler), for a scheduled pin: one entry per pin. */
    pinId: text("pin_id"),
    /** When the pin is scheduled to post (ms): as placed, then as its queue moves it (history-mirror.ts). */
    scheduledFor: integer("scheduled_for"),
    /** When the pin was posted to Pinterest (ms). */
    postedAt: integer("posted_at"),
    /** When its owner made it public (ms): its page is /users/{handle}/{id}; null while private (decision 055). */
    publicAt: integer("public_at"),
    /**
     * A scheduled pin not posted yet: where it stands in its queue, written by the queue as it changes
     * (durable-objects/scheduler/history-mirror.ts; decision 066). Null for an entry written before the
     * queues mirrored their pins: the page asks its queue.
     */
    queueState: text("queue_state", { enum: ["scheduled", "awaiting", "paused", "failed", "deleted"] }),
    /** Why it waits (paused) or failed, as its queue says. */
    queueError: text("queue_error"),
    /** Pinterest's copy of the image, and when our render was deleted (decision 084): the page then shows Pinterest's. */
    pinterestImageUrl: text("pinterest_image_url"),
    renderDeletedAt: integer("render_deleted_at"),
  },
  (t) => [
    uniqueIndex("pin_history_user_reference").on(t.userId, t.reference),
    index("pin_history_user_created").on(t.userId, t.createdAt),
    index("pin_history_user_pin").on(t.userId, t.pinId),
    index("pin_history_waiting").on(t.userId, t.pinterestProfile).where(sql`${t.action} = 'scheduled' AND ${t.postedAt} IS NULL`),
  ],
);

/**
 * A Pinterest account a user connected (spec: authorizedPinterestProfiles).
 * Tokens are sealed at rest (workers/auth/sealed.ts, bound to the row id);
 * the queue itself lives in the profile's ProfileScheduler Durable Object.
 */
export const pinterestProfiles = sqliteTable(
  "pinterest_profiles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    username: text("username").notNull(),
    accountType: text("account_type"),
    profileImage: text("profile_image"),
    accessTokenSealed: text("access_token_sealed").notNull(),
    refreshTokenSealed: text("refresh_token_sealed").notNull(),
    accessExpiresAt: integer("access_expires_at").notNull(),
    refreshExpiresAt: integer("refresh_expires_at").notNull(),
    scopes: text("scopes").notNull().default(""),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(false),
    /** ok; reauth: the tokens no longer work and the user must reconnect; blocked: Pinterest refuses the account. */
    status: text("status", { enum: ["ok", "reauth", "blocked"] })
      .notNull()
      .default("ok"),
    lastError: text("last_error"),
    schedulingSettings: text("scheduling_settings", { mode: "json" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("pinterest_profiles_user_username").on(t.userId, t.username), index("pinterest_profiles_refresh").on(t.accessExpiresAt)],
);

/**
 * A shop a user connected (spec: authorizedShops, Shop profile): Etsy,
 * Shopify or WooCommerce. `shopId` is the provider's (Etsy's shop id, the
 * myshopify domain, the WooCommerce site's address); the credentials are
 * sealed at rest bound to the row id, like Pinterest's (decision 027). At most
 * one of a user's shops is active: the one /products opens on.
 */
export const shopProfiles = sqliteTable(
  "shop_profiles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    shopType: text("shop_type", { enum: ["Etsy", "Shopify", "WooCommerce"] }).notNull(),
    shopId: text("shop_id").notNull(),
    shopName: text("shop_name").notNull(),
    shopUrl: text("shop_url"),
    /** The provider's credentials as JSON (tokens, keys, expiry), sealed. */
    credentialsSealed: text("credentials_sealed").notNull(),
    scopes: text("scopes").notNull().default(""),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: ["ok", "reauth"] })
      .notNull()
      .default("ok"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("shop_profiles_user_shop").on(t.userId, t.shopType, t.shopId), index("shop_profiles_user").on(t.userId)],
);

/**
 * One-time states of the Shopify install flow (decision 029), hashed: the
 * user who started it (null for an install begun on Shopify's side by someone
 * not signed in), the store it is for, and the SHA-256 of the secret kept in
 * an httpOnly cookie of the browser that started it (as Pinterest's, decision 018).
 */
export const shopifyOauthStates = sqliteTable(
  "shopify_oauth_states",
  {
    stateHash: text("state_hash").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    shop: text("shop").notNull(),
    redirectUrl: text("redirect_url").notNull(),
    browserHash: text("browser_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("shopify_oauth_states_user").on(t.userId)],
);

/**
 * The anonymous Shopify entry (spec: authorizedShops' anonymous Shopify entry
 * with authDetails): a store installed from Shopify's side before its owner
 * had an account here. Its token is sealed bound to the row; the browser holds
 * only a secret (hashed here) in an httpOnly cookie, and the entry becomes a
 * shop profile of the account that signs up or logs in with it (decision 029).
 */
export const shopifyAnonymousInstalls = sqliteTable("shopify_anonymous_installs", {
  id: text("id").primaryKey(),
  secretHash: text("secret_hash").notNull(),
  shop: text("shop").notNull(),
  shopName: text("shop_name").notNull(),
  shopUrl: text("shop_url"),
  credentialsSealed: text("credentials_sealed").notNull(),
  scopes: text("scopes").notNull().default(""),
  expiresAt: integer("expires_at").notNull(),
  createdAt: createdAt(),
});

/** One-time OAuth state checks (hashed), recorded before the redirect to Pinterest. */
export const pinterestOauthStates = sqliteTable(
  "pinterest_oauth_states",
  {
    stateHash: text("state_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    redirectUrl: text("redirect_url").notNull(),
    /** SHA-256 of the secret kept in a cookie of the browser that started the connection (decision 018). */
    browserHash: text("browser_hash"),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("pinterest_oauth_states_user").on(t.userId)],
);

/**
 * Etsy connections in progress (decision 028): the state (hashed, one use),
 * the browser that started it (decision 018) and the PKCE code verifier,
 * sealed and bound to the state, which only our server sends to Etsy.
 */
export const etsyOauthStates = sqliteTable(
  "etsy_oauth_states",
  {
    stateHash: text("state_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    redirectUrl: text("redirect_url").notNull(),
    browserHash: text("browser_hash").notNull(),
    codeVerifierSealed: text("code_verifier_sealed").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("etsy_oauth_states_user").on(t.userId)],
);

/**
 * Every plan a user holds or held, whatever sold it: a Stripe subscription or
 * once-off (lifetime) purchase now; PayPal, Shopify and redeem codes later.
 * The user's planId, planStatus and cancelSubscriptionDate are derived from
 * these rows (workers/services/billing/billing.ts), so the order in which providers
 * report changes does not matter. See docs/decisions/013-billing.md.
 */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["stripe", "paypal", "shopify", "code", "referral"] }).notNull(),
    /** The provider's id: a Stripe subscription (sub_...) or, for a once-off payment, its checkout session (cs_...). */
    providerRef: text("provider_ref").notNull(),
    kind: text("kind", { enum: ["subscription", "lifetime"] }).notNull(),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id),
    /** The provider's status, e.g. Stripe's active, trialing, past_due, canceled. */
    status: text("status").notNull(),
    /** When it began (ms): orders a user's rows, newest wins. */
    startedAt: integer("started_at").notNull(),
    /** The current billing period (ms); periodEnd is null for a lifetime plan. */
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end"),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    endedAt: integer("ended_at"),
    trialEnd: integer("trial_end"),
    /** The start of the period that opened with a plan change: the first, or one a switch of plan started (decision 081). */
    changePeriodStart: integer("change_period_start"),
    cancelReason: text("cancel_reason"),
    affiliateId: text("affiliate_id"),
    /**
     * A period taken back (decision 077): the record gives no plan while its current period starts at or
     * before this one. Copied from plan_revocations, never from a provider's report.
     */
    revokedPeriodStart: integer("revoked_period_start"),
    revokedReason: text("revoked_reason", { enum: ["refunded", "disputed"] }),
    /** When our side took it back (ms), for the user's notice. */
    revokedAt: integer("revoked_at"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("subscriptions_provider_ref").on(t.provider, t.providerRef), index("subscriptions_user").on(t.userId, t.startedAt)],
);

/**
 * Refunds and lost disputes (docs/decisions/077-refunds-and-disputes.md): one row per provider reversal of a
 * payment, so a second delivery adds nothing. `paymentRef` is the payment as commissions key it (Stripe
 * invoice or lifetime checkout session, PayPal sale, Shopify "{charge gid}@{period end}").
 */
export const paymentReversals = sqliteTable(
  "payment_reversals",
  {
    provider: text("provider", { enum: ["stripe", "paypal", "shopify"] }).notNull(),
    reversalRef: text("reversal_ref").notNull(),
    paymentRef: text("payment_ref").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["refund", "dispute"] }).notNull(),
    /** What this reversal took back, and what the payment was (cents). */
    amountCents: integer("amount_cents").notNull(),
    paymentCents: integer("payment_cents").notNull(),
    currency: text("currency").notNull(),
    /** The provider's time of it (ms). */
    reversedAt: integer("reversed_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.reversalRef] }), index("payment_reversals_payment").on(t.provider, t.paymentRef)],
);

/** A plan record's period whose payment was taken back in full; copied into the record (`revokedPeriodStart`). */
export const planRevocations = sqliteTable(
  "plan_revocations",
  {
    provider: text("provider").notNull(),
    providerRef: text("provider_ref").notNull(),
    paymentRef: text("payment_ref").notNull(),
    periodStart: integer("period_start").notNull(),
    reason: text("reason", { enum: ["refunded", "disputed"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerRef, t.paymentRef] })],
);

/** A user's customer record at a payment provider (Stripe's cus_...). */
export const billingCustomers = sqliteTable(
  "billing_customers",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["stripe", "paypal", "shopify"] }).notNull(),
    customerRef: text("customer_ref").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] }), uniqueIndex("billing_customers_ref").on(t.provider, t.customerRef)],
);

/**
 * Billing e-mails (decision 082): a receipt per payment and a confirmation per cancellation, claimed before they are
 * sent. `reference` names the payment or cancellation at its provider, so each is e-mailed once whichever path sees
 * it; `details` (JSON) is what it says, so the cron sends one that could not go at once.
 */
export const billingEmails = sqliteTable(
  "billing_emails",
  {
    reference: text("reference").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["receipt", "cancellation"] }).notNull(),
    details: text("details").notNull(),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [index("billing_emails_unsent").on(t.createdAt).where(sql`${t.sentAt} IS NULL`)],
);

/**
 * Addresses no e-mail goes to any more (decision 097), from the e-mail provider's webhooks: a hard bounce (kept
 * until expiresAt, then the cron forgets it) or a spam complaint (expiresAt null: kept for good). `address` is
 * lower-cased and trimmed; sendEmail looks it up before every send.
 */
export const emailSuppressions = sqliteTable(
  "email_suppressions",
  {
    address: text("address").primaryKey(),
    reason: text("reason", { enum: ["hard_bounce", "complaint"] }).notNull(),
    /** What the provider said: the bounce's type, subtype and message. */
    detail: text("detail").notNull().default(""),
    /** The webhook delivery (svix-id) that recorded it. */
    eventId: text("event_id"),
    suppressedAt: integer("suppressed_at").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [
    index("email_suppressions_expiry").on(t.expiresAt).where(sql`${t.expiresAt} IS NOT NULL`),
    check("email_suppressions_reason", sql`${t.reason} IN ('hard_bounce', 'complaint')`),
  ],
);

/** Provider webhook events already applied: each event id is applied once. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * Redeem codes (spec section 7, redeemPurchaseCode): each grants a plan, for
 * `months` months or (months null) for good, and is used once. Admins create
 * them in batches. Redeeming claims the row in one conditional UPDATE, so two
 * simultaneous redemptions of a code give one success.
 */
export const redeemCodes = sqliteTable(
  "redeem_codes",
  {
    code: text("code").primaryKey(),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id),
    /** Months of the plan the code gives; null: the plan for good (e.g. Lifetime). */
    months: integer("months"),
    batchId: text("batch_id").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    redeemedBy: text("redeemed_by").references(() => users.id, { onDelete: "set null" }),
    redeemedAt: integer("redeemed_at"),
    /** Disabled by an admin (the code alone or its whole batch): it cannot be redeemed any more. */
    disabledAt: integer("disabled_at"),
    createdAt: createdAt(),
  },
  (t) => [index("redeem_codes_batch").on(t.batchId), index("redeem_codes_redeemed_by").on(t.redeemedBy)],
);

/**
 * A batch of redeem codes as an admin made it (decision 053): the plan and
 * months its codes give, until when they can be redeemed (null: no end), a
 * note for the admins, and whether the batch was disabled.
 */
export const redeemCodeBatches = sqliteTable(
  "redeem_code_batches",
  {
    id: text("id").primaryKey(),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id),
    months: integer("months"),
    codeCount: integer("code_count").notNull(),
    expiresAt: integer("expires_at"),
    note: text("note").notNull().default(""),
    disabledAt: integer("disabled_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("redeem_code_batches_created").on(t.createdAt)],
);

/**
 * Idempotency keys (docs/decisions/017-idempotency-keys.md): a client-chosen
 * key names one request of one user to one operation. The first request with
 * a key claims it with its body's hash; a replay with the same body answers
 * the first result (`response`) without new work or charge, the same key with
 * another body is refused (409). `id` is this request's own random id: what it
 * charges and creates is named after it, never after the client's key, so a
 * key that expired (30 days) and comes back is a new request.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    operation: text("operation").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    id: text("id").notNull(),
    status: text("status", { enum: ["pending", "done"] }).notNull(),
    /** The first answer (JSON), once done. */
    response: text("response"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.operation, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);

/**
 * Full-size pins rendered for scheduling (renderTemplateImage with purpose
 * "schedule"): not served under /media until the schedule that uses them has
 * charged its credit (`paidAt`). Unpaid ones are deleted after a day.
 */
export const pinRenders = sqliteTable(
  "pin_renders",
  {
    mediaKey: text("media_key").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paidAt: integer("paid_at"),
    createdAt: integer("created_at").notNull(),
    /** When its pin was last posted: deleted 30 days later unless a repeating pin keeps it (decision 084). */
    postedAt: integer("posted_at"),
    pinId: text("pin_id"),
    keep: integer("keep", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("pin_renders_user").on(t.userId), index("pin_renders_created").on(t.createdAt)],
);

/**
 * WooCommerce connections under way (decision 030): one row per visit to a
 * store's authorisation page. Its id travels, signed, as WooCommerce's
 * `user_id`; the keys WooCommerce POSTs for it wait here, sealed, until the
 * browser that started it comes back, and are then saved as a shop profile.
 */
export const woocommerceConnections = sqliteTable(
  "woocommerce_connections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The store's address as we call it (https in production). */
    storeUrl: text("store_url").notNull(),
    storeName: text("store_name").notNull(),
    /** SHA-256 of the secret kept in a cookie of the browser that started it (decision 018). */
    browserHash: text("browser_hash").notNull(),
    redirectUrl: text("redirect_url").notNull(),
    /** pending: waiting for the keys; checking: keys arrived and are being tried; granted: keys kept; then connected, or failed. */
    status: text("status", { enum: ["pending", "checking", "granted", "connected", "failed"] }).notNull(),
    keysSealed: text("keys_sealed"),
    error: text("error"),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("woocommerce_connections_user").on(t.userId)],
);

/**
 * Affiliates (issue 16, docs/decisions/035): a user who joined the programme,
 * known to visitors by `affiliateId`, the pgref of their link.
 */
export const affiliates = sqliteTable(
  "affiliates",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    affiliateId: text("affiliate_id").notNull(),
    /** Where payouts go (a Wise @tag). */
    wiseTag: text("wise_tag"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("affiliates_affiliate_id").on(t.affiliateId)],
);

/** One counted click per visitor and affiliate: `visitorKey` is the visitor cookie (decision 035). */
export const affiliateClicks = sqliteTable(
  "affiliate_clicks",
  {
    affiliateId: text("affiliate_id").notNull(),
    visitorKey: text("visitor_key").notNull(),
    clickedAt: integer("clicked_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.affiliateId, t.visitorKey] }), index("affiliate_clicks_time").on(t.affiliateId, t.clickedAt)],
);

/** A customer an affiliate sent: attributed once (first wins), at sign-up or at checkout, within 30 days of the click. */
export const affiliateCustomers = sqliteTable(
  "affiliate_customers",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    affiliateId: text("affiliate_id").notNull(),
    clickedAt: integer("clicked_at").notNull(),
    attributedAt: integer("attributed_at").notNull(),
    source: text("source", { enum: ["signup", "checkout"] }).notNull(),
  },
  (t) => [index("affiliate_customers_affiliate").on(t.affiliateId, t.attributedAt)],
);

/** A payout an admin marked paid: it settles the commission rows that name it. */
export const affiliatePayouts = sqliteTable(
  "affiliate_payouts",
  {
    id: text("id").primaryKey(),
    affiliateId: text("affiliate_id").notNull(),
    amountCents: integer("amount_cents").notNull(),
    wiseTag: text("wise_tag"),
    paidAt: integer("paid_at").notNull(),
    paidBy: text("paid_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("affiliate_payouts_affiliate").on(t.affiliateId, t.paidAt)],
);

/**
 * A commission: one per provider charge (Stripe invoice, PayPal sale), keyed on
 * the provider's id, so a charge never earns twice. Pending until `payableAt`
 * (a month's hold), payable after, paid once a payout names it.
 */
export const affiliateCommissions = sqliteTable(
  "affiliate_commissions",
  {
    provider: text("provider", { enum: ["stripe", "paypal", "shopify"] }).notNull(),
    chargeRef: text("charge_ref").notNull(),
    affiliateId: text("affiliate_id").notNull(),
    customerUserId: text("customer_user_id").references(() => users.id, { onDelete: "set null" }),
    planId: text("plan_id"),
    amountCents: integer("amount_cents").notNull(),
    commissionCents: integer("commission_cents").notNull(),
    currency: text("currency").notNull(),
    chargedAt: integer("charged_at").notNull(),
    payableAt: integer("payable_at").notNull(),
    payoutId: text("payout_id").references(() => affiliatePayouts.id),
    /** A negative row (decision 077) takes back (part of) the commission of this charge: a refund or a lost dispute. */
    reversesChargeRef: text("reverses_charge_ref"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.chargeRef] }),
    index("affiliate_commissions_affiliate").on(t.affiliateId, t.payableAt),
    index("affiliate_commissions_reverses").on(t.provider, t.reversesChargeRef).where(sql`${t.reversesChargeRef} IS NOT NULL`),
  ],
);

/**
 * The referral programme (docs/decisions/037-referral-programme.md): one row
 * per referred user, written when they claim a friend's free month. The
 * referrer earns a $16.99 Stripe balance credit when the referred user first
 * pays (`firstPaidAt`); `creditedAt` and `creditTxnId` say it reached Stripe.
 * Paid but not credited: the referrer has no Stripe customer yet (pending).
 */
export const referrals = sqliteTable(
  "referrals",
  {
    referredUserId: text("referred_user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    referrerId: text("referrer_id").references(() => users.id, { onDelete: "set null" }),
    referralCode: text("referral_code").notNull(),
    recordedAt: integer("recorded_at").notNull(),
    firstPaidAt: integer("first_paid_at"),
    paymentRef: text("payment_ref"),
    creditTxnId: text("credit_txn_id"),
    creditedAt: integer("credited_at"),
    /** Whether the claimer's mailbox is in free_month_mailboxes: claims older than migration 0040 are recorded by the cron (decision 079). */
    mailboxRecorded: integer("mailbox_recorded", { mode: "boolean" }).notNull().default(false),
    /**
     * The last time the payment that earned the credit was taken back (decision 077): the credit went back
     * (`reversalTxnId`, when it had reached Stripe) and the first-payment fields were cleared.
     */
    reversedAt: integer("reversed_at"),
    reversedPaymentRef: text("reversed_payment_ref"),
    reversalTxnId: text("reversal_txn_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("referrals_referrer").on(t.referrerId, t.firstPaidAt),
    index("referrals_mailbox_unrecorded").on(t.referredUserId).where(sql`${t.mailboxRecorded} = 0`),
  ],
);

/**
 * Mailboxes that had their free month (docs/decisions/079-one-reward-per-mailbox.md): one row per claim,
 * kept for ever, so closing the account and signing up again with an alias of the same inbox claims
 * nothing. `mailboxKey` is an HMAC of the canonical mailbox (services/mailboxes.ts): no address is stored.
 */
export const freeMonthMailboxes = sqliteTable("free_month_mailboxes", {
  mailboxKey: text("mailbox_key").primaryKey(),
  claimedAt: integer("claimed_at").notNull(),
});

/**
 * Blog posts and content pages (issue 17, docs/decisions/039-content-in-d1.md):
 * Markdown in `body`, rendered to sanitised HTML when read. A slug is unique
 * within its kind; only `published` entries are public. `publishedAt` is set
 * on first publication and kept through unpublishing.
 */
export const contentEntries = sqliteTable(
  "content_entries",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["post", "page"] }).notNull(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    body: text("body").notNull(),
    coverImage: text("cover_image"),
    coverAlt: text("cover_alt"),
    author: text("author").notNull(),
    status: text("status", { enum: ["draft", "published"] }).notNull(),
    publishedAt: integer("published_at"),
    updatedAt: integer("updated_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("content_entries_kind_slug").on(t.kind, t.slug), index("content_entries_listing").on(t.kind, t.status, t.publishedAt)],
);

/**
 * Pinterest catalogs (issue 18, docs/decisions/043-pinterest-catalogs.md): a
 * user's named set of products published to Pinterest as a product feed file.
 * `feedToken` names the public file (unguessable); `pinterestFeedId` is
 * Pinterest's id of the data source once registered for the connected profile
 * `pinterestProfileId`; the last publish and ingestion are kept for the page.
 */
export const catalogs = sqliteTable(
  "catalogs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    pinterestProfileId: text("pinterest_profile_id").references(() => pinterestProfiles.id, { onDelete: "set null" }),
    feedToken: text("feed_token").notNull(),
    currency: text("currency").notNull().default("USD"),
    country: text("country").notNull().default("US"),
    locale: text("locale").notNull().default("en-US"),
    pinterestFeedId: text("pinterest_feed_id"),
    pinterestFeedUsername: text("pinterest_feed_username"),
    publishedAt: integer("published_at"),
    publishedItemCount: integer("published_item_count"),
    leftOutItemCount: integer("left_out_item_count"),
    lastIngestionId: text("last_ingestion_id"),
    lastError: text("last_error"),
    changedSincePublish: integer("changed_since_publish", { mode: "boolean" }).notNull().default(false),
    updatedAt: integer("updated_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("catalogs_feed_token").on(t.feedToken), index("catalogs_user").on(t.userId, t.createdAt)],
);

/**
 * Items of a catalog (spec: Catalog item): from a shop listing or a CSV row.
 * `images` holds addresses, the first being the main image; `imageSizes` the
 * measured [width, height] of each address, for the pre-publish checks.
 */
export const catalogItems = sqliteTable(
  "catalog_items",
  {
    id: text("id").primaryKey(),
    catalogId: text("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    link: text("link").notNull(),
    price: text("price").notNull(),
    currency: text("currency").notNull(),
    availability: text("availability", { enum: ["in stock", "out of stock", "preorder"] }).notNull(),
    brand: text("brand").notNull().default(""),
    condition: text("condition", { enum: ["", "new", "used", "refurbished"] })
      .notNull()
      .default(""),
    categories: text("categories", { mode: "json" }).$type<string[]>().notNull().default([]),
    images: text("images", { mode: "json" }).$type<string[]>().notNull().default([]),
    imageSizes: text("image_sizes", { mode: "json" }).$type<Record<string, [number, number] | null>>().notNull().default({}),
    position: integer("position").notNull(),
    updatedAt: integer("updated_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("catalog_items_catalog").on(t.catalogId, t.position), index("catalog_items_user").on(t.userId)],
);

/**
 * Keyword research answers (docs/decisions/045-keyword-research.md), 24 hours per
 * normalised term and Pinterest trends region: the same for every caller.
 */
export const keywordResearchCache = sqliteTable(
  "keyword_research_cache",
  {
    termKey: text("term_key").notNull(),
    region: text("region").notNull(),
    /** The KeywordResearch answer as JSON, without the per-request fields. */
    answer: text("answer", { mode: "json" }).notNull(),
    fetchedAt: integer("fetched_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.termKey, t.region] }), index("keyword_research_cache_expiry").on(t.expiresAt)],
);

/**
 * Trend alerts (issue 19, docs/decisions/047-trend-alerts.md): keywords, regions
 * and interests a user follows, daily or weekly. `memory` is what the alert saw
 * last time (the week each rise was reported for, the trending keywords per
 * region) so a digest only says what is new.
 */
export const trendAlerts = sqliteTable(
  "trend_alerts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    keywords: text("keywords", { mode: "json" }).$type<string[]>().notNull(),
    regions: text("regions", { mode: "json" }).$type<string[]>().notNull(),
    interests: text("interests", { mode: "json" }).$type<string[]>().notNull(),
    frequency: text("frequency", { enum: ["daily", "weekly"] }).notNull(),
    pausedAt: integer("paused_at"),
    /** "user" (paused on the page) or "unsubscribed" (the e-mail's unsubscribe link). */
    pausedReason: text("paused_reason", { enum: ["user", "unsubscribed"] }),
    lastResult: text("last_result", { mode: "json" }),
    memory: text("memory", { mode: "json" }).notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("trend_alerts_user").on(t.userId, t.createdAt)],
);

/** One row per alert and period it was evaluated in: claimed (unique) before evaluating and mailing. */
export const trendAlertRuns = sqliteTable(
  "trend_alert_runs",
  {
    alertId: text("alert_id")
      .notNull()
      .references(() => trendAlerts.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    claimedAt: integer("claimed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.period] })],
);

/** The trend digests e-mailed to a user (the page's history). */
export const trendAlertEmails = sqliteTable(
  "trend_alert_emails",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sentAt: integer("sent_at").notNull(),
    subject: text("subject").notNull(),
    findings: text("findings", { mode: "json" }).notNull(),
  },
  (t) => [index("trend_alert_emails_user").on(t.userId, t.sentAt)],
);

/**
 * RSS feeds for Pinterest's auto-publish (issue 18, docs/decisions/044): a
 * user's blog feed or sitemap (`sourceUrl`) turned into an RSS 2.0 feed of
 * designed pins, served publicly under `publicToken`. The board is where the
 * user points Pinterest's auto-publish; `pausedReason` "credits" stops the
 * cron until the user has credits again.
 */
export const rssFeeds = sqliteTable(
  "rss_feeds",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    sourceUrl: text("source_url").notNull(),
    sourceKind: text("source_kind", { enum: ["feed", "sitemap"] }).notNull(),
    pinterestUsername: text("pinterest_username").notNull(),
    boardId: text("board_id").notNull(),
    boardName: text("board_name").notNull(),
    designSettings: text("design_settings", { mode: "json" }).notNull(),
    isEnabled: integer("is_enabled", { mode: "boolean" }).notNull().default(true),
    pausedReason: text("paused_reason", { enum: ["credits"] }),
    pausedAt: integer("paused_at"),
    pauseEmailSentAt: integer("pause_email_sent_at"),
    publicToken: text("public_token").notNull(),
    lastCheckedAt: integer("last_checked_at"),
    lastError: text("last_error"),
    lastErrorAt: integer("last_error_at"),
    /** A check under way holds the feed until then (a lease: a crashed check is taken over after it). */
    checkingUntil: integer("checking_until"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("rss_feeds_public_token").on(t.publicToken),
    index("rss_feeds_user").on(t.userId, t.createdAt),
    index("rss_feeds_due").on(t.isEnabled, t.lastCheckedAt),
  ],
);

/**
 * One source post of an RSS feed (unique per feed and post): pending while
 * its pin renders, ready once rendered and charged (then it is in the public
 * feed), skipped for posts older than the feed's start, failed with an error.
 */
export const rssFeedItems = sqliteTable(
  "rss_feed_items",
  {
    id: text("id").primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => rssFeeds.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The post's address: what makes it the same post on every check. */
    sourceKey: text("source_key").notNull(),
    status: text("status", { enum: ["pending", "ready", "skipped", "failed"] }).notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    link: text("link").notNull(),
    imageKey: text("image_key"),
    imageBytes: integer("image_bytes"),
    creditsCharged: real("credits_charged").notNull().default(0),
    chargedAt: integer("charged_at"),
    claimedUntil: integer("claimed_until"),
    error: text("error"),
    /** When the source says the post was published. */
    postedAt: integer("posted_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("rss_feed_items_feed_source").on(t.feedId, t.sourceKey), index("rss_feed_items_feed_created").on(t.feedId, t.createdAt)],
);

/**
 * The admin audit log (issue 20): one row per admin action, written in the same batch as the change it
 * records. `adminEmail` is kept so the row still says who acted after that account is deleted.
 */
export const adminAuditLog = sqliteTable(
  "admin_audit_log",
  {
    id: text("id").primaryKey(),
    adminId: text("admin_id").references(() => users.id, { onDelete: "set null" }),
    adminEmail: text("admin_email").notNull(),
    /** What was done, e.g. "credits.grant", "user.role", "user.block", "codes.create", "template.publish". */
    action: text("action").notNull(),
    /** What it was done to: "user", "redeem-batch", "template", "content", "payout"... */
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    /** One plain sentence for the log's reader. */
    summary: text("summary").notNull(),
    before: text("before", { mode: "json" }).$type<unknown>(),
    after: text("after", { mode: "json" }).$type<unknown>(),
    createdAt: createdAt(),
  },
  (t) => [index("admin_audit_log_created").on(t.createdAt), index("admin_audit_log_target").on(t.targetKind, t.targetId, t.createdAt)],
);

/**
 * A user's WordPress access key (issue 20, docs/decisions/054): at most one per user. Only the
 * SHA-256 of the key is kept, and its first characters ("pbwp_abcd") for the user to recognise it.
 * Rotating replaces the hash in place; revoking deletes the row: an old key matches nothing at once.
 */
export const wordpressAccessKeys = sqliteTable(
  "wordpress_access_keys",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    keyHash: text("key_hash").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [uniqueIndex("wordpress_access_keys_hash").on(t.keyHash)],
);

/**
 * Post approvals (issue 20, docs/decisions/052-post-approvals.md): whether a profile's pins need a
 * reviewer's approval before they post. No row: not required.
 */
export const approvalSettings = sqliteTable("approval_settings", {
  profileId: text("profile_id")
    .primaryKey()
    .references(() => pinterestProfiles.id, { onDelete: "cascade" }),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  required: integer("required", { mode: "boolean" }).notNull().default(false),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * A reviewer the owner invited by e-mail to approve one profile's pins. `linkId` is the id carried by the
 * reviewer's signed link: removing the reviewer (`removedAt`) revokes the link.
 */
export const approvalReviewers = sqliteTable(
  "approval_reviewers",
  {
    id: text("id").primaryKey(),
    profileId: text("profile_id")
      .notNull()
      .references(() => pinterestProfiles.id, { onDelete: "cascade" }),
    /** The profile's owner. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    linkId: text("link_id").notNull(),
    createdAt: createdAt(),
    /** When the last invite was e-mailed: a pending invite is not e-mailed again within a day (decision 080). */
    inviteSentAt: integer("invite_sent_at").notNull().default(0),
    removedAt: integer("removed_at"),
  },
  (t) => [uniqueIndex("approval_reviewers_link").on(t.linkId), index("approval_reviewers_profile").on(t.profileId, t.removedAt)],
);

/** A reviewer's decision on one pin (one per pin), with the pin as it was reviewed and the batch it came in. */
export const approvalDecisions = sqliteTable(
  "approval_decisions",
  {
    id: text("id").primaryKey(),
    profileId: text("profile_id")
      .notNull()
      .references(() => pinterestProfiles.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pinId: text("pin_id").notNull(),
    reviewerId: text("reviewer_id").references(() => approvalReviewers.id, { onDelete: "set null" }),
    reviewerEmail: text("reviewer_email").notNull(),
    decision: text("decision", { enum: ["approved", "rejected"] }).notNull(),
    comment: text("comment").notNull().default(""),
    title: text("title").notNull().default(""),
    imageUrl: text("image_url"),
    scheduledFor: integer("scheduled_for"),
    batchId: text("batch_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("approval_decisions_pin").on(t.profileId, t.pinId), index("approval_decisions_profile_created").on(t.profileId, t.createdAt)],
);
