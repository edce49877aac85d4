import { and, desc, eq, gt, ne, sql, type SQL } from "drizzle-orm";
import * as v from "valibot";
import {
  AUTOSAVE_DRAFT_NAME,
  DRAFTS_PAGE_SIZE,
  MAX_DRAFT_BYTES,
  MAX_DRAFTS,
  type Draft,
  type DraftsPage,
  type DraftSummary,
} from "../../../contracts/content/library.ts";
import { Post } from "../../../contracts/content/post.ts";
import { olderThanCursor, pageAfterCursor } from "../../db/cursor.ts";
import { drafts } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { ledgerOf } from "../../ledger/client.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { tickOnboardingStep } from "../accounts/onboarding.ts";

/**
 * Drafts (spec section 4): saved generator grids. The client autosaves under
 * the name "Autosave", of which a user has at most one: saving it again
 * replaces it. A draft saved without a name is named after the client's
 * local date-time. Each draft's posts are one JSON value in its row, so a
 * draft is capped well below D1's 2 MB row limit.
 */

type DraftRow = typeof drafts.$inferSelect;
type PostValue = v.InferOutput<typeof Post>;

const NOT_FOUND = "Draft not found";

const summaryColumns = {
  id: drafts.id,
  name: drafts.name,
  date: drafts.date,
  postCount: drafts.postCount,
  updatedAt: drafts.updatedAt,
};

function summaryOf(row: Pick<DraftRow, keyof typeof summaryColumns>): DraftSummary {
  return { draftId: row.id, name: row.name, date: row.date, postCount: row.postCount, updatedAt: new Date(row.updatedAt).toISOString() };
}

/** The stored posts read through the current schema; a post that no longer validates is left out rather than failing the draft. */
function postsOf(stored: unknown): PostValue[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((post) => {
    const parsed = v.safeParse(Post, post);
    return parsed.success ? [parsed.output] : [];
  });
}

function draftOf(row: DraftRow): Draft {
  return { ...summaryOf(row), posts: postsOf(row.posts) };
}

const isAutosave = (name: string) => name.trim().toLowerCase() === AUTOSAVE_DRAFT_NAME.toLowerCase();
const autosaveOf = (userId: string) => and(eq(drafts.userId, userId), sql`lower(${drafts.name}) = ${AUTOSAVE_DRAFT_NAME.toLowerCase()}`)!;

/** The posts as stored JSON, refused when the draft would be too large for its row. */
function storedPosts(posts: PostValue[]): string {
  const json = JSON.stringify(posts);
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > MAX_DRAFT_BYTES) {
    throw new ServiceError(
      413,
      `This draft is too large to save (${(bytes / 1_000_000).toFixed(1)} MB; the limit is ${MAX_DRAFT_BYTES / 1_000_000} MB). Remove some posts and try again.`,
      "posts",
    );
  }
  return json;
}

async function ownDraft(env: Env, user: User, draftId: string): Promise<DraftRow> {
  const row = await ledgerOf(env, user.id).db.query.drafts.findFirst({ where: and(eq(drafts.id, draftId), eq(drafts.userId, user.id)) });
  if (!row) throw new ServiceError(404, NOT_FOUND);
  return row;
}

/** Refuses a second draft named Autosave. */
async function checkAutosaveFree(env: Env, user: User, name: string, exceptId: string, field: string) {
  if (!isAutosave(name)) return;
  const other = await ledgerOf(env, user.id)
    .db.select({ id: drafts.id })
    .from(drafts)
    .where(and(autosaveOf(user.id), ne(drafts.id, exceptId)))
    .limit(1);
  if (other.length > 0) throw new ServiceError(409, `You already have a draft named ${AUTOSAVE_DRAFT_NAME}. Please choose another name.`, field);
}

/**
 * Saves the Autosave draft: updates it when it exists, otherwise creates it,
 * in one batch so that two autosaves at once still leave one draft.
 */
async function saveAutosave(env: Env, user: User, posts: PostValue[], json: string, date: string): Promise<DraftRow> {
  const now = Date.now();
  const ledger = ledgerOf(env, user.id);
  await ledger.batch([
    ledger
      .prepare("UPDATE drafts SET posts = ?, post_count = ?, date = ?, updated_at = ? WHERE user_id = ? AND lower(name) = lower(?)")
      .bind(json, posts.length, date, now, user.id, AUTOSAVE_DRAFT_NAME),
    ledger
      .prepare(
        "INSERT INTO drafts (id, user_id, name, date, posts, post_count, updated_at) SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM drafts WHERE user_id = ? AND lower(name) = lower(?))",
      )
      .bind(crypto.randomUUID(), user.id, AUTOSAVE_DRAFT_NAME, date, json, posts.length, now, user.id, AUTOSAVE_DRAFT_NAME),
  ]);
  const [row] = await ledgerOf(env, user.id).db.select().from(drafts).where(autosaveOf(user.id)).orderBy(desc(drafts.updatedAt)).limit(1);
  return row;
}

/** POST /api/user/drafts/createDraft ("Autosave" updates the user's Autosave draft if there is one). */
export async function createDraft(env: Env, user: User, input: { posts: PostValue[]; name?: string; date: string }): Promise<DraftSummary> {
  const json = storedPosts(input.posts);
  // Pins are generated in the browser: a saved grid (the autosave follows every generation) is the server's sign of it.
  if (input.posts.length > 0) await tickOnboardingStep(env.DB, user, "generatePins");
  const name = input.name?.trim() || input.date;
  if (isAutosave(name)) return summaryOf(await saveAutosave(env, user, input.posts, json, input.date));
  // The limit is checked by the insert itself, so parallel saves never pass it.
  const inserted = await ledgerOf(env, user.id)
    .prepare(
      `INSERT INTO drafts (id, user_id, name, date, posts, post_count, updated_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE (SELECT count(*) FROM drafts WHERE user_id = ?2) < ?8
     RETURNING id`,
    )
    .bind(crypto.randomUUID(), user.id, name, input.date, json, input.posts.length, Date.now(), MAX_DRAFTS)
    .first<{ id: string }>();
  if (!inserted) throw new ServiceError(409, `You can keep up to ${MAX_DRAFTS} drafts. Please delete some drafts before saving a new one.`);
  const [row] = await ledgerOf(env, user.id).db.select(summaryColumns).from(drafts).where(eq(drafts.id, inserted.id));
  return summaryOf(row);
}

/** POST /api/user/drafts/updateDraft: a missing or blank name takes `date`. */
export async function updateDraft(env: Env, user: User, input: { posts: PostValue[]; draftId: string; name?: string; date: string }): Promise<DraftSummary> {
  const json = storedPosts(input.posts);
  await ownDraft(env, user, input.draftId);
  const name = input.name?.trim() || input.date;
  await checkAutosaveFree(env, user, name, input.draftId, "name");
  if (input.posts.length > 0) await tickOnboardingStep(env.DB, user, "generatePins");
  const [row] = await ledgerOf(env, user.id)
    .db.update(drafts)
    .set({ name, date: input.date, posts: sql`${json}`, postCount: input.posts.length, updatedAt: Date.now() })
    .where(and(eq(drafts.id, input.draftId), eq(drafts.userId, user.id)))
    .returning(summaryColumns);
  if (!row) throw new ServiceError(404, NOT_FOUND);
  return summaryOf(row);
}

/** POST /api/user/drafts/renameDraft */
export async function renameDraft(env: Env, user: User, draftId: string, newName: string): Promise<DraftSummary> {
  await ownDraft(env, user, draftId);
  const name = newName.trim();
  await checkAutosaveFree(env, user, name, draftId, "newName");
  const [row] = await ledgerOf(env, user.id)
    .db.update(drafts)
    .set({ name, updatedAt: Date.now() })
    .where(and(eq(drafts.id, draftId), eq(drafts.userId, user.id)))
    .returning(summaryColumns);
  if (!row) throw new ServiceError(404, NOT_FOUND);
  return summaryOf(row);
}

/** GET /api/user/drafts/latestDraft: the most recently updated draft that has at least one post, or null. */
export async function latestDraft(env: Env, user: User): Promise<Draft | null> {
  const [row] = await ledgerOf(env, user.id)
    .db.select()
    .from(drafts)
    .where(and(eq(drafts.userId, user.id), gt(drafts.postCount, 0)))
    .orderBy(desc(drafts.updatedAt), desc(drafts.id))
    .limit(1);
  return row ? draftOf(row) : null;
}

/** GET /api/user/drafts/getDraft/{id} */
export async function getDraft(env: Env, user: User, draftId: string): Promise<Draft> {
  return draftOf(await ownDraft(env, user, draftId));
}

/** GET /api/user/drafts/getDrafts: most recently updated first, a page at a time after `lastDraftId` (none: the first page). */
export async function listDrafts(env: Env, user: User, lastDraftId?: string): Promise<DraftsPage> {
  const db = ledgerOf(env, user.id).db;
  const where: SQL[] = [eq(drafts.userId, user.id)];
  const cursor = lastDraftId ? { table: drafts, time: drafts.updatedAt, id: drafts.id, owner: drafts.userId, cursorId: lastDraftId, ownerId: user.id } : null;
  if (cursor) where.push(olderThanCursor(cursor));
  const rows = await pageAfterCursor(
    db,
    db
      .select(summaryColumns)
      .from(drafts)
      .where(and(...where))
      .orderBy(desc(drafts.updatedAt), desc(drafts.id))
      .limit(DRAFTS_PAGE_SIZE + 1),
    cursor,
  );
  if (!rows) throw new ServiceError(400, "lastDraftId is not one of your drafts.", "lastDraftId");
  return { drafts: rows.slice(0, DRAFTS_PAGE_SIZE).map(summaryOf), hasMore: rows.length > DRAFTS_PAGE_SIZE };
}

/** DELETE /api/user/drafts/deleteDraft/{id} */
export async function deleteDraft(env: Env, user: User, draftId: string): Promise<{ deletedId: string }> {
  const deleted = await ledgerOf(env, user.id)
    .db.delete(drafts)
    .where(and(eq(drafts.id, draftId), eq(drafts.userId, user.id)))
    .returning({ id: drafts.id });
  if (deleted.length === 0) throw new ServiceError(404, NOT_FOUND);
  return { deletedId: draftId };
}
