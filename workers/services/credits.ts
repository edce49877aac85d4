import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { CreditCategory, PinDetails } from "../../contracts/credits.ts";
import { database } from "../db/client.ts";
import { creditLedger, pinHistory } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { ServiceError } from "./errors.ts";

/**
 * The one place credits are consumed (spec section 5: the category is
 * required). Every spend is a ledger row, idempotent by its reference, so a
 * retried request never charges twice. The billing issue adds grants, plan
 * balances and the out-of-credits refusal on top of this ledger.
 */
export interface CreditSpend {
  category: CreditCategory;
  amount: number;
  /** Why, for the user's history: "AI title rewrite", "Pin download". */
  reason: string;
  /** Idempotency key; the same reference is charged once. */
  reference?: string;
}

function checkSpend(spend: CreditSpend) {
  if (!spend.category) {
    console.error("Credit spend without a category was refused", { reason: spend.reason });
    throw new ServiceError(400, "category is required", "category");
  }
  if (!(spend.amount >= 0)) throw new ServiceError(400, "amount must not be negative", "amount");
}

function ledgerRow(userId: string, spend: CreditSpend, reference: string) {
  return { id: crypto.randomUUID(), userId, amount: -spend.amount, category: spend.category, reason: spend.reason, reference };
}

/** Records a spend. Answers whether it was charged now (false: this reference was charged before). */
export async function consumeCredits(env: Env, userId: string, spend: CreditSpend): Promise<{ charged: boolean }> {
  checkSpend(spend);
  if (spend.amount === 0) return { charged: false };
  const reference = spend.reference ?? `spend:${crypto.randomUUID()}`;
  const inserted = await database(env.DB)
    .insert(creditLedger)
    .values(ledgerRow(userId, spend, reference))
    .onConflictDoNothing({ target: [creditLedger.userId, creditLedger.reference] })
    .returning({ id: creditLedger.id });
  return { charged: inserted.length > 0 };
}

/**
 * Records a pin in the history and charges its credits together (one D1
 * batch: both rows or neither). Idempotent by reference.
 */
export async function addPinHistory(env: Env, userId: string, details: PinDetails, spend: CreditSpend): Promise<{ charged: boolean; historyId: string }> {
  checkSpend(spend);
  const db = database(env.DB);
  const reference = spend.reference ?? `pin:${crypto.randomUUID()}`;
  const historyId = crypto.randomUUID();
  const history = db
    .insert(pinHistory)
    .values({
      id: historyId,
      userId,
      action: details.action,
      category: spend.category,
      credits: spend.amount,
      title: details.title,
      description: details.description,
      url: details.url,
      imageUrl: details.imageUrl,
      mediaType: details.mediaType,
      boardId: details.boardId,
      boardName: details.boardName,
      pinterestProfile: details.pinterestProfile,
      pinterestPinId: details.pinterestPinId,
      reference,
    })
    .onConflictDoNothing({ target: [pinHistory.userId, pinHistory.reference] })
    .returning({ id: pinHistory.id });
  if (spend.amount === 0) {
    const [rows] = await db.batch([history]);
    return { charged: false, historyId: rows[0]?.id ?? historyId };
  }
  const ledger = db
    .insert(creditLedger)
    .values(ledgerRow(userId, spend, reference))
    .onConflictDoNothing({ target: [creditLedger.userId, creditLedger.reference] })
    .returning({ id: creditLedger.id });
  const [historyRows, ledgerRows] = await db.batch([history, ledger]);
  if (historyRows.length === 0) {
    const existing = await db.query.pinHistory.findFirst({ where: and(eq(pinHistory.userId, userId), eq(pinHistory.reference, reference)), columns: { id: true } });
    return { charged: ledgerRows.length > 0, historyId: existing?.id ?? historyId };
  }
  return { charged: ledgerRows.length > 0, historyId };
}

/** The start of the current credit month (UTC calendar month until billing periods land). */
export function creditMonthStart(now = new Date()): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}

/** Credits spent this credit month, from the ledger (usedPinCredits in the user credentials). */
export async function usedCreditsThisMonth(env: Env, userId: string, now = new Date()): Promise<number> {
  const [row] = await database(env.DB)
    .select({ used: sql<number>`coalesce(-sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), lt(creditLedger.amount, 0), gte(creditLedger.createdAt, creditMonthStart(now))));
  return row?.used ?? 0;
}
