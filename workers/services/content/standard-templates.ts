import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { AdminStandardCategory, AdminStandardTemplate, AdminStandardTemplates } from "../../../contracts/admin/admin-templates.ts";
import type { TemplateDesign } from "../../../contracts/content/template.ts";
import { database } from "../../db/client.ts";
import { templateCategories, templates } from "../../db/schema.ts";
import { isSameSet, reorderWithinCategory } from "../../domain/standard-template-order.ts";
import { normalizeDesign, storedDesign } from "../../domain/templates.ts";
import type { Env } from "../../env.ts";
import type { User } from "../accounts/accounts.ts";
import { actorOf, auditStatement } from "../admin/admin-audit.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * The admin's standard templates and categories (issue 20, decision 053):
 * create (unpublished until published), publish and unpublish, reorder the
 * templates of a category and the categories themselves. Editing and deleting
 * go through the template editor's own calls (templates.ts), which check the
 * admin role and audit a change of a standard template. Every change here
 * writes its audit entry in the same D1 batch.
 */

type TemplateRow = typeof templates.$inferSelect;

/**
 * Cached public pages that show standard templates, purged after a change:
 * the home page's example pins. (The template gallery and /generate need a
 * sign-in, so the edge cache never holds them.)
 */
export const STANDARD_TEMPLATE_PAGES = ["/"];

const NOT_FOUND = "No such standard template";

function toAdminTemplate(row: TemplateRow): AdminStandardTemplate {
  return { templateId: row.id, title: row.title, categories: row.categories, isPublished: row.isPublished, position: row.position, updatedAt: row.updatedAt };
}

/** Every standard template, in the gallery order (then id, for ties). */
async function standardRows(env: Env): Promise<TemplateRow[]> {
  return database(env.DB).select().from(templates).where(eq(templates.isStandard, true)).orderBy(asc(templates.position), asc(templates.id));
}

async function standardCategoryRows(env: Env) {
  return database(env.DB)
    .select()
    .from(templateCategories)
    .where(isNull(templateCategories.ownerId))
    .orderBy(asc(templateCategories.position), asc(templateCategories.name));
}

function inCategory(row: TemplateRow, category: string): boolean {
  const key = category.toLowerCase();
  return row.categories.some((name) => name.toLowerCase() === key);
}

/** GET /api/admin/standardTemplates: all standard templates (published or not) and the standard categories, in order. */
export async function adminStandardTemplates(env: Env): Promise<AdminStandardTemplates> {
  const [rows, categories] = await Promise.all([standardRows(env), standardCategoryRows(env)]);
  return {
    templates: rows.map(toAdminTemplate),
    categories: categories.map(
      (category): AdminStandardCategory => ({
        id: category.id,
        name: category.name,
        position: category.position,
        templateCount: rows.filter((row) => inCategory(row, category.name)).length,
      }),
    ),
  };
}

/** POST /api/admin/standardTemplates: a new standard template, last in the order and unpublished (the admin edits it, then publishes it). */
export async function createStandardTemplate(env: Env, admin: User, design: TemplateDesign): Promise<AdminStandardTemplate> {
  const normalized = normalizeDesign(design);
  const db = database(env.DB);
  const id = crypto.randomUUID();
  const [[row]] = await db.batch([
    db
      .insert(templates)
      .values({
        id,
        ownerId: null,
        title: normalized.title,
        design: storedDesign(normalized),
        categories: normalized.categories,
        isStandard: true,
        isShared: false,
        isPublished: false,
        position: sql`(SELECT coalesce(max(${templates.position}), -1) + 1 FROM ${templates} WHERE ${templates.isStandard} = 1)`,
        updatedAt: Date.now(),
      })
      .returning(),
    auditStatement(env, actorOf(admin), {
      action: "template.create",
      targetKind: "template",
      targetId: id,
      summary: `Created the standard template "${normalized.title}" (not published yet).`,
      before: null,
      after: { title: normalized.title, categories: normalized.categories, isPublished: false },
    }),
  ]);
  return toAdminTemplate(row);
}

/** POST /api/admin/standardTemplates/:templateId/publish: users see it (published) or no longer do. */
export async function setStandardTemplatePublished(env: Env, admin: User, templateId: string, published: boolean): Promise<AdminStandardTemplate> {
  const db = database(env.DB);
  const row = await db.query.templates.findFirst({ where: and(eq(templates.id, templateId), eq(templates.isStandard, true)) });
  if (!row) throw new ServiceError(404, NOT_FOUND);
  if (row.isPublished === published) return toAdminTemplate(row);
  const [[updated]] = await db.batch([
    db.update(templates).set({ isPublished: published }).where(eq(templates.id, templateId)).returning(),
    auditStatement(env, actorOf(admin), {
      action: published ? "template.publish" : "template.unpublish",
      targetKind: "template",
      targetId: templateId,
      summary: published
        ? `Published the standard template "${row.title}": users see it.`
        : `Unpublished the standard template "${row.title}": users no longer see it.`,
      before: { isPublished: row.isPublished },
      after: { isPublished: published },
    }),
  ]);
  return toAdminTemplate(updated);
}

/**
 * POST /api/admin/standardTemplates/reorder: the templates of one category in
 * a new order (all of them: published or not). They take the places they held
 * in the whole order, so other categories keep theirs; positions are then
 * renumbered 0..n-1, only changed rows written.
 */
export async function reorderStandardTemplates(env: Env, admin: User, category: string, templateIds: string[]): Promise<AdminStandardTemplate[]> {
  const rows = await standardRows(env);
  const members = rows.filter((row) => inCategory(row, category));
  if (members.length === 0) throw new ServiceError(404, `No standard template is in the category "${category}"`);
  if (
    !isSameSet(
      members.map((row) => row.id),
      templateIds,
    )
  ) {
    throw new ServiceError(400, `templateIds must list each of the ${members.length} standard templates of "${category}" once`, "templateIds");
  }
  const order = reorderWithinCategory(
    rows.map((row) => row.id),
    templateIds,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const db = database(env.DB);
  const updates = order.flatMap((id, position) =>
    byId.get(id)!.position === position ? [] : [db.update(templates).set({ position }).where(eq(templates.id, id))],
  );
  const titles = (ids: string[]) => ids.map((id) => byId.get(id)!.title);
  await db.batch([
    auditStatement(env, actorOf(admin), {
      action: "templates.reorder",
      targetKind: "template-category",
      targetId: members[0]!.categories.find((name) => name.toLowerCase() === category.toLowerCase()) ?? category,
      summary: `Reordered the ${members.length} standard templates of the category "${category}".`,
      before: { order: titles(members.map((row) => row.id)), templateIds: members.map((row) => row.id) },
      after: { order: titles(templateIds), templateIds },
    }),
    ...updates,
  ]);
  const after = await standardRows(env);
  return after.filter((row) => inCategory(row, category)).map(toAdminTemplate);
}

/** POST /api/admin/templateCategories: a new standard category (every user sees it), placed last. */
export async function createStandardCategory(env: Env, admin: User, name: string): Promise<AdminStandardCategory> {
  const db = database(env.DB);
  const nameKey = name.toLowerCase();
  // A NULL owner makes the unique index blind to standard duplicates: checked here.
  const clash = await db.query.templateCategories.findFirst({ where: and(isNull(templateCategories.ownerId), eq(templateCategories.nameKey, nameKey)) });
  if (clash) throw new ServiceError(409, `A category named "${clash.name}" already exists`, "name");
  const id = `std-cat-${crypto.randomUUID()}`;
  const [[row]] = await db.batch([
    db
      .insert(templateCategories)
      .values({
        id,
        ownerId: null,
        name,
        nameKey,
        position: sql`(SELECT coalesce(max(${templateCategories.position}), -1) + 1 FROM ${templateCategories} WHERE ${templateCategories.ownerId} IS NULL)`,
      })
      .returning(),
    auditStatement(env, actorOf(admin), {
      action: "category.create",
      targetKind: "template-category",
      targetId: name,
      summary: `Created the standard template category "${name}".`,
      before: null,
      after: { id, name },
    }),
  ]);
  return { id: row.id, name: row.name, position: row.position, templateCount: 0 };
}

/** POST /api/admin/templateCategories/reorder: every standard category, in its new order. */
export async function reorderStandardCategories(env: Env, admin: User, categoryIds: string[]): Promise<AdminStandardCategory[]> {
  const rows = await standardCategoryRows(env);
  if (
    !isSameSet(
      rows.map((row) => row.id),
      categoryIds,
    )
  ) {
    throw new ServiceError(400, `categoryIds must list each of the ${rows.length} standard categories once`, "categoryIds");
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const db = database(env.DB);
  const updates = categoryIds.flatMap((id, position) =>
    byId.get(id)!.position === position ? [] : [db.update(templateCategories).set({ position }).where(eq(templateCategories.id, id))],
  );
  await db.batch([
    auditStatement(env, actorOf(admin), {
      action: "categories.reorder",
      targetKind: "template-category",
      targetId: "standard",
      summary: `Reordered the ${rows.length} standard template categories.`,
      before: { order: rows.map((row) => row.name) },
      after: { order: categoryIds.map((id) => byId.get(id)!.name) },
    }),
    ...updates,
  ]);
  return (await adminStandardTemplates(env)).categories;
}
