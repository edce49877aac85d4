/**
 * Shopify's Admin GraphQL API for app billing: appSubscriptionCreate,
 * currentAppInstallation { activeSubscriptions } and appSubscriptionCancel.
 * SHOPIFY_ADMIN_URL is a template, https://{shop}/admin/api live and the local
 * stand-in otherwise (http://127.0.0.1:8788/shopify/{shop}/admin/api); the
 * version (SHOPIFY_API_VERSION) and /graphql.json follow it.
 */

/** The bindings it needs (plain, so Node-side tests can pass them too). */
export interface ShopifyEnv {
  SHOPIFY_ADMIN_URL: string;
  SHOPIFY_API_VERSION: string;
  SHOPIFY_TIMEOUT_MS: string;
}

/** How a Shopify call failed: GraphQL or user errors, an HTTP status, throttled beyond our patience, no answer, or no answer in time. */
export class ShopifyError extends Error {
  readonly kind: "graphql" | "http" | "throttled" | "network" | "timeout";
  readonly status: number | null;
  /** Shopify's own words: error messages, or the response body. */
  readonly details: string;
  constructor(kind: ShopifyError["kind"], status: number | null, details: string) {
    super(`Shopify ${kind} error${status ? ` (${status})` : ""}: ${details.slice(0, 300)}`);
    this.name = "ShopifyError";
    this.kind = kind;
    this.status = status;
    this.details = details;
  }
}

export interface Money {
  amount: string;
  currencyCode: string;
}

export interface AppSubscription {
  id: string;
  name: string;
  /** PENDING, ACTIVE, DECLINED, EXPIRED, FROZEN, CANCELLED (ACCEPTED in older versions). */
  status: string;
  test: boolean;
  trialDays: number;
  createdAt: string;
  currentPeriodEnd: string | null;
  lineItems: {
    id: string;
    plan: {
      pricingDetails: {
        __typename: string;
        interval?: "EVERY_30_DAYS" | "ANNUAL";
        price?: Money;
      };
    };
  }[];
}

const SUBSCRIPTION_FIELDS = `id name status test trialDays createdAt currentPeriodEnd
  lineItems { id plan { pricingDetails { __typename ... on AppRecurringPricing { interval price { amount currencyCode } } } } }`;

/**
 * The GraphQL documents this module sends to the Admin API, exactly as sent (test/unit/shops/shopify-conformance.test.ts
 * validates them against Shopify's published Admin schema, contracts/specs/shopify-admin-2025-01.introspection.json.gz).
 */
export const BILLING_DOCUMENTS = {
  appSubscriptionCreate: `mutation AppSubscriptionCreate($name: String!, $lineItems: [AppSubscriptionLineItemInput!]!, $returnUrl: URL!, $trialDays: Int, $test: Boolean) {
  appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, trialDays: $trialDays, test: $test) {
    userErrors { field message }
    appSubscription { id status }
    confirmationUrl
  }
}`,
  activeSubscriptions: `query ActiveSubscriptions { currentAppInstallation { activeSubscriptions { ${SUBSCRIPTION_FIELDS} } } }`,
  appSubscriptionCancel: `mutation AppSubscriptionCancel($id: ID!) { appSubscriptionCancel(id: $id, prorate: false) { userErrors { field message } appSubscription { ${SUBSCRIPTION_FIELDS} } } }`,
  appSubscription: `query AppSubscription($id: ID!) { node(id: $id) { ... on AppSubscription { ${SUBSCRIPTION_FIELDS} } } }`,
} as const;

export function adminGraphqlUrl(env: ShopifyEnv, shop: string): string {
  return `${env.SHOPIFY_ADMIN_URL.replace("{shop}", shop).replace(/\/+$/, "")}/${env.SHOPIFY_API_VERSION}/graphql.json`;
}

/** The store's admin (https://{shop}/admin): SHOPIFY_ADMIN_URL without its /api. OAuth and REST endpoints hang from it. */
export function adminUrl(env: ShopifyEnv, shop: string): string {
  return env.SHOPIFY_ADMIN_URL.replace("{shop}", shop)
    .replace(/\/+$/, "")
    .replace(/\/api$/, "");
}

export function timeoutOf(env: Pick<ShopifyEnv, "SHOPIFY_TIMEOUT_MS">): number {
  return Number(env.SHOPIFY_TIMEOUT_MS) > 0 ? Number(env.SHOPIFY_TIMEOUT_MS) : 15_000;
}

/** Shopify's query cost bucket, from `extensions.cost.throttleStatus` of every GraphQL answer. */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/**
 * GraphQL cost throttling (https://shopify.dev/docs/api/usage/limits): each
 * store has a bucket of query points that refills at `restoreRate` a second.
 * We remember each store's last bucket and the cost of its last query, wait
 * before a query the bucket cannot pay for yet, and when Shopify still
 * answers THROTTLED (or HTTP 429) wait until the bucket has refilled enough
 * and try again, at most MAX_THROTTLE_RETRIES times and never longer than
 * MAX_THROTTLE_WAIT_MS at once: past that the caller hears "throttled".
 */
const MAX_THROTTLE_RETRIES = 3;
// A page of 50 products costs about 650 points: from an empty bucket at 100 points a second that is 6.5 s.
const MAX_THROTTLE_WAIT_MS = 10_000;
const buckets = new Map<string, { status: ThrottleStatus; at: number; lastCost: number }>();

/** How long to wait before a query of `cost` points at this store (0: go now); null when longer than we wait. */
function waitBefore(shop: string, cost: number): number {
  const known = buckets.get(shop);
  if (!known || cost <= 0) return 0;
  const { maximumAvailable, currentlyAvailable, restoreRate } = known.status;
  if (cost > maximumAvailable || restoreRate <= 0) return 0;
  const available = Math.min(maximumAvailable, currentlyAvailable + (restoreRate * (Date.now() - known.at)) / 1000);
  return available >= cost ? 0 : Math.ceil(((cost - available) / restoreRate) * 1000);
}

function remember(shop: string, cost: { requestedQueryCost?: number | null; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus } | undefined) {
  const status = cost?.throttleStatus;
  if (!status || !Number.isFinite(status.currentlyAvailable) || !Number.isFinite(status.restoreRate)) return;
  buckets.set(shop, { status, at: Date.now(), lastCost: cost.actualQueryCost ?? cost.requestedQueryCost ?? buckets.get(shop)?.lastCost ?? 0 });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface GraphqlBody<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { cost?: { requestedQueryCost?: number | null; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus } };
}

/**
 * One Admin GraphQL call with the store's token, throttled as Shopify asks
 * (see above). Answers `data`; GraphQL errors, HTTP failures, no answer and
 * no answer in time throw ShopifyError.
 */
export async function graphql<T>(env: ShopifyEnv, shop: string, accessToken: string, query: string, variables: Record<string, unknown>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const ahead = waitBefore(shop, buckets.get(shop)?.lastCost ?? 0);
    if (ahead > 0) await pause(Math.min(ahead, MAX_THROTTLE_WAIT_MS));
    const { response, text } = await send(env, shop, accessToken, query, variables);
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get("retry-after"));
      const waitMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : 1000;
      if (attempt < MAX_THROTTLE_RETRIES && waitMs <= MAX_THROTTLE_WAIT_MS) {
        await pause(waitMs);
        continue;
      }
      throw new ShopifyError("throttled", 429, errorText(text) || "Too many requests");
    }
    if (!response.ok) throw new ShopifyError("http", response.status, errorText(text));
    let body: GraphqlBody<T>;
    try {
      body = JSON.parse(text) as GraphqlBody<T>;
    } catch {
      throw new ShopifyError("http", 502, "Shopify answered something that is not JSON");
    }
    remember(shop, body.extensions?.cost);
    if (body.errors?.some((error) => error.extensions?.code === "THROTTLED")) {
      const cost = body.extensions?.cost;
      const status = cost?.throttleStatus;
      const needed = (cost?.requestedQueryCost ?? 0) - (status?.currentlyAvailable ?? 0);
      const waitMs = status && status.restoreRate > 0 ? Math.max(100, Math.ceil((needed / status.restoreRate) * 1000)) : 1000;
      if (attempt < MAX_THROTTLE_RETRIES && waitMs <= MAX_THROTTLE_WAIT_MS && (cost?.requestedQueryCost ?? 0) <= (status?.maximumAvailable ?? Infinity)) {
        await pause(waitMs);
        continue;
      }
      throw new ShopifyError("throttled", 429, "Shopify is limiting how fast this store can be read");
    }
    if (body.errors?.length || !body.data)
      throw new ShopifyError("graphql", response.status, (body.errors ?? [{ message: "no data" }]).map((error) => error.message).join("; "));
    return body.data;
  }
}

/** One HTTP request to a store with our time limit; network failures and timeouts as ShopifyError. */
export async function shopifyFetch(env: Pick<ShopifyEnv, "SHOPIFY_TIMEOUT_MS">, url: string, init: RequestInit): Promise<{ response: Response; text: string }> {
  const timeoutMs = timeoutOf(env);
  const failed = (error: unknown): never => {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new ShopifyError(timedOut ? "timeout" : "network", null, timedOut ? `no answer within ${timeoutMs} ms` : String(error));
  };
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return failed(error);
  }
  try {
    return { response, text: await response.text() };
  } catch (error) {
    return failed(error);
  }
}

function send(env: ShopifyEnv, shop: string, accessToken: string, query: string, variables: Record<string, unknown>) {
  return shopifyFetch(env, adminGraphqlUrl(env, shop), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "x-shopify-access-token": accessToken,
    },
    body: JSON.stringify({ query, variables }),
  });
}

/** Shopify's error bodies: {"errors": "..."} or {"errors": {...}} or {"errors": [...]}. */
export function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    const errors = parsed.errors;
    if (typeof errors === "string") return errors;
    if (Array.isArray(errors))
      return errors.map((error) => (typeof error === "string" ? error : ((error as { message?: string }).message ?? JSON.stringify(error)))).join("; ");
    if (errors && typeof errors === "object")
      return Object.entries(errors)
        .map(([field, messages]) => `${field} ${Array.isArray(messages) ? messages.join(", ") : String(messages)}`)
        .join("; ");
  } catch {
    // not JSON
  }
  return text.slice(0, 300);
}

function throwUserErrors(userErrors: { field: string[] | null; message: string }[]) {
  if (userErrors.length)
    throw new ShopifyError(
      "graphql",
      200,
      userErrors.map((error) => (error.field?.length ? `${error.field.join(".")}: ${error.message}` : error.message)).join("; "),
    );
}

export async function createAppSubscription(
  env: ShopifyEnv,
  shop: string,
  accessToken: string,
  input: {
    name: string;
    price: number;
    interval: "EVERY_30_DAYS" | "ANNUAL";
    returnUrl: string;
    trialDays: number;
    test: boolean;
  },
): Promise<{
  confirmationUrl: string;
  appSubscription: { id: string; status: string };
}> {
  const data = await graphql<{
    appSubscriptionCreate: {
      appSubscription: { id: string; status: string } | null;
      confirmationUrl: string | null;
      userErrors: { field: string[] | null; message: string }[];
    };
  }>(env, shop, accessToken, BILLING_DOCUMENTS.appSubscriptionCreate, {
    name: input.name,
    returnUrl: input.returnUrl,
    trialDays: input.trialDays,
    test: input.test,
    lineItems: [
      {
        plan: {
          appRecurringPricingDetails: {
            // Decimal: "serialized as a string" in Shopify's schema ("29.99").
            price: { amount: input.price.toFixed(2), currencyCode: "USD" },
            interval: input.interval,
          },
        },
      },
    ],
  });
  const result = data.appSubscriptionCreate;
  throwUserErrors(result.userErrors);
  if (!result.confirmationUrl || !result.appSubscription) throw new ShopifyError("graphql", 200, "appSubscriptionCreate answered no confirmationUrl");
  return {
    confirmationUrl: result.confirmationUrl,
    appSubscription: result.appSubscription,
  };
}

export async function activeSubscriptions(env: ShopifyEnv, shop: string, accessToken: string): Promise<AppSubscription[]> {
  const data = await graphql<{
    currentAppInstallation: { activeSubscriptions: AppSubscription[] };
  }>(env, shop, accessToken, BILLING_DOCUMENTS.activeSubscriptions, {});
  return data.currentAppInstallation.activeSubscriptions;
}

export async function cancelAppSubscription(env: ShopifyEnv, shop: string, accessToken: string, id: string): Promise<AppSubscription> {
  const data = await graphql<{
    appSubscriptionCancel: {
      appSubscription: AppSubscription | null;
      userErrors: { field: string[] | null; message: string }[];
    };
  }>(env, shop, accessToken, BILLING_DOCUMENTS.appSubscriptionCancel, { id });
  throwUserErrors(data.appSubscriptionCancel.userErrors);
  if (!data.appSubscriptionCancel.appSubscription) throw new ShopifyError("graphql", 200, "appSubscriptionCancel answered no subscription");
  return data.appSubscriptionCancel.appSubscription;
}

/** One AppSubscription of the store by its gid, whatever its status (node query); null when the store has no such charge. */
export async function appSubscription(env: ShopifyEnv, shop: string, accessToken: string, id: string): Promise<AppSubscription | null> {
  const data = await graphql<{ node: AppSubscription | null }>(env, shop, accessToken, BILLING_DOCUMENTS.appSubscription, { id });
  return data.node && typeof data.node.id === "string" ? data.node : null;
}

/**
 * Whether a webhook came from Shopify: X-Shopify-Hmac-Sha256 is the base64
 * HMAC-SHA256 of the raw body with the app's client secret. Compared in
 * constant time (SubtleCrypto's verify).
 */
export async function verifyWebhookHmac(clientSecret: string, rawBody: string, hmacHeader: string): Promise<boolean> {
  if (!clientSecret) throw new Error("SHOPIFY_CLIENT_SECRET must be configured to accept Shopify webhooks");
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = Uint8Array.from(atob(hmacHeader.trim()), (char) => char.charCodeAt(0));
  } catch {
    return false;
  }
  if (signature.length !== 32) return false;
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(clientSecret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", key, signature, new TextEncoder().encode(rawBody));
}

// ---------------------------------------------------------------------------
// Partner API (docs/decisions/077-refunds-and-disputes.md): Shopify tells an app of a refund of its charge only
// as a transaction of the Partner organization, an AppSaleAdjustment, never by webhook. SHOPIFY_PARTNER_API_URL
// is https://partners.shopify.com/{organization id}/api/{version}/graphql.json live (the local stand-in
// otherwise); SHOPIFY_PARTNER_APP_ID names our app (gid://partners/App/...); SHOPIFY_PARTNER_ACCESS_TOKEN is
// a Partner API client's token (prtapi_..., a secret).

export interface ShopifyPartnerEnv {
  SHOPIFY_PARTNER_API_URL: string;
  SHOPIFY_PARTNER_APP_ID: string;
  SHOPIFY_PARTNER_ACCESS_TOKEN?: string;
  SHOPIFY_TIMEOUT_MS: string;
}

/** "A transaction corresponding to a refund, downgrade, or adjustment of an app charge." */
export interface AppSaleAdjustment {
  id: string;
  createdAt: string;
  /** The app charge: for a subscription, gid://shopify/AppSubscription/... (null before September 2020). */
  chargeId: string | null;
  /** What the merchant got back, excluding taxes (negative). */
  grossAmount: Money | null;
  netAmount: Money;
  shop: { myshopifyDomain: string } | null;
}

/** The GraphQL document sent to the Partner API, exactly as sent (validated against contracts/specs/shopify-partner-2026-07.introspection.json.gz). */
export const PARTNER_DOCUMENTS = {
  appSaleAdjustments: `query AppSaleAdjustments($appId: ID!, $createdAtMin: DateTime, $after: String) {
  transactions(appId: $appId, types: [APP_SALE_ADJUSTMENT], createdAtMin: $createdAtMin, first: 100, after: $after) {
    edges { cursor node { id createdAt ... on AppSaleAdjustment { chargeId grossAmount { amount currencyCode } netAmount { amount currencyCode } shop { myshopifyDomain } } } }
    pageInfo { hasNextPage }
  }
}`,
} as const;

/** Whether the Partner API is configured (an organization URL, our app and a token). */
export function hasPartnerApi(env: ShopifyPartnerEnv): boolean {
  return Boolean(env.SHOPIFY_PARTNER_API_URL && env.SHOPIFY_PARTNER_APP_ID && env.SHOPIFY_PARTNER_ACCESS_TOKEN);
}

/**
 * One page (up to 100, oldest first) of our app's AppSaleAdjustment transactions created at or after
 * `createdAtMin`, from the cursor `after`. The Partner API allows 4 requests a second; its only caller, the
 * cron, pages one request at a time, and a refusal (429 included) is thrown: the next run reads again.
 */
export async function appSaleAdjustments(
  env: ShopifyPartnerEnv,
  input: { createdAtMin: string; after: string | null },
): Promise<{ adjustments: (AppSaleAdjustment & { cursor: string })[]; hasNextPage: boolean }> {
  const { response, text } = await shopifyFetch(env, env.SHOPIFY_PARTNER_API_URL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-shopify-access-token": env.SHOPIFY_PARTNER_ACCESS_TOKEN ?? "" },
    body: JSON.stringify({
      query: PARTNER_DOCUMENTS.appSaleAdjustments,
      variables: { appId: env.SHOPIFY_PARTNER_APP_ID, createdAtMin: input.createdAtMin, after: input.after },
    }),
  });
  if (!response.ok) throw new ShopifyError(response.status === 429 ? "throttled" : "http", response.status, errorText(text));
  let body: GraphqlBody<{ transactions: { edges: { cursor: string; node: AppSaleAdjustment }[]; pageInfo: { hasNextPage: boolean } } }>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ShopifyError("http", 502, "The Partner API answered something that is not JSON");
  }
  if (body.errors?.length || !body.data)
    throw new ShopifyError("graphql", response.status, (body.errors ?? [{ message: "no data" }]).map((error) => error.message).join("; "));
  const { edges, pageInfo } = body.data.transactions;
  return { adjustments: edges.map((edge) => ({ ...edge.node, cursor: edge.cursor })), hasNextPage: pageInfo.hasNextPage };
}
