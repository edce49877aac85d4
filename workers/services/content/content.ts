import { and, count, desc, eq, ne } from "drizzle-orm";
import {
  BLOG_PAGE_SIZE,
  CONTENT_NOT_FOUND,
  type AdminContent,
  type ContentInput,
  type ContentKind,
  type ContentSummary,
  type PublicContent,
} from "../../../contracts/content/content.ts";
import { readingMinutes, renderMarkdown } from "../../content/markdown.ts";
import { database } from "../../db/client.ts";
import { contentEntries } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { auditStatement, type AuditActor } from "../admin/admin-audit.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * Blog posts and content pages (issue 17, docs/decisions/039-content-in-d1.md):
 * public reads see only published entries; the admin calls (checked for the
 * admin role by the API) see and change everything.
 */

type Row = typeof contentEntries.$inferSelect;
type ContentEnv = Pick<Env, "DB" | "APP_URL" | "BLOG_LEGACY_ORIGINS">;

/** The Markdown as the public page shows it: the one renderer for pages, API and the admin's preview. */
export function renderContent(env: Pick<Env, "APP_URL" | "BLOG_LEGACY_ORIGINS">, markdown: string): string {
  return renderMarkdown(markdown, { appUrl: env.APP_URL, legacyOrigins: env.BLOG_LEGACY_ORIGINS });
}

function toPublic(env: ContentEnv, row: Row): PublicContent {
  return {
    slug: row.slug,
    title: row.title,
    description: row.description,
    html: renderContent(env, row.body),
    coverImage: row.coverImage,
    coverAlt: row.coverAlt,
    author: row.author,
    publishedAt: row.publishedAt ?? row.updatedAt,
    updatedAt: row.updatedAt,
    readingMinutes: readingMinutes(row.body),
  };
}

function toSummary(row: Row): ContentSummary {
  return {
    slug: row.slug,
    title: row.title,
    description: row.description,
    coverImage: row.coverImage,
    coverAlt: row.coverAlt,
    author: row.author,
    publishedAt: row.publishedAt ?? row.updatedAt,
  };
}

function toAdmin(row: Row): AdminContent {
  return {
    id: row.id,
    kind: row.kind,
    slug: row.slug,
    title: row.title,
    description: row.description,
    body: row.body,
    coverImage: row.coverImage,
    coverAlt: row.coverAlt,
    author: row.author,
    status: row.status,
    publishedAt: row.publishedAt,
    updatedAt: row.updatedAt,
  };
}

async function publishedRow(env: ContentEnv, kind: ContentKind, slug: string): Promise<Row> {
  const row = await database(env.DB).query.contentEntries.findFirst({
    where: and(eq(contentEntries.kind, kind), eq(contentEntries.slug, slug), eq(contentEntries.status, "published")),
  });
  if (!row) throw new ServiceError(404, CONTENT_NOT_FOUND);
  return row;
}

/** GET /api/blogs/getBlogPost/{slug}: a published post, or 404. */
export async function publishedPost(env: ContentEnv, slug: string): Promise<PublicContent> {
  return toPublic(env, await publishedRow(env, "post", slug));
}

/** GET /api/pages/getPage/{slug}: a published page, or 404. */
export async function publishedPage(env: ContentEnv, slug: string): Promise<PublicContent> {
  return toPublic(env, await publishedRow(env, "page", slug));
}

/** /blog?page=n: published posts, newest first. */
export async function blogPage(env: ContentEnv, page: number): Promise<{ posts: ContentSummary[]; page: number; pages: number; total: number }> {
  const db = database(env.DB);
  const published = and(eq(contentEntries.kind, "post"), eq(contentEntries.status, "published"));
  const [{ total }] = await db.select({ total: count() }).from(contentEntries).where(published);
  const pages = Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await db
    .select()
    .from(contentEntries)
    .where(published)
    .orderBy(desc(contentEntries.publishedAt), desc(contentEntries.id))
    .limit(BLOG_PAGE_SIZE)
    .offset((current - 1) * BLOG_PAGE_SIZE);
  return { posts: rows.map(toSummary), page: current, pages, total };
}

const STOP_WORDS = new Set(
  "a an and are as at be by for from how in into is it its of on or that the this to what when why with you your pinterest pins pin".split(" "),
);
const wordsOf = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 2 && !STOP_WORDS.has(word)),
  );

/**
 * GET /api/blogs/getRelatedBlogPosts/{slug}: up to 3 other published posts,
 * those sharing the most words of title and description first, then the newest.
 * 404 when the post itself is not published.
 */
export async function relatedPosts(env: ContentEnv, slug: string, limit = 3): Promise<ContentSummary[]> {
  const post = await publishedRow(env, "post", slug);
  const others = await database(env.DB)
    .select()
    .from(contentEntries)
    .where(and(eq(contentEntries.kind, "post"), eq(contentEntries.status, "published"), ne(contentEntries.id, post.id)))
    .orderBy(desc(contentEntries.publishedAt));
  const own = wordsOf(`${post.title} ${post.description}`);
  return others
    .map((row, recency) => ({ row, recency, shared: [...wordsOf(`${row.title} ${row.description}`)].filter((word) => own.has(word)).length }))
    .sort((a, b) => b.shared - a.shared || a.recency - b.recency)
    .slice(0, limit)
    .map(({ row }) => toSummary(row));
}

/** Everything published, for /sitemap.xml. */
export async function publishedEntries(env: Pick<Env, "DB">): Promise<{ kind: ContentKind; slug: string; updatedAt: number }[]> {
  return database(env.DB)
    .select({ kind: contentEntries.kind, slug: contentEntries.slug, updatedAt: contentEntries.updatedAt })
    .from(contentEntries)
    .where(eq(contentEntries.status, "published"))
    .orderBy(contentEntries.kind, desc(contentEntries.publishedAt));
}

/**
 * The public addresses a change to these entries can alter (for the edge page
 * cache's purge, decision 042): each entry's own page; for a post also every
 * post page (their related posts), every page of the blog list (one more than
 * there are now, for a page that just went away); and the sitemap.
 */
export async function addressesShowing(env: Pick<Env, "DB">, touched: { kind: ContentKind; slug: string }[]): Promise<string[]> {
  const paths = new Set<string>(["/sitemap.xml"]);
  for (const entry of touched) paths.add(`${entry.kind === "post" ? "/blog/" : "/page/"}${entry.slug}`);
  if (touched.some((entry) => entry.kind === "post")) {
    const posts = await database(env.DB)
      .select({ slug: contentEntries.slug, status: contentEntries.status })
      .from(contentEntries)
      .where(eq(contentEntries.kind, "post"));
    for (const post of posts) paths.add(`/blog/${post.slug}`);
    const published = posts.filter((post) => post.status === "published").length;
    paths.add("/blog");
    for (let page = 1; page <= Math.ceil(published / BLOG_PAGE_SIZE) + 1; page++) paths.add(`/blog?page=${page}`);
  }
  return [...paths];
}

// ---- Admin (the API checks the admin role before any of these) ----

export async function listContent(env: ContentEnv, kind?: ContentKind): Promise<AdminContent[]> {
  const rows = await database(env.DB)
    .select()
    .from(contentEntries)
    .where(kind ? eq(contentEntries.kind, kind) : undefined)
    .orderBy(contentEntries.kind, desc(contentEntries.updatedAt));
  return rows.map(toAdmin);
}

async function rowById(env: ContentEnv, id: string): Promise<Row> {
  const row = await database(env.DB).query.contentEntries.findFirst({ where: eq(contentEntries.id, id) });
  if (!row) throw new ServiceError(404, CONTENT_NOT_FOUND);
  return row;
}

export async function getContent(env: ContentEnv, id: string): Promise<AdminContent> {
  return toAdmin(await rowById(env, id));
}

const slugTaken = (input: ContentInput) =>
  new ServiceError(
    409,
    `Another ${input.kind === "post" ? "blog post" : "page"} already uses the address ${input.kind === "post" ? "/blog/" : "/page/"}${input.slug}.`,
    "slug",
  );

async function assertSlugFree(env: ContentEnv, input: ContentInput, exceptId?: string) {
  const clash = await database(env.DB).query.contentEntries.findFirst({
    where: and(eq(contentEntries.kind, input.kind), eq(contentEntries.slug, input.slug), exceptId ? ne(contentEntries.id, exceptId) : undefined),
  });
  if (clash) throw slugTaken(input);
}

/** A new draft. */
/** What the audit log keeps of an entry (issue 20): everything an admin edits, and its state. */
function audited(row: Pick<Row, "kind" | "slug" | "title" | "status"> & Partial<Row>) {
  const { createdAt: _created, updatedAt: _updated, ...kept } = row;
  return kept;
}

const named = (kind: string) => (kind === "post" ? "blog post" : "page");

/** A new draft; the admin's action is audited in the same write. */
export async function createContent(env: ContentEnv, actor: AuditActor, input: ContentInput, now = Date.now()): Promise<AdminContent> {
  await assertSlugFree(env, input);
  const row = {
    id: crypto.randomUUID(),
    ...input,
    coverImage: input.coverImage ?? null,
    coverAlt: input.coverAlt ?? null,
    status: "draft" as const,
    publishedAt: null,
    updatedAt: now,
  };
  const db = database(env.DB);
  try {
    await db.batch([
      db.insert(contentEntries).values(row),
      auditStatement(env, actor, {
        action: "content.create",
        targetKind: "content",
        targetId: row.id,
        summary: `Created the ${named(input.kind)} draft "${input.title}".`,
        after: audited(row),
      }),
    ]);
  } catch (error) {
    if (String(error).includes("UNIQUE")) throw slugTaken(input); // a concurrent create took the slug
    throw error;
  }
  return toAdmin({ ...row, createdAt: now });
}

export async function updateContent(env: ContentEnv, actor: AuditActor, id: string, input: ContentInput, now = Date.now()): Promise<AdminContent> {
  const before = await rowById(env, id);
  await assertSlugFree(env, input, id);
  const changes = { ...input, coverImage: input.coverImage ?? null, coverAlt: input.coverAlt ?? null };
  const db = database(env.DB);
  try {
    await db.batch([
      db
        .update(contentEntries)
        .set({ ...changes, updatedAt: now })
        .where(eq(contentEntries.id, id)),
      auditStatement(env, actor, {
        action: "content.edit",
        targetKind: "content",
        targetId: id,
        summary: `Edited the ${named(input.kind)} "${input.title}".`,
        before: audited(before),
        after: audited({ ...before, ...changes }),
      }),
    ]);
  } catch (error) {
    if (String(error).includes("UNIQUE")) throw slugTaken(input);
    throw error;
  }
  return getContent(env, id);
}

/** Publish (the first publication sets the published date) or take back to draft. */
export async function setPublished(env: ContentEnv, actor: AuditActor, id: string, published: boolean, now = Date.now()): Promise<AdminContent> {
  const row = await rowById(env, id);
  const change = published ? { status: "published" as const, publishedAt: row.publishedAt ?? now } : { status: "draft" as const };
  const db = database(env.DB);
  await db.batch([
    db
      .update(contentEntries)
      .set({ ...change, updatedAt: now })
      .where(eq(contentEntries.id, id)),
    auditStatement(env, actor, {
      action: published ? "content.publish" : "content.unpublish",
      targetKind: "content",
      targetId: id,
      summary: `${published ? "Published" : "Took back to draft"} the ${named(row.kind)} "${row.title}".`,
      before: { status: row.status, publishedAt: row.publishedAt },
      after: { status: change.status, publishedAt: "publishedAt" in change ? change.publishedAt : row.publishedAt },
    }),
  ]);
  return getContent(env, id);
}

export async function deleteContent(env: ContentEnv, actor: AuditActor, id: string): Promise<void> {
  const row = await rowById(env, id);
  const db = database(env.DB);
  await db.batch([
    db.delete(contentEntries).where(eq(contentEntries.id, id)),
    auditStatement(env, actor, {
      action: "content.delete",
      targetKind: "content",
      targetId: id,
      summary: `Deleted the ${named(row.kind)} "${row.title}".`,
      before: audited(row),
    }),
  ]);
}
