import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import * as v from "valibot";
import { TemplateDesign } from "../../contracts/content/template.ts";
import { normalizeDesign, storedDesign } from "../domain/templates.ts";
import { colorPalettes, contentEntries, plans, templateCategories, templates } from "./schema.ts";
import { PLAN_ROWS } from "./seed-data.ts";
import { SEED_CONTENT } from "./seed/content.ts";
import { COLOR_PALETTES } from "./seed/palettes.ts";
import { STANDARD_TEMPLATES } from "./seed/standard-templates.ts";

/** Seeded rows carry this fixed time, so seeding again changes nothing. */
const SEEDED_AT = Date.UTC(2026, 10, 1);

/** Standard template rows: designs validated and normalised once, here. */
export function standardTemplateRows() {
  return STANDARD_TEMPLATES.map((seed, position) => {
    const design = normalizeDesign(v.parse(TemplateDesign, seed.design));
    return {
      id: seed.id,
      ownerId: null,
      title: design.title,
      design: storedDesign(design),
      categories: design.categories,
      isStandard: true,
      isShared: false,
      position,
      updatedAt: SEEDED_AT,
    };
  });
}

function standardCategoryRows(rows: ReturnType<typeof standardTemplateRows>) {
  const names = [...new Set(rows.flatMap((row) => row.categories))].sort();
  return names.map((name, position) => ({
    id: `std-cat-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
    ownerId: null,
    name,
    nameKey: name.toLowerCase(),
    position,
    createdAt: SEEDED_AT,
  }));
}

/**
 * The seed as SQL statements: upserts that only touch rows whose content
 * differs, so running it twice changes nothing. `npm run db:seed` (and
 * `npm start`) runs them with `wrangler d1 execute --local`, the deployment
 * guide with `--remote`, the workers tests through the D1 binding.
 */
export function seedStatements(): string[] {
  // Only builds SQL text; it never talks to a database.
  const db = drizzle(async () => ({ rows: [] }));
  const templateRows = standardTemplateRows();
  /** Only rows whose content differs are updated. */
  const changed = (...columns: string[]) =>
    sql.raw(`(${columns.map((name) => `"${name}"`).join(", ")}) IS NOT (${columns.map((name) => `excluded."${name}"`).join(", ")})`);
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
          stripePriceId: sql`excluded.stripe_price_id`,
        },
        setWhere: changed("name", "tier", "billing_period", "price", "credits_per_month", "free_trial_days", "plan_order", "stripe_price_id"),
      }),
    db
      .insert(colorPalettes)
      .values(COLOR_PALETTES.map((palette, position) => ({ id: palette.id, name: palette.name, colors: palette.colors, position })))
      .onConflictDoUpdate({
        target: colorPalettes.id,
        set: { name: sql`excluded.name`, colors: sql`excluded.colors`, position: sql`excluded.position` },
        setWhere: changed("name", "colors", "position"),
      }),
    db
      .insert(templateCategories)
      .values(standardCategoryRows(templateRows))
      .onConflictDoUpdate({
        target: templateCategories.id,
        set: { name: sql`excluded.name`, nameKey: sql`excluded.name_key` },
        setWhere: changed("name", "name_key"),
      }),
    // Standard templates, in chunks (SQLite limits the variables of one statement). A row an admin has
    // changed since (its updated_at is no longer the seed's) is left alone, and so are the order and the
    // published state, which admins set (decision 053); a new template is placed where the seed lists it.
    ...chunks(templateRows, 20).map((rows) =>
      db
        .insert(templates)
        .values(rows)
        .onConflictDoUpdate({
          target: templates.id,
          set: {
            title: sql`excluded.title`,
            design: sql`excluded.design`,
            categories: sql`excluded.categories`,
            isStandard: sql`excluded.is_standard`,
            updatedAt: sql`excluded.updated_at`,
          },
          setWhere: sql`${templates.updatedAt} = ${sql.raw(String(SEEDED_AT))} AND ${changed("title", "design", "categories", "is_standard")}`,
        }),
    ),
    // Blog posts and pages: inserted once, never overwritten (an admin may have edited or deleted them since).
    ...chunks(SEED_CONTENT, 4).map((rows) =>
      db
        .insert(contentEntries)
        .values(rows.map((row) => ({ ...row, status: "published" as const, updatedAt: row.publishedAt, createdAt: row.publishedAt })))
        .onConflictDoNothing(),
    ),
  ];
  return queries.map((query) => inlineParams(query.toSQL()));
}

export function seedSql(): string {
  return seedStatements()
    .map((statement) => `${statement};`)
    .join("\n");
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

function inlineParams({ sql: text, params }: { sql: string; params: unknown[] }) {
  let i = 0;
  return text.replace(/\?/g, () => sqlLiteral(params[i++]));
}

export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replace(/'/g, "''")}'`;
}
