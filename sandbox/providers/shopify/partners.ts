import type { Context, Hono } from "hono";
import { answer, partner, prepare } from "./graphql.ts";

/**
 * The Shopify stand-in's Partner API (docs/decisions/077-refunds-and-disputes.md): the Partner organization's
 * transactions of our app. Shopify bills app charges itself and sends no webhook when it refunds one (a
 * merchant's refund is made by Shopify support; an app cannot make one); each refund, downgrade or adjustment
 * is an AppSaleAdjustment transaction, each billed interval an AppSubscriptionSale.
 *
 * - `POST /partners/:organization/api/:version/graphql.json` {query, variables}, X-Shopify-Access-Token a
 *   Partner API client token (prtapi_...): `transactions(appId, types, createdAtMin, createdAtMax, shopId,
 *   myshopifyDomain, first, after)` with `edges { cursor node }` and `pageInfo`, oldest first. Like the
 *   Admin API stand-in it validates each document against (a cut of) Shopify's published Partner API schema
 *   and answers the fields it selects (./graphql.ts); `__typename` tells the transaction types apart.
 */

export const PARTNER_APP_ID = "gid://partners/App/7654321";
const REVENUE_SHARE = 0.15;

export interface Money {
  amount: string;
  currencyCode: string;
}

export interface PartnerTransaction {
  __typename: "AppSubscriptionSale" | "AppSaleAdjustment";
  id: string;
  createdAt: string;
  chargeId: string;
  grossAmount: Money;
  netAmount: Money;
  shopifyFee: Money;
  shop: { id: string; myshopifyDomain: string; name: string };
  app: { id: string; name: string };
  billingInterval?: "EVERY_30_DAYS" | "ANNUAL";
}

export interface PartnerState {
  nextId: number;
  transactions: PartnerTransaction[];
}

export function createPartnerState(): PartnerState {
  return { nextId: 5_100_000_000 + (Date.now() % 1_000_000) * 100, transactions: [] };
}

const money = (cents: number, currencyCode: string): Money => ({ amount: (cents / 100).toFixed(2), currencyCode });
const cents = (amount: string) => Math.round(Number(amount) * 100);

/** A transaction of our app for a charge of `shop`: a sale (positive) or an adjustment (negative), Shopify keeping its share. */
export function recordTransaction(
  partner: PartnerState,
  fields: {
    type: PartnerTransaction["__typename"];
    chargeId: string;
    shop: string;
    grossCents: number;
    currencyCode: string;
    billingInterval?: PartnerTransaction["billingInterval"];
  },
): PartnerTransaction {
  const fee = Math.round(fields.grossCents * REVENUE_SHARE);
  const transaction: PartnerTransaction = {
    __typename: fields.type,
    id: `gid://partners/${fields.type}/${(partner.nextId += 1)}`,
    createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    chargeId: fields.chargeId,
    grossAmount: money(fields.grossCents, fields.currencyCode),
    netAmount: money(fields.grossCents - fee, fields.currencyCode),
    shopifyFee: money(fee, fields.currencyCode),
    shop: {
      id: `gid://partners/Shop/${[...fields.shop].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 1_000_000_007, 7)}`,
      myshopifyDomain: fields.shop,
      name: fields.shop.replace(/\.myshopify\.com$/, ""),
    },
    app: { id: PARTNER_APP_ID, name: "Pinboard Studio" },
    ...(fields.billingInterval ? { billingInterval: fields.billingInterval } : {}),
  };
  partner.transactions.push(transaction);
  return transaction;
}

/** What is left to refund of a charge's interval that began at `since` (its sale less the adjustments after it). */
export function refundableCents(partner: PartnerState, chargeId: string, since: string): number {
  const of = partner.transactions.filter((transaction) => transaction.chargeId === chargeId && transaction.createdAt >= since);
  return of.reduce((sum, transaction) => sum + cents(transaction.grossAmount.amount), 0);
}

const TYPE_OF: Record<string, PartnerTransaction["__typename"]> = { APP_SUBSCRIPTION_SALE: "AppSubscriptionSale", APP_SALE_ADJUSTMENT: "AppSaleAdjustment" };

export function partnerRoutes(app: Hono, partnerOf: () => PartnerState) {
  app.post("/partners/:organization/api/:version/graphql.json", async (c: Context) => {
    const token = c.req.header("x-shopify-access-token") ?? "";
    if (!/^prtapi_[A-Za-z0-9_]{8,}$/.test(token))
      return c.json({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }, 401);
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = await c.req.json();
    } catch {
      return c.json({ errors: [{ message: "Invalid JSON in request body" }] }, 400);
    }
    const query = typeof body.query === "string" ? body.query : "";
    const variables = body.variables && typeof body.variables === "object" ? (body.variables as Record<string, unknown>) : {};
    // The document is validated against the Partner API schema (./graphql.ts); `transactions` is its only root field here.
    const checked = prepare(partner(), query, variables, typeof body.operationName === "string" ? body.operationName : null);
    if ("errors" in checked) return c.json({ errors: checked.errors });
    const args = checked.prepared.roots.find((root) => root.name === "transactions")?.args ?? {};
    if (args.last != null || args.before != null) return c.json({ errors: [{ message: "The stand-in pages transactions forward only (first, after)" }] });
    const first = (args.first ?? 50) as number;
    if (!Number.isInteger(first) || first < 1 || first > 100) return c.json({ errors: [{ message: "first must be between 1 and 100" }] });
    const text = (name: string) => (typeof args[name] === "string" ? (args[name] as string) : null);
    const typeNames = Array.isArray(args.types) ? (args.types as string[]) : null;
    const appId = text("appId");
    const createdAtMin = text("createdAtMin");
    const createdAtMax = text("createdAtMax");
    const shop = text("myshopifyDomain");
    const after = text("after");
    const matching = partnerOf().transactions.filter(
      (transaction) =>
        (!appId || transaction.app.id === appId) &&
        (!typeNames || typeNames.some((name) => TYPE_OF[name] === transaction.__typename)) &&
        (!createdAtMin || Date.parse(transaction.createdAt) >= Date.parse(createdAtMin)) &&
        (!createdAtMax || Date.parse(transaction.createdAt) <= Date.parse(createdAtMax)) &&
        (!shop || transaction.shop.myshopifyDomain === shop),
    );
    const start = after ? matching.findIndex((transaction) => transaction.id === atob(after)) + 1 : 0;
    const page = matching.slice(start, start + first);
    return c.json(
      answer(checked.prepared, {
        transactions: {
          edges: page.map((node) => ({ cursor: btoa(node.id), node })),
          pageInfo: { hasNextPage: start + first < matching.length, hasPreviousPage: start > 0 },
        },
      }),
    );
  });
}
