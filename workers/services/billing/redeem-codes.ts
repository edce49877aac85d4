import { and, eq, isNull, sql } from "drizzle-orm";
import type * as v from "valibot";
import {
  CODE_ALREADY_YOURS_MESSAGE,
  CODE_ATTEMPTS_MESSAGE,
  CODE_DISABLED_MESSAGE,
  CODE_EXPIRED_MESSAGE,
  CODE_NOT_VALID_MESSAGE,
  REDEEM_CODE_ALPHABET,
  type CreateRedeemCodesBody,
  type RedeemResult,
} from "../../../contracts/billing/plans-api.ts";
import { database } from "../../db/client.ts";
import { redeemCodeBatches, redeemCodes } from "../../db/schema.ts";
import { addMonths, isLifetimePlan, isRecordLive } from "../../domain/plans.ts";
import type { Env } from "../../env.ts";
import type { RequestMeta, User } from "../accounts/accounts.ts";
import { actorOf, auditStatement } from "../admin/admin-audit.ts";
import { planRecordsOf, savePlanRecord, type PlanRecordInput } from "./billing.ts";
import { planById, type Plan } from "./plan-lookups.ts";
import { ServiceError } from "../core/errors.ts";
import { consumeRateLimits, RATE_LIMITS, RateLimited, waitBeforeTrying } from "../accounts/rate-limit.ts";

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

/** A plan's months in words: "3 months of the Starter plan", "the Lifetime plan". */
export function planGrantText(planName: string, months: number | null): string {
  return months === null ? `the ${planName} plan` : `${months} ${months === 1 ? "month" : "months"} of the ${planName} plan`;
}

/**
 * POST /api/admin/redeemCodes: a batch of new codes for a plan (admins only).
 * The batch row, its codes and the audit entry are written in one D1 batch.
 */
export async function createRedeemCodes(
  env: Env,
  admin: User,
  input: v.InferOutput<typeof CreateRedeemCodesBody>,
  now = Date.now(),
): Promise<{ batchId: string; planId: string; months: number | null; expiresAt: number | null; codes: string[] }> {
  if (admin.role !== "admin") throw new ServiceError(403, "Only admins can create redeem codes.");
  const plan = await planById(env, input.planId);
  if (!plan) throw new ServiceError(404, "No such plan");
  if (plan.billingPeriod === "none") throw new ServiceError(400, "planId must be a paid plan", "planId");
  const months = input.months ?? null;
  if (months === null && !isLifetimePlan(plan)) throw new ServiceError(400, "months is required for a plan that is not a lifetime plan", "months");
  if (months !== null && isLifetimePlan(plan)) throw new ServiceError(400, "A lifetime plan is granted for good: leave months out", "months");
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && expiresAt <= now) throw new ServiceError(400, "The last day to redeem must be in the future.", "expiresAt");
  const note = input.note ?? "";
  const batchId = crypto.randomUUID();
  // 80 random bits per code: distinct in practice; a repeat inside the batch is drawn again.
  const unique = new Set<string>();
  while (unique.size < input.count) unique.add(newCode());
  const codes = [...unique];
  const db = database(env.DB);
  const rows = codes.map((code) => ({ code, planId: plan.id, months, batchId, createdBy: admin.id }));
  const inserts = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) inserts.push(db.insert(redeemCodes).values(rows.slice(i, i + ROWS_PER_INSERT)));
  const after = { planId: plan.id, planName: plan.name, months, count: codes.length, expiresAt, note };
  await db.batch([
    db
      .insert(redeemCodeBatches)
      .values({ id: batchId, planId: plan.id, months, codeCount: codes.length, expiresAt, note, createdBy: admin.id, createdAt: now }),
    ...inserts,
    auditStatement(env, actorOf(admin), {
      action: "codes.create",
      targetKind: "redeem-batch",
      targetId: batchId,
      summary: `Created ${codes.length} redeem ${codes.length === 1 ? "code" : "codes"} for ${planGrantText(plan.name, months)}${note ? ` (${note})` : ""}.`,
      before: null,
      after,
    }),
  ]);
  return { batchId, planId: plan.id, months, expiresAt, codes };
}

/** Code look-ups that failed (unknown, or used by someone else) for this caller and client address: decision 083. */
const lookupFailures = (userId: string, meta: Pick<RequestMeta, "ip">): Parameters<typeof waitBeforeTrying>[1] => [
  [RATE_LIMITS.redeemFailuresPerUser, userId],
  [RATE_LIMITS.redeemFailuresPerIp, meta.ip],
];

/**
 * A code the user could redeem now, with its plan and months; the error the redemption would answer otherwise.
 * A code that is unknown or someone else's answers the same, and counts against the caller's and the client
 * address's hourly allowance of such failures; past it, nothing is looked up until the hour ends (decision 083).
 * Disabled, expired, or a lifetime plan the user already has keep their own words. Nothing is claimed.
 */
export async function redeemableCode(
  env: Env,
  userId: string,
  code: string,
  meta: Pick<RequestMeta, "ip">,
  now = Date.now(),
): Promise<{ code: string; plan: Plan; months: number | null }> {
  const failures = lookupFailures(userId, meta);
  const waitSeconds = await waitBeforeTrying(env.DB, failures, now);
  if (waitSeconds > 0) throw new RateLimited(waitSeconds, CODE_ATTEMPTS_MESSAGE);
  const [found] = await database(env.DB)
    .select({ code: redeemCodes, batch: redeemCodeBatches })
    .from(redeemCodes)
    .leftJoin(redeemCodeBatches, eq(redeemCodeBatches.id, redeemCodes.batchId))
    .where(eq(redeemCodes.code, code));
  if (!found || (found.code.redeemedAt !== null && found.code.redeemedBy !== userId)) return notValid(env, failures, now);
  const row = found.code;
  if (row.redeemedAt !== null) throw new ServiceError(409, CODE_ALREADY_YOURS_MESSAGE);
  if (row.disabledAt !== null || found.batch?.disabledAt != null) throw new ServiceError(409, CODE_DISABLED_MESSAGE);
  if (found.batch?.expiresAt != null && found.batch.expiresAt <= now) throw new ServiceError(409, CODE_EXPIRED_MESSAGE);
  const plan = await planById(env, row.planId);
  if (!plan) return notValid(env, failures, now);
  if (isLifetimePlan(plan) && (await planRecordsOf(env, userId)).some((record) => record.planId === plan.id && isRecordLive(record, now))) {
    throw new ServiceError(409, `You already have the ${plan.name} plan.`);
  }
  return { code, plan, months: row.months };
}

/** Counts a failed look-up and answers the one refusal that unknown and used codes share. */
async function notValid(env: Env, failures: Parameters<typeof waitBeforeTrying>[1], now: number): Promise<never> {
  await consumeRateLimits(env.DB, failures, now).catch((error) => {
    if (!(error instanceof RateLimited)) throw error;
  });
  throw new ServiceError(404, CODE_NOT_VALID_MESSAGE);
}

/** The plan record a redeemed code is: the plan for good, or months of it that end without renewing. */
export function redeemedRecord(code: string, plan: Plan, months: number | null, now: number): PlanRecordInput {
  const base = {
    provider: "code" as const,
    providerRef: code,
    planId: plan.id,
    status: "active",
    startedAt: now,
    periodStart: now,
    endedAt: null,
    trialEnd: null,
  };
  return months === null
    ? { ...base, kind: "lifetime", periodEnd: null, cancelAtPeriodEnd: false }
    : // A code's months do not renew: the plan runs to its end like a cancelled subscription.
      { ...base, kind: "subscription", periodEnd: addMonths(now, months), cancelAtPeriodEnd: true };
}

/** POST /api/subscriptions/redeemPurchaseCode: the code's plan for the caller; the code is used up. */
export async function redeemPurchaseCode(
  env: Env,
  user: User,
  input: { redemptionCode: string },
  meta: Pick<RequestMeta, "ip">,
  now = Date.now(),
): Promise<RedeemResult> {
  const db = database(env.DB);
  const { code, plan, months } = await redeemableCode(env, user.id, input.redemptionCode, meta, now);
  // The claim: only one UPDATE can find the code unredeemed.
  const claimed = await db
    .update(redeemCodes)
    .set({ redeemedBy: user.id, redeemedAt: now })
    // Still unused, not disabled (the code or its batch) and not expired at this moment: an admin's
    // disabling between the read above and this claim wins.
    .where(
      and(
        eq(redeemCodes.code, code),
        isNull(redeemCodes.redeemedAt),
        isNull(redeemCodes.disabledAt),
        sql`NOT EXISTS (SELECT 1 FROM ${redeemCodeBatches} WHERE ${redeemCodeBatches.id} = ${redeemCodes.batchId} AND (${redeemCodeBatches.disabledAt} IS NOT NULL OR ${redeemCodeBatches.expiresAt} <= ${now}))`,
      ),
    )
    .returning({ code: redeemCodes.code });
  if (claimed.length === 0) {
    // Lost the claim: someone redeemed it just now (the same answer as any used code), or an admin disabled it meanwhile.
    const current = await db.query.redeemCodes.findFirst({ where: eq(redeemCodes.code, code) });
    if (current?.redeemedAt != null) return notValid(env, lookupFailures(user.id, meta), now);
    throw new ServiceError(409, CODE_DISABLED_MESSAGE);
  }
  try {
    const profileUpdates = await savePlanRecord(env, user.id, redeemedRecord(code, plan, months, now), now);
    return {
      message: `Your code has been redeemed: you now have ${planGrantText(plan.name, months)}.`,
      planId: plan.id,
      planName: plan.name,
      months,
      profileUpdates,
    };
  } catch (error) {
    // Give the code back so the user can try again.
    await db
      .update(redeemCodes)
      .set({ redeemedBy: null, redeemedAt: null })
      .where(and(eq(redeemCodes.code, code), eq(redeemCodes.redeemedBy, user.id)));
    throw error;
  }
}
