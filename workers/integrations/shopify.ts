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

/** How a Shopify call failed: GraphQL or user errors, an HTTP status, no answer, or no answer in time. */
export class ShopifyError extends Error {
  readonly kind: "graphql" | "http" | "network" | "timeout";
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

export function adminGraphqlUrl(env: ShopifyEnv, shop: string): string {
  return `${env.SHOPIFY_ADMIN_URL.replace("{shop}", shop).replace(/\/+$/, "")}/${env.SHOPIFY_API_VERSION}/graphql.json`;
}

async function graphql<T>(env: ShopifyEnv, shop: string, accessToken: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const timeoutMs = Number(env.SHOPIFY_TIMEOUT_MS) > 0 ? Number(env.SHOPIFY_TIMEOUT_MS) : 15_000;
  let response: Response;
  try {
    response = await fetch(adminGraphqlUrl(env, shop), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-shopify-access-token": accessToken,
      },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new ShopifyError(timedOut ? "timeout" : "network", null, timedOut ? `no answer within ${timeoutMs} ms` : String(error));
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new ShopifyError(timedOut ? "timeout" : "network", null, String(error));
  }
  if (!response.ok) throw new ShopifyError("http", response.status, errorText(text));
  let body: { data?: T; errors?: { message: string }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new ShopifyError("http", 502, "Shopify answered something that is not JSON");
  }
  if (body.errors?.length || !body.data)
    throw new ShopifyError("graphql", response.status, (body.errors ?? [{ message: "no data" }]).map((error) => error.message).join("; "));
  return body.data;
}

/** Shopify's error bodies: {"errors": "..."} or {"errors": {...}} or {"errors": [...]}. */
function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    const errors = parsed.errors;
    if (typeof errors === "string") return errors;
    if (Array.isArray(errors))
      return errors.map((error) => (typeof error === "string" ? error : (error as { message?: string }).message ?? JSON.stringify(error))).join("; ");
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
  }>(
    env,
    shop,
    accessToken,
    `
      mutation AppSubscriptionCreate($name: String!, $lineItems: [AppSubscriptionLineItemInput!]!, $returnUrl: URL!, $trialDays: Int, $test: Boolean) {
        appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, trialDays: $trialDays, test: $test) {
          userErrors {
            field
            message
          }
          appSubscription {
            id
            status
          }
          confirmationUrl
        }
      }
    `,
    {
      name: input.name,
      returnUrl: input.returnUrl,
      trialDays: input.trialDays,
      test: input.test,
      lineItems: [
        {
          plan: {
            appRecurringPricingDetails: {
              price: { amount: input.price, currencyCode: "USD" },
              interval: input.interval,
            },
          },
        },
      ],
    },
  );
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
  }>(env, shop, accessToken, `query ActiveSubscriptions { currentAppInstallation { activeSubscriptions { ${SUBSCRIPTION_FIELDS} } } }`, {});
  return data.currentAppInstallation.activeSubscriptions;
}

export async function cancelAppSubscription(env: ShopifyEnv, shop: string, accessToken: string, id: string): Promise<AppSubscription> {
  const data = await graphql<{
    appSubscriptionCancel: {
      appSubscription: AppSubscription | null;
      userErrors: { field: string[] | null; message: string }[];
    };
  }>(
    env,
    shop,
    accessToken,
    `mutation AppSubscriptionCancel($id: ID!) { appSubscriptionCancel(id: $id, prorate: false) { userErrors { field message } appSubscription { ${SUBSCRIPTION_FIELDS} } } }`,
    { id },
  );
  throwUserErrors(data.appSubscriptionCancel.userErrors);
  if (!data.appSubscriptionCancel.appSubscription) throw new ShopifyError("graphql", 200, "appSubscriptionCancel answered no subscription");
  return data.appSubscriptionCancel.appSubscription;
}

/** One AppSubscription of the store by its gid, whatever its status (node query); null when the store has no such charge. */
export async function appSubscription(env: ShopifyEnv, shop: string, accessToken: string, id: string): Promise<AppSubscription | null> {
  const data = await graphql<{ node: AppSubscription | null }>(
    env,
    shop,
    accessToken,
    `query AppSubscription($id: ID!) { node(id: $id) { ... on AppSubscription { ${SUBSCRIPTION_FIELDS} } } }`,
    { id },
  );
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
