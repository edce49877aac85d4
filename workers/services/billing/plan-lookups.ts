import { eq } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { plans } from "../../db/schema.ts";
import type { Env } from "../../env.ts";

// The plans on sale (rows of the plans table), looked up by id or by Stripe price: used by
// billing and by the billing e-mails, which billing sends, so neither imports the other for it.

export type Plan = typeof plans.$inferSelect;

export async function planById(env: Env, planId: string): Promise<Plan | null> {
  return (await database(env.DB).query.plans.findFirst({ where: eq(plans.id, planId) })) ?? null;
}

export async function planByStripePrice(env: Env, priceId: string): Promise<Plan | null> {
  return (await database(env.DB).query.plans.findFirst({ where: eq(plans.stripePriceId, priceId) })) ?? null;
}
