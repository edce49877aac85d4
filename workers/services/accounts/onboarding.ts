import { sql } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import type { OnboardingStepName } from "../../domain/onboarding.ts";

/** Whose step: a user id, or the signed-in user (whose ticked steps spare a write when the step is ticked already). */
type StepOwner = string | { id: string; onboardingDone: readonly string[] };

/**
 * Ticks one onboarding step for a user, atomically (one statement, no
 * read-modify-write race). Features call it when the user does the step
 * (docs/decisions/025-onboarding-and-credits-in-sight.md); users who did it
 * before were ticked by migrations/0012_onboarding_backfill.sql.
 */
export async function tickOnboardingStep(d1: D1Database, owner: StepOwner, step: OnboardingStepName) {
  if (typeof owner !== "string" && owner.onboardingDone.includes(step)) return;
  const userId = typeof owner === "string" ? owner : owner.id;
  await database(d1).run(sql`
    UPDATE ${users}
    SET onboarding_done = (
      SELECT json_group_array(value) FROM (SELECT value FROM json_each(${users.onboardingDone}) UNION SELECT ${step})
    )
    WHERE ${users.id} = ${userId}
      AND NOT EXISTS (SELECT 1 FROM json_each(${users.onboardingDone}) WHERE value = ${step})`);
}
