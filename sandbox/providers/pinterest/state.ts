import { createHash, randomBytes } from "node:crypto";
import { providerState, type SandboxState } from "../../state.ts";
import type { FaultPlan } from "./fault-rate.ts";
import type { Interest, Rise, TrendRegion } from "./trends-data.ts";

/**
 * What the Pinterest stand-in remembers: accounts (created on first use, with a
 * deterministic seed of boards and sections per username), authorization codes,
 * tokens, created pins, media uploads and the sandbox-only knobs (rate budget,
 * token lifetime, blocked accounts, drop-after-create). `POST /__sandbox/reset`
 * drops it all.
 */

export type BoardPrivacy = "PUBLIC" | "PROTECTED" | "SECRET";

export interface SectionRecord {
  id: string;
  name: string;
}

export interface BoardRecord {
  id: string;
  username: string;
  name: string;
  description: string | null;
  privacy: BoardPrivacy;
  createdAt: string;
  pinsModifiedAt: string;
  sections: SectionRecord[];
}

export interface RateLimitSetting {
  perMinute: number;
  windowSeconds: number;
}

export interface AccountRecord {
  id: string;
  username: string;
  createdAt: string;
  boards: BoardRecord[];
  blocked: boolean;
  /** Lifetime in seconds of access tokens issued from now on; null: the default. */
  accessTokenLifetime: number | null;
  /** This account's own rate budget; null: the sandbox-wide one. */
  rateLimit: RateLimitSetting | null;
  window: { start: number; count: number };
}

export interface PinMediaRecord {
  sourceType: "image_url" | "image_base64" | "video_id";
  url?: string;
  contentType?: string;
  /** Decoded size of a base64 image. */
  bytes?: number;
  data?: Buffer;
  mediaId?: string;
  coverImageUrl?: string;
  coverImageKeyFrameTime?: number;
}

export interface PinRecord {
  /** Creation order, for newest-first paging. */
  seq: number;
  id: string;
  username: string;
  boardId: string;
  boardSectionId: string | null;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  dominantColor: string | null;
  media: PinMediaRecord;
  createdAt: string;
  /** Days the pin's analytics figures count it older than it is (`POST /__sandbox/pinterest/analytics/age-pins`). */
  ageDays?: number;
}

export interface TokenRecord {
  token: string;
  kind: "access" | "refresh";
  username: string;
  clientId: string;
  scopes: string[];
  /** Epoch milliseconds. */
  expiresAt: number;
  /** A refresh token stops working once used (rotation); any token once revoked. */
  spent: boolean;
}

export interface CodeRecord {
  code: string;
  username: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  expiresAt: number;
  used: boolean;
}

export type MediaStatus = "registered" | "processing" | "succeeded" | "failed";

export interface MediaRecord {
  id: string;
  username: string;
  status: MediaStatus;
  uploadKey: string;
  signature: string;
  /** GETs after the upload that still answer "registered" (S3 telling Pinterest late), then "processing". */
  registeredReads: number;
  /** GETs answered "processing" before the outcome (1 by default: processing ends on the read after the first). */
  processingReads: number;
  /** What processing will end in, decided on upload (a file that is not a video fails; a media plan may say "failed"). */
  outcome: "succeeded" | "failed";
  uploadedBytes: number | null;
  createdAt: string;
}

/** How the next uploads of an account are processed (sandbox control `POST /__sandbox/pinterest/media-processing`). */
export interface MediaProcessingPlan {
  registeredReads: number;
  processingReads: number;
  /** "failed" fails even a real video; "succeeded" still fails a file that is not one. */
  outcome: "succeeded" | "failed";
}

export const DEFAULT_MEDIA_PROCESSING: MediaProcessingPlan = { registeredReads: 0, processingReads: 1, outcome: "succeeded" };

export interface DropAfterCreate {
  remaining: number;
  /** delay: answer held back; reset: connection broken; late: connection broken at once, pin created `delayMs` later (or when landed). */
  mode: "delay" | "reset" | "late";
  delayMs: number;
  username: string | null;
}

export interface PinterestState {
  accounts: Map<string, AccountRecord>;
  codes: Map<string, CodeRecord>;
  tokens: Map<string, TokenRecord>;
  pins: PinRecord[];
  media: Map<string, MediaRecord>;
  /** How uploads are processed, by username (absent: DEFAULT_MEDIA_PROCESSING). */
  mediaProcessing: Map<string, MediaProcessingPlan>;
  rateLimit: RateLimitSetting;
  dropAfterCreate: DropAfterCreate | null;
  /** Creates still under way inside Pinterest after the client's connection broke (mode "late"): each lands the pin once. */
  lateCreates: Set<() => void>;
  /** Seeded fault rates on creating pins, by username ("*": every account). */
  faultPlans: Map<string, FaultPlan>;
  /** Usernames that went through the consent page, most recent first. */
  recentUsernames: string[];
  counters: { pin: number; board: number; section: number; media: number; feed: number; processing: number };
  /** Catalog data sources (POST /v5/catalogs/feeds), by id: catalogs.ts. */
  feeds: Map<string, import("./catalogs.ts").FeedRecord>;
  /**
   * Feed files by address, for runs where the app has no address the stand-in
   * can reach (the workers tests' app.test): a test hands over the bytes the app
   * serves there (`PUT /__sandbox/pinterest/feed-files`).
   */
  feedFiles: Map<string, { body: string; contentType: string }>;
  /**
   * Pictures by address, for the same runs: what an image_url pin's copy holds when the stand-in cannot fetch the
   * address (`PUT /__sandbox/pinterest/pictures`).
   */
  pictures: Map<string, { data: Buffer; contentType: string }>;
  trends: TrendsState;
}

/** Rate-limit categories of the terms and trends operations (x-ratelimit-category in the OpenAPI description). */
export type RateCategory = "ads_read" | "trends_read";

/** The terms and trends stand-in's knobs: rises, a fixed "today", and per-token buckets by category. */
export interface TrendsState {
  /** Keyed by `${region}|${keyword}`; region "*" is every region. */
  rises: Map<string, Rise & { keyword: string; region: TrendRegion | "*"; interest: Interest | null }>;
  /** Epoch ms the trends are computed for; null: now. */
  today: number | null;
  /** Requests per minute per token, by category. */
  limits: Record<RateCategory, number>;
  /** Token buckets keyed by `${category}|${access token}`. */
  buckets: Map<string, { tokens: number; updatedAt: number }>;
}

export const DEFAULT_CATEGORY_LIMITS: Record<RateCategory, number> = { ads_read: 1000, trends_read: 100 };

export const ACCESS_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 60 * 24 * 3600;
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const DEFAULT_RATE_LIMIT: RateLimitSetting = { perMinute: 1000, windowSeconds: 60 };
export const DEFAULT_USERNAME = "sandbox_pinner";
/** The app id the local app uses (PINTEREST_CLIENT_ID in sandbox/provider-vars.ts). */
export const SANDBOX_CLIENT_ID = "1500000000000001";
/** Usernames containing this get 30 boards, more than one default page (25). */
export const MANY_BOARDS_MARKER = "many_boards";

/** Every scope Pinterest's OAuth knows (the spec's pinterest_oauth2 scopes). */
export const PINTEREST_SCOPE_DESCRIPTIONS: Record<string, string> = {
  "ads:read": "See all of your advertising data, including ads, ad groups, campaigns etc.",
  "ads:write": "Create, update, or delete ads, ad groups, campaigns etc.",
  "billing:read": "See all of your billing data, billing profile, etc.",
  "billing:write": "Create, update, or delete billing data, billing profiles, etc.",
  "biz_access:read": "See business access data",
  "biz_access:write": "Create, update, or delete business access data",
  "boards:read": "See your public boards, including group boards you join",
  "boards:read_secret": "See your secret boards",
  "boards:write": "Create, update, or delete your public boards",
  "boards:write_secret": "Create, update, or delete your secret boards",
  "catalogs:read": "See all of your catalogs data",
  "catalogs:write": "Create, update, or delete your catalogs data",
  "msot:write": "Create measurement source of truth events",
  "pins:read": "See your public Pins",
  "pins:read_secret": "See your secret Pins",
  "pins:write": "Create, update, or delete your public Pins",
  "pins:write_secret": "Create, update, or delete your secret Pins",
  "user_accounts:read": "See your user accounts and followers",
  "user_accounts:write": "Update your user accounts and followers",
};

export const pinterestState = (state: SandboxState) =>
  providerState<PinterestState>(state, "pinterest", () => ({
    accounts: new Map(),
    codes: new Map(),
    tokens: new Map(),
    pins: [],
    media: new Map(),
    mediaProcessing: new Map(),
    rateLimit: { ...DEFAULT_RATE_LIMIT },
    dropAfterCreate: null,
    lateCreates: new Set(),
    faultPlans: new Map(),
    recentUsernames: [],
    counters: { pin: 0, board: 0, section: 0, media: 0, feed: 0, processing: 0 },
    feeds: new Map(),
    feedFiles: new Map(),
    pictures: new Map(),
    trends: { rises: new Map(), today: null, limits: { ...DEFAULT_CATEGORY_LIMITS }, buckets: new Map() },
  }));

/** Pinterest usernames: 3 to 30 letters, digits or underscores. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,30}$/;

export function normalizeUsername(username: string) {
  return username.trim().toLowerCase();
}

/** An 18-digit id derived from a seed: the same seed always gives the same id. */
export function numericId(seed: string): string {
  const digest = createHash("sha256").update(seed).digest();
  let value = 0n;
  for (const byte of digest.subarray(0, 12)) value = (value << 8n) | BigInt(byte);
  return (10n ** 17n + (value % (9n * 10n ** 17n))).toString();
}

/** An 18-digit id unique across resets and restarts: milliseconds then a counter. */
export function freshId(counter: number): string {
  return `${Date.now()}${String(counter % 100_000).padStart(5, "0")}`;
}

export function randomToken(prefix: string) {
  return `${prefix}${randomBytes(30).toString("base64url")}`;
}

const SEED_BOARDS: Array<{ name: string; description: string; privacy?: BoardPrivacy; sections?: string[] }> = [
  { name: "Recipes to Try", description: "Weeknight dinners and baking projects", sections: ["Breakfast", "Dinner", "Desserts"] },
  { name: "Travel Inspiration", description: "Places to see next", sections: ["Europe", "Asia"] },
  { name: "Home Decor Ideas", description: "Cozy rooms and small spaces" },
  { name: "Secret Plans", description: "Not ready to share yet", privacy: "SECRET" },
  { name: "DIY Projects", description: "Weekend builds" },
  { name: "Garden", description: "Vegetables and flowers" },
  { name: "Outfits", description: "Everyday style" },
  { name: "Quotes", description: "Words to keep" },
  { name: "Fitness", description: "Workouts at home" },
  { name: "Photography", description: "Light, composition, gear" },
  { name: "Art Prints", description: "Wall art" },
  { name: "Wedding Ideas", description: "Flowers, dresses and venues" },
  { name: "Kids Crafts", description: "Rainy-day activities" },
  { name: "Holiday Decor", description: "Seasonal decorations" },
  { name: "Small Business Tips", description: "Marketing and pricing" },
  { name: "Blogging", description: "Writing and growing a blog" },
  { name: "Healthy Eating", description: "Simple meals" },
  { name: "Baking", description: "Bread, cakes and cookies" },
  { name: "Minimalism", description: "Less, but better" },
  { name: "Book List", description: "To read" },
  { name: "Pets", description: "Dogs and cats" },
  { name: "Beauty", description: "Makeup looks" },
  { name: "Skincare", description: "Routines" },
  { name: "Interior Design", description: "Rooms we love" },
  { name: "Tattoo Ideas", description: "Fine line and more" },
  { name: "Nails", description: "Nail art" },
  { name: "Hairstyles", description: "Braids and cuts" },
  { name: "Cocktails", description: "Drinks for guests" },
  { name: "Road Trips", description: "Routes and stops" },
  { name: "Budget Tips", description: "Saving money" },
];

/** How many boards an account starts with: 30 when the username contains "many_boards", else 5. */
export function seedBoardCount(username: string) {
  return username.includes(MANY_BOARDS_MARKER) ? SEED_BOARDS.length : 5;
}

function seedBoards(username: string): BoardRecord[] {
  return SEED_BOARDS.slice(0, seedBoardCount(username)).map((seed, index) => {
    const id = numericId(`board:${username}:${index}`);
    const createdAt = new Date(Date.UTC(2024, 0, 1 + index, 9, 30)).toISOString();
    return {
      id,
      username,
      name: seed.name,
      description: seed.description,
      privacy: seed.privacy ?? "PUBLIC",
      createdAt,
      pinsModifiedAt: createdAt,
      sections: (seed.sections ?? []).map((name, sectionIndex) => ({ id: numericId(`section:${id}:${sectionIndex}`), name })),
    };
  });
}

/** The account of a (normalized) username, created with its seed on first use. */
export function accountFor(pinterest: PinterestState, username: string): AccountRecord {
  const key = normalizeUsername(username);
  let account = pinterest.accounts.get(key);
  if (!account) {
    account = {
      id: numericId(`account:${key}`),
      username: key,
      createdAt: new Date().toISOString(),
      boards: seedBoards(key),
      blocked: false,
      accessTokenLifetime: null,
      rateLimit: null,
      window: { start: 0, count: 0 },
    };
    pinterest.accounts.set(key, account);
  }
  return account;
}

export interface IssuedTokens {
  access: TokenRecord;
  refresh: TokenRecord;
}

/** A new access token and a new refresh token for an account. */
export function issueTokens(pinterest: PinterestState, account: AccountRecord, clientId: string, scopes: string[]): IssuedTokens {
  const now = Date.now();
  const access: TokenRecord = {
    token: randomToken("pina_"),
    kind: "access",
    username: account.username,
    clientId,
    scopes,
    expiresAt: now + (account.accessTokenLifetime ?? ACCESS_TOKEN_LIFETIME_SECONDS) * 1000,
    spent: false,
  };
  const refresh: TokenRecord = {
    token: randomToken("pinr_"),
    kind: "refresh",
    username: account.username,
    clientId,
    scopes,
    expiresAt: now + REFRESH_TOKEN_LIFETIME_SECONDS * 1000,
    spent: false,
  };
  pinterest.tokens.set(access.token, access);
  pinterest.tokens.set(refresh.token, refresh);
  return { access, refresh };
}

/** The account's current access tokens expire at `expiresAt` (those expiring later). Answers how many changed. */
export function expireAccessTokens(pinterest: PinterestState, username: string, expiresAt: number): number {
  let expired = 0;
  for (const token of pinterest.tokens.values()) {
    if (token.kind === "access" && token.username === username && !token.spent && token.expiresAt > expiresAt) {
      token.expiresAt = expiresAt;
      expired += 1;
    }
  }
  return expired;
}

/** Every access and refresh token of the account stops working (the user removed the app). Answers how many. */
export function revokeTokens(pinterest: PinterestState, username: string): number {
  let revoked = 0;
  for (const token of pinterest.tokens.values()) {
    if (token.username === username && !token.spent) {
      token.spent = true;
      revoked += 1;
    }
  }
  return revoked;
}

/** The token endpoint's answer for issued tokens (OauthAccessTokenResponseCode / ...Refresh). */
export function tokenResponse(issued: IssuedTokens, responseType: "authorization_code" | "refresh_token") {
  const now = Date.now();
  return {
    access_token: issued.access.token,
    refresh_token: issued.refresh.token,
    response_type: responseType,
    token_type: "bearer",
    expires_in: Math.max(0, Math.round((issued.access.expiresAt - now) / 1000)),
    refresh_token_expires_in: Math.round((issued.refresh.expiresAt - now) / 1000),
    refresh_token_expires_at: Math.floor(issued.refresh.expiresAt / 1000),
    scope: issued.access.scopes.join(","),
  };
}

/** Scopes in Pinterest's comma-separated form (spaces tolerated), deduplicated. */
export function parseScopes(value: string): string[] {
  return [...new Set(value.split(/[,\s]+/).filter(Boolean))];
}
