import { eq } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { approvalSettings } from "../../db/schema.ts";
import type { Env } from "../../env.ts";

/** Whether this profile's new pins wait for a reviewer's approval (docs/decisions/052-post-approvals.md). */
export async function approvalRequired(env: Pick<Env, "DB">, profileId: string): Promise<boolean> {
  const row = await database(env.DB).query.approvalSettings.findFirst({ where: eq(approvalSettings.profileId, profileId) });
  return row?.required ?? false;
}
