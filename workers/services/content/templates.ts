import { and, desc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import * as v from "valibot";
import { TEMPLATES_PAGE_SIZE } from "../../../contracts/content/templates-api.ts";
import { TemplateDesign, type Template } from "../../../contracts/content/template.ts";
import { database } from "../../db/client.ts";
import { colorPalettes, templateCategories, templateFavorites, templates } from "../../db/schema.ts";
import { normalizeDesign, storedDesign } from "../../domain/templates.ts";
import type { Env } from "../../env.ts";
import type { User } from "../accounts/accounts.ts";
import { actorOf, auditStatement } from "../admin/admin-audit.ts";
import { ServiceError } from "../core/errors.ts";
import { tickOnboardingStep } from "../accounts/onboarding.ts";

type TemplateRow = typeof templates.$inferSelect;

/** The design stored in a row, read through the schema (rows written by older code are normalised too). */
function designOf(row: TemplateRow): TemplateDesign {
  const stored = row.design as Partial<TemplateDesign>;
  return v.parse(TemplateDesign, { ...stored, title: row.title, categories: row.categories });
}

/** A template as `viewer` sees it: whether it is theirs, never whose it is (no user ids leave the server). */
function toTemplate(row: TemplateRow, viewer: User, favorites: Set<string> = new Set()): Template {
  return {
    ...designOf(row),
    templateId: row.id,
    isStandardTemplate: row.isStandard,
    isShared: row.isShared,
    isOwn: row.ownerId !== null && row.ownerId === viewer.id,
    favoriteCount: row.favoriteCount,
    isFavorite: favorites.has(row.id),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** A standard template users see: published (decision 053). */
const publishedStandard = and(eq(templates.isStandard, true), eq(templates.isPublished, true))!;

/**
 * What a user may see: published standard templates, shared ones and their
 * own; an admin also sees unpublished standard ones (to edit them before
 * publishing). Lists for users (listStandardTemplates) show published ones only.
 */
function visibleTo(user: User): SQL {
  return or(user.role === "admin" ? eq(templates.isStandard, true) : publishedStandard, eq(templates.isShared, true), eq(templates.ownerId, user.id))!;
}

function mayEdit(user: User, row: TemplateRow) {
  return row.isStandard ? user.role === "admin" : row.ownerId === user.id;
}

/**
 * Which of these templates the user has favourited. All of the user's
 * favourites are read at once: a list of ids could exceed D1's limit of 100
 * bound parameters per query.
 */
async function favoritesOf(env: Env, user: User, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await database(env.DB).select({ templateId: templateFavorites.templateId }).from(templateFavorites).where(eq(templateFavorites.userId, user.id));
  const wanted = new Set(ids);
  return new Set(rows.map((r) => r.templateId).filter((id) => wanted.has(id)));
}

async function withFavorites(env: Env, user: User, rows: TemplateRow[]) {
  const favorites = await favoritesOf(
    env,
    user,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toTemplate(row, user, favorites));
}

/** A page ordered newest first, continuing after `lastTemplateId` (none: the first page). */
async function page(env: Env, user: User, where: SQL, lastTemplateId: string | undefined) {
  const db = database(env.DB);
  let cursor: SQL | undefined;
  if (lastTemplateId) {
    const last = await db.query.templates.findFirst({ where: and(eq(templates.id, lastTemplateId), where) });
    if (!last) throw new ServiceError(400, "lastTemplateId is not a template of this list", "lastTemplateId");
    cursor = or(lt(templates.updatedAt, last.updatedAt), and(eq(templates.updatedAt, last.updatedAt), lt(templates.id, last.id)));
  }
  const rows = await db
    .select()
    .from(templates)
    .where(cursor ? and(where, cursor) : where)
    .orderBy(desc(templates.updatedAt), desc(templates.id))
    .limit(TEMPLATES_PAGE_SIZE + 1);
  const more = rows.length > TEMPLATES_PAGE_SIZE;
  const items = await withFavorites(env, user, rows.slice(0, TEMPLATES_PAGE_SIZE));
  return { templates: items, lastTemplateId: items.at(-1)?.templateId ?? null, hasMore: more };
}

export function listUserTemplates(env: Env, user: User, lastTemplateId?: string) {
  return page(env, user, and(eq(templates.ownerId, user.id), eq(templates.isStandard, false))!, lastTemplateId);
}

export function listSharedTemplates(env: Env, user: User, lastTemplateId?: string) {
  return page(env, user, and(eq(templates.isShared, true), eq(templates.isStandard, false))!, lastTemplateId);
}

export async function listStandardTemplates(env: Env, user: User, category?: string) {
  const where = category
    ? and(publishedStandard, sql`EXISTS (SELECT 1 FROM json_each(${templates.categories}) WHERE lower(value) = lower(${category}))`)
    : publishedStandard;
  const rows = await database(env.DB).select().from(templates).where(where).orderBy(templates.position, templates.id);
  return withFavorites(env, user, rows);
}

export async function listFavoriteTemplates(env: Env, user: User) {
  const rows = await database(env.DB)
    .select({ template: templates })
    .from(templateFavorites)
    .innerJoin(templates, eq(templates.id, templateFavorites.templateId))
    .where(and(eq(templateFavorites.userId, user.id), visibleTo(user)))
    .orderBy(desc(templateFavorites.createdAt));
  return rows.map((r) => toTemplate(r.template, user, new Set(rows.map((x) => x.template.id))));
}

export async function recentlyUpdatedTemplates(env: Env, user: User, limit = 10) {
  const rows = await database(env.DB)
    .select()
    .from(templates)
    .where(and(eq(templates.ownerId, user.id), eq(templates.isStandard, false)))
    .orderBy(desc(templates.updatedAt), desc(templates.id))
    .limit(limit);
  return withFavorites(env, user, rows);
}

export async function getTemplate(env: Env, user: User, id: string): Promise<Template> {
  const row = await database(env.DB).query.templates.findFirst({ where: and(eq(templates.id, id), visibleTo(user)) });
  if (!row) throw new ServiceError(404, "Template not found");
  return (await withFavorites(env, user, [row]))[0];
}

export async function createTemplate(env: Env, user: User, design: TemplateDesign): Promise<Template> {
  const normalized = normalizeDesign(design);
  const now = Date.now();
  const [row] = await database(env.DB)
    .insert(templates)
    .values({
      id: crypto.randomUUID(),
      ownerId: user.id,
      title: normalized.title,
      design: storedDesign(normalized),
      categories: normalized.categories,
      isStandard: false,
      isShared: false,
      updatedAt: now,
    })
    .returning();
  await tickOnboardingStep(env.DB, user, "createTemplate");
  return toTemplate(row, user);
}

export async function updateTemplate(env: Env, user: User, id: string, design: TemplateDesign, isShared?: boolean): Promise<Template> {
  const db = database(env.DB);
  const row = await db.query.templates.findFirst({ where: eq(templates.id, id) });
  if (!row || !(row.isStandard || row.isShared || row.ownerId === user.id)) throw new ServiceError(404, "Template not found");
  if (!mayEdit(user, row))
    throw new ServiceError(
      403,
      row.isStandard ? "Standard templates cannot be changed. Duplicate it to make your own." : "You can only change your own templates.",
    );
  const normalized = normalizeDesign(design);
  const update = db
    .update(templates)
    .set({
      title: normalized.title,
      design: storedDesign(normalized),
      categories: normalized.categories,
      isShared: row.isStandard ? false : (isShared ?? row.isShared),
      updatedAt: Date.now(),
    })
    .where(eq(templates.id, id))
    .returning();
  // An admin's change of a standard template is an admin action: audited in the same batch (decision 053).
  const [[updated]] = row.isStandard
    ? await db.batch([
        update,
        auditStatement(env, actorOf(user), {
          action: "template.edit",
          targetKind: "template",
          targetId: id,
          summary: `Edited the standard template "${normalized.title}".`,
          before: { title: row.title, categories: row.categories, design: row.design },
          after: { title: normalized.title, categories: normalized.categories, design: storedDesign(normalized) },
        }),
      ])
    : [await update];
  return (await withFavorites(env, user, [updated]))[0];
}

export async function unshareTemplate(env: Env, user: User, id: string): Promise<Template> {
  const db = database(env.DB);
  const [updated] = await db
    .update(templates)
    .set({ isShared: false, updatedAt: Date.now() })
    .where(and(eq(templates.id, id), eq(templates.ownerId, user.id)))
    .returning();
  if (!updated) throw new ServiceError(404, "Template not found");
  return toTemplate(updated, user);
}

export async function deleteTemplate(env: Env, user: User, id: string): Promise<{ wasStandard: boolean }> {
  const db = database(env.DB);
  const row = await db.query.templates.findFirst({ where: eq(templates.id, id) });
  if (!row || !(row.isStandard || row.isShared || row.ownerId === user.id)) throw new ServiceError(404, "Template not found");
  if (!mayEdit(user, row)) throw new ServiceError(403, "You can only delete your own templates.");
  if (!row.isStandard) {
    await db.delete(templates).where(eq(templates.id, id));
    return { wasStandard: false };
  }
  await db.batch([
    db.delete(templates).where(eq(templates.id, id)),
    auditStatement(env, actorOf(user), {
      action: "template.delete",
      targetKind: "template",
      targetId: id,
      summary: `Deleted the standard template "${row.title}".`,
      before: { title: row.title, categories: row.categories, isPublished: row.isPublished, design: row.design },
      after: null,
    }),
  ]);
  return { wasStandard: true };
}

/**
 * The templates of a set, in the order asked for. An id that is not found (or
 * not visible) falls back to another standard template not already in the set
 * (spec section 8: a random template that is not found falls back to another).
 */
export async function getTemplateSet(env: Env, user: User, ids: string[]): Promise<Template[]> {
  const db = database(env.DB);
  const unique = [...new Set(ids)];
  const rows: TemplateRow[] = [];
  // In chunks: D1 takes at most 100 bound parameters per query.
  for (let i = 0; i < unique.length; i += 80) {
    rows.push(
      ...(await db
        .select()
        .from(templates)
        .where(and(inArray(templates.id, unique.slice(i, i + 80)), visibleTo(user)))),
    );
  }
  const found = new Map(rows.map((row) => [row.id, row]));
  const missing = unique.filter((id) => !found.has(id)).length;
  let replacements: TemplateRow[] = [];
  if (missing > 0) {
    const candidates = await db
      .select()
      .from(templates)
      .where(publishedStandard)
      .orderBy(sql`random()`)
      .limit(missing + unique.length);
    replacements = candidates.filter((row) => !found.has(row.id)).slice(0, missing);
  }
  const ordered = unique.map((id) => found.get(id) ?? replacements.shift()).filter((row): row is TemplateRow => Boolean(row));
  return withFavorites(env, user, ordered);
}

/** Favourites a template, or un-favourites it; answers the new state and count. */
/**
 * Turns the caller's favourite on or off in one transaction: the insert
 * (ignored when it is there already) and the delete that runs only when the
 * insert changed nothing, then the count recomputed from the rows. Parallel
 * toggles therefore alternate exactly and the count always equals the rows.
 */
export async function toggleTemplateFavorite(env: Env, user: User, id: string) {
  const db = database(env.DB);
  const row = await db.query.templates.findFirst({ where: and(eq(templates.id, id), visibleTo(user)) });
  if (!row) throw new ServiceError(404, "Template not found");
  const [added, , counted] = await env.DB.batch<{ favorite_count?: number }>([
    env.DB.prepare(`INSERT OR IGNORE INTO template_favorites (user_id, template_id) VALUES (?1, ?2) RETURNING 1 AS added`).bind(user.id, id),
    // changes() is what the insert just above changed: 0 when the favourite was there, so it goes.
    env.DB.prepare(`DELETE FROM template_favorites WHERE user_id = ?1 AND template_id = ?2 AND changes() = 0`).bind(user.id, id),
    env.DB.prepare(
      `UPDATE templates SET favorite_count = (SELECT count(*) FROM template_favorites WHERE template_id = ?1) WHERE id = ?1 RETURNING favorite_count`,
    ).bind(id),
  ]);
  return { templateId: id, isFavorite: added.results.length > 0, favoriteCount: counted.results[0]?.favorite_count ?? 0 };
}

// ---------------------------------------------------------------- categories and palettes

export async function listCategories(env: Env, user: User) {
  const rows = await database(env.DB)
    .select()
    .from(templateCategories)
    .where(or(isNull(templateCategories.ownerId), eq(templateCategories.ownerId, user.id)))
    .orderBy(sql`${templateCategories.ownerId} IS NOT NULL`, templateCategories.position, templateCategories.name);
  return rows.map((row) => ({ id: row.id, name: row.name, isStandard: row.ownerId === null }));
}

export async function addCategory(env: Env, user: User, name: string) {
  const db = database(env.DB);
  const nameKey = name.toLowerCase();
  const clash = await db.query.templateCategories.findFirst({
    where: and(eq(templateCategories.nameKey, nameKey), or(isNull(templateCategories.ownerId), eq(templateCategories.ownerId, user.id))),
  });
  if (clash) throw new ServiceError(409, `A category named "${clash.name}" already exists`, "name");
  try {
    const [row] = await db.insert(templateCategories).values({ id: crypto.randomUUID(), ownerId: user.id, name, nameKey }).returning();
    return { id: row.id, name: row.name, isStandard: false };
  } catch (error) {
    if (/UNIQUE/.test(String(error))) throw new ServiceError(409, `A category named "${name}" already exists`, "name");
    throw error;
  }
}

export async function deleteCategory(env: Env, user: User, id: string) {
  const deleted = await database(env.DB)
    .delete(templateCategories)
    .where(and(eq(templateCategories.id, id), eq(templateCategories.ownerId, user.id)))
    .returning({ id: templateCategories.id });
  if (deleted.length === 0) throw new ServiceError(404, "Category not found");
}

export async function listPalettes(env: Env) {
  const rows = await database(env.DB).select().from(colorPalettes).orderBy(colorPalettes.position);
  return rows.map((row) => ({ id: row.id, name: row.name, colors: row.colors }));
}
