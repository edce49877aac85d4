import { and, desc, eq, sql } from "drizzle-orm";
import { Feed } from "feed";
import * as v from "valibot";
import {
  MAX_RSS_FEEDS,
  RSS_PAUSED_FOR_CREDITS,
  RssDesignSettings,
  type CreateRssFeedBody,
  type UpdateRssFeedBody,
  type RssFeed,
  type RssFeedItem,
} from "../../../contracts/pinterest/rss.ts";
import { database } from "../../db/client.ts";
import { rssFeedItems, rssFeeds } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { mediaUrl } from "../../media/store.ts";
import { checkSourceUrl } from "../../scrape/sources.ts";
import type { User } from "../accounts/accounts.ts";
import { requireCredits } from "../billing/credits.ts";
import { ServiceError } from "../core/errors.ts";
import { ownProfile } from "./scheduling.ts";
import { getTemplate } from "../content/templates.ts";

/**
 * RSS feeds for Pinterest's auto-publish (issue 18, docs/decisions/044): the
 * owner's calls (every query scoped to the caller) and the public RSS 2.0
 * feed. Checking sources and rendering their posts is rss-checks.ts.
 */

type FeedRow = typeof rssFeeds.$inferSelect;
type ItemRow = typeof rssFeedItems.$inferSelect;

const DAY_MS = 24 * 60 * 60_000;
/** Items shown on the page per feed, and written into the public feed. */
export const RSS_PAGE_ITEMS = 30;
export const RSS_PUBLIC_ITEMS = 100;

export const RSS_FEED_NOT_FOUND = "RSS feed not found";

/** The public address Pinterest reads. */
export function publicFeedUrl(env: Pick<Env, "APP_URL">, token: string): string {
  return new URL(`/api/rss/feed/${token}`, env.APP_URL).toString();
}

/** An unguessable token for a feed's public address: 32 random bytes, base64url. */
function newPublicToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The design settings stored in a row, read through the schema (older rows get today's defaults). */
export function designSettingsOf(row: Pick<FeedRow, "designSettings">): RssDesignSettings {
  const parsed = v.safeParse(RssDesignSettings, row.designSettings ?? {});
  return parsed.success ? parsed.output : v.parse(RssDesignSettings, {});
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

async function countsOf(env: Env, feedIds: string[], now: number): Promise<Map<string, { published: number; today: number }>> {
  const counts = new Map<string, { published: number; today: number }>();
  if (feedIds.length === 0) return counts;
  const rows = await env.DB.prepare(
    `SELECT feed_id, sum(CASE WHEN status = 'ready' THEN 1 ELSE 0 END) AS published,
            sum(CASE WHEN status IN ('pending', 'ready') AND created_at > ?2 THEN 1 ELSE 0 END) AS today
     FROM rss_feed_items WHERE feed_id IN (SELECT value FROM json_each(?1)) GROUP BY feed_id`,
  )
    .bind(JSON.stringify(feedIds), now - DAY_MS)
    .all<{ feed_id: string; published: number; today: number }>();
  for (const row of rows.results) counts.set(row.feed_id, { published: row.published ?? 0, today: row.today ?? 0 });
  return counts;
}

function toRssFeed(env: Env, row: FeedRow, counts: { published: number; today: number } | undefined): RssFeed {
  return {
    id: row.id,
    name: row.name,
    sourceUrl: row.sourceUrl,
    sourceKind: row.sourceKind,
    pinterestProfileUsername: row.pinterestUsername,
    boardId: row.boardId,
    boardName: row.boardName,
    designSettings: designSettingsOf(row),
    isEnabled: row.isEnabled,
    pausedReason: row.pausedReason ?? null,
    pausedMessage: row.pausedReason === "credits" ? RSS_PAUSED_FOR_CREDITS : null,
    publicUrl: publicFeedUrl(env, row.publicToken),
    lastCheckedAt: row.lastCheckedAt ? new Date(row.lastCheckedAt).toISOString() : null,
    lastError: row.lastError ?? null,
    publishedCount: counts?.published ?? 0,
    addedToday: counts?.today ?? 0,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** One of the caller's feeds (404 otherwise). */
export async function ownFeedRow(env: Env, user: User, id: string): Promise<FeedRow> {
  const row = await database(env.DB).query.rssFeeds.findFirst({ where: and(eq(rssFeeds.id, id), eq(rssFeeds.userId, user.id)) });
  if (!row) throw new ServiceError(404, RSS_FEED_NOT_FOUND);
  return row;
}

export async function rssFeedView(env: Env, row: FeedRow, now = Date.now()): Promise<RssFeed> {
  return toRssFeed(env, row, (await countsOf(env, [row.id], now)).get(row.id));
}

export async function listRssFeeds(env: Env, user: User, now = Date.now()): Promise<RssFeed[]> {
  const rows = await database(env.DB).select().from(rssFeeds).where(eq(rssFeeds.userId, user.id)).orderBy(desc(rssFeeds.createdAt), desc(rssFeeds.id));
  const counts = await countsOf(
    env,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => toRssFeed(env, row, counts.get(row.id)));
}

export async function getRssFeed(env: Env, user: User, id: string): Promise<RssFeed> {
  return rssFeedView(env, await ownFeedRow(env, user, id));
}

export async function getRssDesignSettings(env: Env, user: User, id: string): Promise<RssDesignSettings> {
  return designSettingsOf(await ownFeedRow(env, user, id));
}

/** Every chosen template must be one the caller may use (400 naming the slot otherwise). */
async function checkTemplates(env: Env, user: User, settings: RssDesignSettings) {
  for (const [index, id] of settings.templateIds.entries()) {
    try {
      await getTemplate(env, user, id);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404)
        throw new ServiceError(400, "A chosen template was not found. Choose another one.", `designSettings.templateIds.${index}`);
      throw error;
    }
  }
}

export async function createRssFeed(env: Env, user: User, input: v.InferOutput<typeof CreateRssFeedBody>): Promise<RssFeed> {
  const sourceUrl = checkSourceUrl(env, input.sourceUrl, "sourceUrl");
  const profile = await ownProfile(env, user, input.pinterestProfileUsername, "pinterestProfileUsername");
  await checkTemplates(env, user, input.designSettings);
  const db = database(env.DB);
  const now = Date.now();
  const id = crypto.randomUUID();
  // The limit and the insert in one statement: two creations at once cannot both pass it.
  const inserted = await env.DB.prepare(
    `INSERT INTO rss_feeds (id, user_id, name, source_url, source_kind, pinterest_username, board_id, board_name, design_settings, is_enabled, public_token, created_at, updated_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12
     WHERE (SELECT count(*) FROM rss_feeds WHERE user_id = ?2) < ?13
     RETURNING id`,
  )
    .bind(
      id,
      user.id,
      input.name || hostOf(sourceUrl),
      sourceUrl,
      input.sourceKind,
      profile.username,
      input.boardId,
      input.boardName,
      JSON.stringify(input.designSettings),
      input.isEnabled ? 1 : 0,
      newPublicToken(),
      now,
      MAX_RSS_FEEDS,
    )
    .first<{ id: string }>();
  if (!inserted) throw new ServiceError(409, `You can have at most ${MAX_RSS_FEEDS} RSS feeds. Delete one to add another.`);
  const row = await db.query.rssFeeds.findFirst({ where: eq(rssFeeds.id, id) });
  return rssFeedView(env, row!);
}

type UpdateInput = v.InferOutput<typeof UpdateRssFeedBody>;

/**
 * Changes what was sent. A new source starts over as a new feed would (its
 * first check takes the newest posts only). Switching a feed paused for
 * credits back on needs credits (402 otherwise); it then clears the pause, so
 * a later pause sends its one e-mail again.
 */
export async function updateRssFeed(env: Env, user: User, id: string, input: UpdateInput): Promise<RssFeed> {
  const row = await ownFeedRow(env, user, id);
  const changes: Partial<typeof rssFeeds.$inferInsert> = { updatedAt: Date.now() };
  if (input.name !== undefined) changes.name = input.name || hostOf(input.sourceUrl ?? row.sourceUrl);
  if (input.sourceUrl !== undefined) {
    const sourceUrl = checkSourceUrl(env, input.sourceUrl, "sourceUrl");
    if (sourceUrl !== row.sourceUrl) {
      changes.sourceUrl = sourceUrl;
      changes.lastError = null;
      changes.lastErrorAt = null;
      changes.lastCheckedAt = null;
    }
  }
  if (input.sourceKind !== undefined && input.sourceKind !== row.sourceKind) {
    changes.sourceKind = input.sourceKind;
    changes.lastCheckedAt = null;
  }
  if (input.pinterestProfileUsername !== undefined)
    changes.pinterestUsername = (await ownProfile(env, user, input.pinterestProfileUsername, "pinterestProfileUsername")).username;
  if (input.boardId !== undefined) changes.boardId = input.boardId;
  if (input.boardName !== undefined) changes.boardName = input.boardName;
  if (input.designSettings !== undefined) {
    await checkTemplates(env, user, input.designSettings);
    changes.designSettings = input.designSettings;
  }
  if (input.isEnabled !== undefined) {
    changes.isEnabled = input.isEnabled;
    if (input.isEnabled && row.pausedReason === "credits") {
      await requireCredits(env, user.id, 1);
      changes.pausedReason = null;
      changes.pausedAt = null;
      changes.pauseEmailSentAt = null;
    }
  }
  const db = database(env.DB);
  await db
    .update(rssFeeds)
    .set(changes)
    .where(and(eq(rssFeeds.id, row.id), eq(rssFeeds.userId, user.id)));
  return rssFeedView(env, (await db.query.rssFeeds.findFirst({ where: eq(rssFeeds.id, row.id) }))!);
}

/** Deletes a feed, its items and their pin images; its public address stops answering. */
export async function deleteRssFeed(env: Env, user: User, id: string): Promise<{ deleted: string }> {
  const row = await ownFeedRow(env, user, id);
  const images = await env.DB.prepare(`SELECT image_key FROM rss_feed_items WHERE feed_id = ?1 AND user_id = ?2 AND image_key IS NOT NULL`)
    .bind(row.id, user.id)
    .all<{ image_key: string }>();
  const keys = images.results.map((item) => item.image_key);
  for (let i = 0; i < keys.length; i += 1000) await env.MEDIA.delete(keys.slice(i, i + 1000));
  await database(env.DB)
    .delete(rssFeeds)
    .where(and(eq(rssFeeds.id, row.id), eq(rssFeeds.userId, user.id)));
  return { deleted: row.id };
}

function toItem(env: Env, row: ItemRow): RssFeedItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    link: row.link,
    imageUrl: row.imageKey ? mediaUrl(env.APP_URL, row.imageKey) : null,
    status: row.status === "skipped" ? "failed" : row.status,
    error: row.error ?? null,
    creditsCharged: row.creditsCharged,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** A feed's latest items (not the posts left out at its start), newest first. */
export async function listRssFeedItems(env: Env, user: User, id: string): Promise<RssFeedItem[]> {
  const row = await ownFeedRow(env, user, id);
  const items = await database(env.DB)
    .select()
    .from(rssFeedItems)
    .where(and(eq(rssFeedItems.feedId, row.id), eq(rssFeedItems.userId, user.id), sql`${rssFeedItems.status} != 'skipped'`))
    .orderBy(desc(rssFeedItems.createdAt), desc(rssFeedItems.id))
    .limit(RSS_PAGE_ITEMS);
  return items.map((item) => toItem(env, item));
}

/**
 * The public RSS 2.0 feed (written by the `feed` library): the feed's
 * rendered items, newest first, each with its pin image as the enclosure, the
 * post's link, and a guid that names the item for good. Null for an unknown
 * token. A feed switched off or paused keeps serving what it has.
 */
export async function publicFeedXml(env: Env, token: string): Promise<string | null> {
  const db = database(env.DB);
  const row = await db.query.rssFeeds.findFirst({ where: eq(rssFeeds.publicToken, token) });
  if (!row) return null;
  const items = await db
    .select()
    .from(rssFeedItems)
    .where(and(eq(rssFeedItems.feedId, row.id), eq(rssFeedItems.status, "ready")))
    .orderBy(desc(rssFeedItems.createdAt), desc(rssFeedItems.id))
    .limit(RSS_PUBLIC_ITEMS);
  const self = publicFeedUrl(env, token);
  let site: string;
  try {
    site = `${new URL(row.sourceUrl).origin}/`;
  } catch {
    site = row.sourceUrl;
  }
  const feed = new Feed({
    title: row.name,
    description: `Pins for the new posts of ${row.name}, designed with Pinboard Studio.`,
    id: self,
    link: site,
    feed: self,
    language: "en",
    copyright: `Pins by ${row.name}`,
    updated: new Date(items[0]?.updatedAt ?? row.updatedAt),
    generator: "Pinboard Studio",
  });
  for (const item of items) {
    if (!item.imageKey) continue;
    feed.addItem({
      title: item.title,
      id: `pinboard-studio:rss-item:${item.id}`,
      link: item.link,
      description: item.description || item.title,
      date: new Date(item.createdAt),
      image: { url: mediaUrl(env.APP_URL, item.imageKey), length: item.imageBytes ?? 0, type: "image/jpeg" },
    });
  }
  return feed.rss2();
}
