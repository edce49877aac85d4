import { and, eq, isNull } from "drizzle-orm";
import type * as v from "valibot";
import { REDEEM_CODE_ALPHABET, type CreateRedeemCodesBody, type RedeemResult } from "../../contracts/plans-api.ts";
import { database } from "../db/client.ts";
import { redeemCodes } from "../db/schema.ts";
import { addMonths, isLifetimePlan, isRecordLive } from "../domain/plans.ts";
import type { Env } from "../env.ts";
import type { User } from "./accounts.ts";
import { planById, planRecordsOf, savePlanRecord } from "./billing.ts";
import { ServiceError } from "./errors.ts";

/**
 * Redeem codes (spec section 7, redeemPurchaseCode). A code grants a plan for
 * good (months null, e.g. Lifetime) or for a number of months, and is used
 * once: redeeming claims the row with one conditional UPDATE, so of two
 * simultaneous redemptions exactly one wins. The grant is a plan record
 * (provider "code") like any payment, so the user's plan is derived the same
 * way (docs/decisions/013-billing.md).
 */

/** Bound parameters per inserted row (code, plan, months, batch, creator): D1 allows 100 per query. */
const ROWS_PER_INSERT = 19;

function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // 256 is a multiple of the alphabet's 32 letters: every letter is equally likely.
  const letters = Array.from(bytes, (byte) => REDEEM_CODE_ALPHABET[byte % REDEEM_CODE_ALPHABET.length]).join("");
  return letters.match(/.{4}/g)!.join("-");
}

/** POST /api/admin/redeemCodes: a batch of new codes for a plan (admins only). */
export async function createRedeemCodes(env: Env, admin: User, input: v.InferOutput<typeof CreateRedeemCodesBody>): Promise<{ batchId: string; planId: string; months: number | null; codes: string[] }> {
  if (admin.role !== "admin") throw new ServiceError(403, "Only admins can create redeem codes.");
  const plan = await planById(env, input.planId);
  if (!plan) throw new ServiceError(404, "No such plan");
  if (plan.billingPeriod === "none") throw new ServiceError(400, "planId must be a paid plan", "planId");
  const months = input.months ?? null;
  if (months === null && !isLifetimePlan(plan)) throw new ServiceError(400, "months is required for a plan that is not a lifetime plan", "months");
  if (months !== null && isLifetimePlan(plan)) throw new ServiceError(400, "A lifetime plan is granted for good: leave months out", "months");
  const batchId = crypto.randomUUID();
  const codes = [...new Set(Array.from({ length: input.count }, newCode))];
  const db = database(env.DB);
  const rows = codes.map((code) => ({ code, planId: plan.id, months, batchId, createdBy: admin.id }));
  const inserts = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) inserts.push(db.insert(redeemCodes).values(rows.slice(i, i + ROWS_PER_INSERT)));
  const [first, ...rest] = inserts;
  await db.batch([first!, ...rest]);
  return { batchId, planId: plan.id, months, codes };
}

/** POST /api/subscriptions/redeemPurchaseCode: the code's plan for the caller; the code is used up. */
export async function redeemPurchaseCode(env: Env, user: User, input: { redemptionCode: string }, now = Date.now()): Promise<RedeemResult> {
  const db = database(env.DB);
  const code = input.redemptionCode;
  const row = await db.query.redeemCodes.findFirst({ where: eq(redeemCodes.code, code) });
  if (!row) throw new ServiceError(404, "This code does not exist. Please check it and try again.");
  if (row.redeemedAt !== null) throw new ServiceError(409, "This code has already been redeemed.");
  const plan = await planById(env, row.planId);
  if (!plan) throw new ServiceError(404, "This code does not exist. Please check it and try again.");
  if (isLifetimePlan(plan) && (await planRecordsOf(env, user.id)).some((record) => record.planId === plan.id && isRecordLive(record, now))) {
    throw new ServiceError(409, `You already have the ${plan.name} plan.`);
  }
  // The claim: only one UPDATE can find the code unredeemed.
  const claimed = await db
    .update(redeemCodes)
    .set({ redeemedBy: user.id, redeemedAt: now })
    .where(and(eq(redeemCodes.code, code), isNull(redeemCodes.redeemedAt)))
    .returning({ code: redeemCodes.code });
  if (claimed.length === 0) throw new ServiceError(409, "This code has already been redeemed.");
  try {
    const months = row.months;
    const profileUpdates = await savePlanRecord(
      env,
      user.id,
      months === null
        ? { provider: "code", providerRef: code, kind: "lifetime", planId: plan.id, status: "active", startedAt: now, periodStart: now, periodEnd: null, cancelAtPeriodEnd: false, endedAt: null, trialEnd: null }
        : {
            provider: "code",
            providerRef: code,
            kind: "subscription",
            planId: plan.id,
            status: "active",
            startedAt: now,
            periodStart: now,
            // A code's months do not renew: the plan runs to its end like a cancelled subscription.
            periodEnd: addMonths(now, months),
            cancelAtPeriodEnd: true,
            endedAt: null,
            trialEnd: null,
          },
      now,
    );
    const what = months === null ? `the ${plan.name} plan` : `${months} ${months === 1 ? "month" : "months"} of the ${plan.name} plan`;
    return { message: `Your code has been redeemed: you now have ${what}.`, planId: plan.id, planName: plan.name, months, profileUpdates };
  } catch (error) {
    // Give the code back so the user can try again.
    await db.update(redeemCodes).set({ redeemedBy: null, redeemedAt: null }).where(and(eq(redeemCodes.code, code), eq(redeemCodes.redeemedBy, user.id)));
    throw error;
  }
}
