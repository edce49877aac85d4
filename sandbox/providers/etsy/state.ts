import { createHash, randomBytes } from "node:crypto";
import { DEMO_PRODUCTS, productByNumber, type DemoProduct } from "../../demo-shop/catalog.ts";
import { providerState, type SandboxState } from "../../state.ts";

/**
 * What the Etsy stand-in remembers: Etsy members (each with one shop selling
 * the demo catalogue, created on first use by shop name), authorization codes
 * with their PKCE challenge, tokens, and the per-token rate budgets.
 * `POST /__sandbox/reset` drops it all.
 */

/** Etsy's published defaults: 10 calls a second, 10,000 a day (a sliding 24 hours). */
export const DEFAULT_RATE_LIMIT = { perSecond: 10, perDay: 10_000 } as const;
export type RateLimit = { perSecond: number; perDay: number };

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 90 * 24 * 3600;
export const CODE_LIFETIME_MS = 5 * 60_000;
export const DEFAULT_SHOP_NAME = "ClayAndLinenStudio";
/** Etsy shop names: 4 to 20 letters and digits. */
export const SHOP_NAME = /^[A-Za-z0-9]{4,20}$/;

export const ETSY_SCOPE_DESCRIPTIONS: Record<string, string> = {
  shops_r: "See your shop's settings and sections",
  shops_w: "Change your shop's settings",
  listings_r: "See all your listings, including drafts and inactive ones",
  listings_w: "Create and edit your listings",
  listings_d: "Delete your listings",
  transactions_r: "See your orders",
  email_r: "See your email address",
  profile_r: "See your profile",
};

export interface EtsyAccount {
  /** 1, 2, 3 ... in creation order: the ids below derive from it. */
  index: number;
  userId: number;
  shopId: number;
  shopName: string;
  /** False: the member has no shop (yet). */
  hasShop: boolean;
  createdAt: number;
  /** This account's own budget; null: the sandbox-wide one. */
  rateLimit: RateLimit | null;
  /** Calls counted in the current second, and when (epoch second). */
  second: { at: number; count: number };
  /** When each call of the last 24 hours was made (epoch ms), oldest first. */
  day: number[];
  /** How many calls the budget refused (429). */
  refused: number;
  /** Tokens granted, by grant type, oldest first (for tests that check what happened when). */
  grants: { type: "authorization_code" | "refresh_token"; at: number }[];
  /** Lifetime of access tokens issued from now on, seconds. */
  accessTokenSeconds: number;
}

export interface CodeRecord {
  code: string;
  userId: number;
  clientId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  expiresAt: number;
  used: boolean;
}

export interface TokenRecord {
  value: string;
  kind: "access" | "refresh";
  userId: number;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  /** Refreshed (a refresh token is good once) or revoked. */
  spent: boolean;
}

export interface EtsyState {
  accounts: Map<string, EtsyAccount>;
  codes: Map<string, CodeRecord>;
  tokens: Map<string, TokenRecord>;
  rateLimit: RateLimit;
  /** The budget of calls made without a token (Etsy counts those per API key). */
  app: EtsyAccount | null;
  recentShopNames: string[];
}

export function etsyState(state: SandboxState): EtsyState {
  return providerState(state, "etsy", () => ({
    accounts: new Map(),
    codes: new Map(),
    tokens: new Map(),
    rateLimit: { ...DEFAULT_RATE_LIMIT },
    app: null,
    recentShopNames: [],
  }));
}

function newAccount(index: number, shopName: string, hasShop: boolean): EtsyAccount {
  return {
    index,
    userId: 58_000_000 + index * 7,
    shopId: 30_000_000 + index * 3,
    shopName,
    hasShop,
    createdAt: Date.now(),
    rateLimit: null,
    second: { at: 0, count: 0 },
    day: [],
    refused: 0,
    grants: [],
    accessTokenSeconds: ACCESS_TOKEN_SECONDS,
  };
}

/** The member whose shop has this name (any case), created on first use. */
export function accountFor(etsy: EtsyState, shopName: string): EtsyAccount {
  const key = shopName.toLowerCase();
  let account = etsy.accounts.get(key);
  if (!account) {
    account = newAccount(etsy.accounts.size + 1, shopName, true);
    etsy.accounts.set(key, account);
  }
  return account;
}

/** Calls without a token count against the app itself. */
export function appAccount(etsy: EtsyState): EtsyAccount {
  etsy.app ??= newAccount(0, "app", false);
  return etsy.app;
}

export function accountByUserId(etsy: EtsyState, userId: number): EtsyAccount | undefined {
  for (const account of etsy.accounts.values()) if (account.userId === userId) return account;
  return undefined;
}

export function accountByShopId(etsy: EtsyState, shopId: number): EtsyAccount | undefined {
  for (const account of etsy.accounts.values()) if (account.shopId === shopId && account.hasShop) return account;
  return undefined;
}

// ---- tokens -----------------------------------------------------------------------------------

/** An access token (lifetime of the account) and a refresh token (90 days), each `<user_id>.<random>` as Etsy's. */
export function issueTokens(
  etsy: EtsyState,
  account: EtsyAccount,
  clientId: string,
  scopes: string[],
  grant: EtsyAccount["grants"][number]["type"] = "authorization_code",
) {
  const now = Date.now();
  account.grants.push({ type: grant, at: now });
  const make = (kind: TokenRecord["kind"], seconds: number): TokenRecord => {
    const record = {
      value: `${account.userId}.${randomBytes(48).toString("base64url")}`,
      kind,
      userId: account.userId,
      clientId,
      scopes,
      expiresAt: now + seconds * 1000,
      spent: false,
    };
    etsy.tokens.set(record.value, record);
    return record;
  };
  const access = make("access", account.accessTokenSeconds);
  const refresh = make("refresh", REFRESH_TOKEN_SECONDS);
  return { access_token: access.value, token_type: "Bearer", expires_in: account.accessTokenSeconds, refresh_token: refresh.value };
}

/** The S256 challenge of a code verifier (RFC 7636). */
export function s256(verifier: string) {
  return createHash("sha256").update(verifier).digest("base64url");
}

// ---- the shop: the demo catalogue in Etsy's ids -----------------------------------------------

/** The shop's sections: one per catalogue category, in the catalogue's order. */
export const SECTION_TITLES: string[] = [...new Set(DEMO_PRODUCTS.map((product) => product.categories[0]!))];

export function sectionId(account: EtsyAccount, title: string) {
  return 41_000_000 + account.index * 100 + SECTION_TITLES.indexOf(title) + 1;
}

const LISTING_BASE = 1_500_000_000;
const IMAGE_BASE = 4_000_000_000;

export function listingId(account: EtsyAccount, product: DemoProduct) {
  return LISTING_BASE + account.index * 1000 + product.number;
}

/** The account and product of a listing id, if it names one. */
export function listingOf(etsy: EtsyState, id: number): { account: EtsyAccount; product: DemoProduct } | undefined {
  const rest = id - LISTING_BASE;
  if (!Number.isSafeInteger(rest) || rest <= 0) return undefined;
  const account = [...etsy.accounts.values()].find((candidate) => candidate.index === Math.floor(rest / 1000) && candidate.hasShop);
  const product = productByNumber(rest % 1000);
  return account && product ? { account, product } : undefined;
}

export function imageId(account: EtsyAccount, product: DemoProduct, n: number) {
  return IMAGE_BASE + account.index * 100_000 + product.number * 10 + n;
}

/** The product and photo number an image id names (the photos are the same in every shop). */
export function photoOf(id: number): { product: DemoProduct; n: number } | undefined {
  const rest = id - IMAGE_BASE;
  if (!Number.isSafeInteger(rest) || rest <= 0) return undefined;
  const product = productByNumber(Math.floor((rest % 100_000) / 10));
  const n = rest % 10;
  return product && n >= 1 && n <= product.photoCount ? { product, n } : undefined;
}

/** Etsy's listings carry their shop's active products (Etsy lists only what is published). */
export function activeProducts(): DemoProduct[] {
  return DEMO_PRODUCTS.filter((product) => product.status === "active");
}
