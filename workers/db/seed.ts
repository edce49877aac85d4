import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { plans } from "./schema.ts";
import { PLAN_ROWS } from "./seed-data.ts";

/**
 * The seed as SQL text: upserts that only touch rows whose content differs, so
 * running it twice changes nothing. `npm run db:seed` (and `npm start`) runs it
 * with `wrangler d1 execute --local`, the deployment guide with `--remote`.
 */
export function seedStatements(): string[] {
  // Only builds SQL text; it never talks to a database.
  const db = drizzle(async () => ({ rows: [] }));
  const queries = [
    db
      .insert(plans)
      .values(PLAN_ROWS)
      .onConflictDoUpdate({
        target: plans.id,
        set: {
          name: sql`excluded.name`,
          tier: sql`excluded.tier`,
          billingPeriod: sql`excluded.billing_period`,
          price: sql`excluded.price`,
          creditsPerMonth: sql`excluded.credits_per_month`,
          freeTrialDays: sql`excluded.free_trial_days`,
          planOrder: sql`excluded.plan_order`,
        },
        setWhere: sql`(${plans.name}, ${plans.tier}, ${plans.billingPeriod}, ${plans.price}, ${plans.creditsPerMonth}, ${plans.freeTrialDays}, ${plans.planOrder}) IS NOT (excluded.name, excluded.tier, excluded.billing_period, excluded.price, excluded.credits_per_month, excluded.free_trial_days, excluded.plan_order)`,
      }),
  ];
  return queries.map((query) => inlineParams(query.toSQL()));
}

export function seedSql(): string {
  return seedStatements().map((statement) => `${statement};`).join("\n");
}

function inlineParams({ sql: text, params }: { sql: string; params: unknown[] }) {
  let i = 0;
  return text.replace(/\?/g, () => sqlLiteral(params[i++]));
}

function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replace(/'/g, "''")}'`;
}
