import { sql } from "drizzle-orm";
import { database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { OnboardingStepName } from "../domain/onboarding.ts";

/**
 * Ticks one onboarding step for a user, atomically (one statement, no
 * read-modify-write race). Features call it when the user does the step.
 */
export async function tickOnboardingStep(d1: D1Database, userId: string, step: OnboardingStepName) {
  await database(d1).run(sql`
    UPDATE ${users}
    SET onboarding_done = (
      SELECT json_group_array(value) FROM (SELECT value FROM json_each(${users.onboardingDone}) UNION SELECT ${step})
    )
    WHERE ${users.id} = ${userId}
      AND NOT EXISTS (SELECT 1 FROM json_each(${users.onboardingDone}) WHERE value = ${step})`);
}
