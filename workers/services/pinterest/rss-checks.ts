import { eq } from "drizzle-orm";
import * as v from "valibot";
import { generatePosts, postContent, templatePool } from "../../domain/generate.ts";
import { seededRandom, stableSeed } from "../../domain/random.ts";
import { CREDIT_COSTS } from "../../../contracts/billing/credits.ts";
import { DesignSettings } from "../../../contracts/content/design-settings.ts";
import { RSS_FIRST_CHECK_POSTS, RSS_ITEMS_PER_DAY, type RssCheckResult, type RssDesignSettings } from "../../../contracts/pinterest/rss.ts";
import type { Source } from "../../../contracts/content/scrape.ts";
import { rewriteText } from "../../ai/copywriter.ts";
import { database } from "../../db/client.ts";
import { rssFeeds, users } from "../../db/schema.ts";
import { colourIndexFor, newestPostsFirst, splitFirstCheck } from "../../domain/rss-feeds.ts";
import type { Env } from "../../env.ts";
import { putMedia, userMediaPrefix } from "../../media/store.ts";
import { renderPin } from "../../render/render-pin.ts";
import { workerFontLoader } from "../../render/worker-fonts.ts";
import { getSitemapPostURLs, scrapeFeed, scrapeWebsite } from "../../scrape/sources.ts";
import type { User } from "../accounts/accounts.ts";
import { consumeCredits, OutOfCredits, requireCredits, reverseCredits } from "../billing/credits.ts";
import { rssFeedPausedEmail } from "../accounts/emails.ts";
import { ServiceError } from "../core/errors.ts";
import { pictureSourceFor } from "../content/pin-images.ts";
import { designSettingsOf } from "./rss-feeds.ts";
import { getTemplateSet, listStandardTemplates } from "../content/templates.ts";
import { sendToAccountAddress } from "../accounts/typed-address-mail.ts";

/**
 * Checking an RSS feed's source (issue 18, docs/decisions/044): the cron's
 * sweep and "Check now" read the blog's feed or sitemap, claim each new post
 * (one row per feed and post, unique: a post is claimed once, whatever runs
 * at the same time), draw its pin with the feed's design, rewrite its copy
 * with AI when chosen, and charge it (image 1, AI text 0.5 each) under
 * references naming that post's item, so nothing is charged twice. A feed
 * whose owner runs out of credits pauses and its owner gets one e-mail.
 */

type FeedRow = typeof rssFeeds.$inferSelect;

const MINUTE = 60_000;
const DAY_MS = 24 * 60 * MINUTE;
/** How often the cron looks at a feed's source. */
export const RSS_CHECK_INTERVAL_MS = 30 * MINUTE;
/** A check holds its feed this long; a check that died is taken over after it. */
const CHECK_LEASE_MS = 10 * MINUTE;
/** A post being drawn is held this long; one whose check died is drawn again after it. */
const ITEM_CLAIM_MS = 10 * MINUTE;
/** Pins drawn in one check (the rest wait for the next): a cron run stays short. */
export const MAX_RENDERS_PER_CHECK = 20;
/** Feeds one cron run checks. */
export const MAX_FEEDS_PER_SWEEP = 5;

export const PIN_NOT_DRAWN = "We could not draw a pin for this post. Check that its pictures open, then check the feed again.";

/** One post of the source: its address (what makes it the same post every time) and how to read it. */
interface SourcePost {
  key: string;
  date: number | null;
  load(): Promise<Source>;
}

function dateOf(text: string | undefined): number | null {
  if (!text) return null;
  const time = Date.parse(text);
  return Number.isFinite(time) ? time : null;
}

/** The source's posts, newest first, through the generator's own readers (workers/scrape). */
async function sourcePosts(env: Env, feed: FeedRow): Promise<SourcePost[]> {
  const posts: SourcePost[] = [];
  if (feed.sourceKind === "sitemap") {
    const { posts: listed } = await getSitemapPostURLs(env, feed.sourceUrl);
    for (const post of listed) posts.push({ key: post.url, date: dateOf(post.lastmod), load: () => scrapeWebsite(env, post.url) });
  } else {
    const { sources } = await scrapeFeed(env, feed.sourceUrl);
    for (const source of sources) posts.push({ key: source.url, date: dateOf(source.date), load: async () => source });
  }
  const seen = new Set<string>();
  return newestPostsFirst(posts.filter((post) => post.key && !seen.has(post.key) && Boolean(seen.add(post.key))));
}

/** Takes the feed for one check, unless another check holds it or it is off or paused. */
async function leaseFeed(env: Env, feedId: string, now: number, userId?: string): Promise<FeedRow | null> {
  const row = await env.DB.prepare(
    `UPDATE rss_feeds SET checking_until = ?2
     WHERE id = ?1 AND is_enabled = 1 AND paused_reason IS NULL AND (checking_until IS NULL OR checking_until < ?3) ${userId ? "AND user_id = ?4" : ""}
     RETURNING id`,
  )
    .bind(feedId, now + CHECK_LEASE_MS, now, ...(userId ? [userId] : []))
    .first<{ id: string }>();
  if (!row) return null;
  return (await database(env.DB).query.rssFeeds.findFirst({ where: eq(rssFeeds.id, feedId) })) ?? null;
}

/**
 * Claims a new post for the feed: its row is written only when the feed has
 * added fewer than RSS_ITEMS_PER_DAY items in the last 24 hours, in the same
 * statement (so two checks at once cannot pass the limit together), and only
 * once per post (the unique index). Answers the item id, or null.
 */
async function claimNewPost(env: Env, feed: FeedRow, post: SourcePost, now: number): Promise<string | null> {
  const row = await env.DB.prepare(
    `INSERT INTO rss_feed_items (id, feed_id, user_id, source_key, status, title, description, link, claimed_until, posted_at, created_at, updated_at)
     SELECT ?1, ?2, ?3, ?4, 'pending', '', '', ?4, ?5, ?6, ?7, ?7
     WHERE (SELECT count(*) FROM rss_feed_items WHERE feed_id = ?2 AND status IN ('pending', 'ready') AND created_at > ?8) < ?9
     ON CONFLICT (feed_id, source_key) DO NOTHING
     RETURNING id`,
  )
    .bind(crypto.randomUUID(), feed.id, feed.userId, post.key, now + ITEM_CLAIM_MS, post.date, now, now - DAY_MS, RSS_ITEMS_PER_DAY)
    .first<{ id: string }>();
  return row?.id ?? null;
}

/** Takes over a post left pending (its check died, or the feed paused for credits while drawing it). */
async function reclaimPendingPost(env: Env, itemId: string, now: number): Promise<boolean> {
  const row = await env.DB.prepare(
    `UPDATE rss_feed_items SET claimed_until = ?2, updated_at = ?3
     WHERE id = ?1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < ?3) RETURNING id`,
  )
    .bind(itemId, now + ITEM_CLAIM_MS, now)
    .first<{ id: string }>();
  return row !== null;
}

/** Notes the posts a first check leaves out: seen, never drawn or charged. */
async function leaveOut(env: Env, feed: FeedRow, posts: SourcePost[], now: number) {
  for (let i = 0; i < posts.length; i += 200) {
    const keys = posts.slice(i, i + 200).map((post) => post.key);
    await env.DB.prepare(
      `INSERT INTO rss_feed_items (id, feed_id, user_id, source_key, status, title, description, link, created_at, updated_at)
       SELECT lower(hex(randomblob(16))), ?1, ?2, value, 'skipped', '', '', value, ?3, ?3 FROM json_each(?4) WHERE 1
       ON CONFLICT (feed_id, source_key) DO NOTHING`,
    )
      .bind(feed.id, feed.userId, now, JSON.stringify(keys))
      .run();
  }
}

/** Items of the feed for these posts: which are known, and which wait to be drawn. */
async function knownItems(env: Env, feedId: string, keys: string[]): Promise<Map<string, { id: string; status: string }>> {
  const known = new Map<string, { id: string; status: string }>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await env.DB.prepare(
      `SELECT id, source_key, status FROM rss_feed_items WHERE feed_id = ?1 AND source_key IN (SELECT value FROM json_each(?2))`,
    )
      .bind(feedId, JSON.stringify(keys.slice(i, i + 500)))
      .all<{ id: string; source_key: string; status: string }>();
    for (const row of rows.results) known.set(row.source_key, { id: row.id, status: row.status });
  }
  return known;
}

/** What a check draws with: the owner, the templates and the settings, read once per check. */
interface Drawing {
  owner: User;
  settings: RssDesignSettings;
  generator: DesignSettings;
  pool: Awaited<ReturnType<typeof listStandardTemplates>>;
  standard: Awaited<ReturnType<typeof listStandardTemplates>>;
}

async function drawingFor(env: Env, feed: FeedRow): Promise<Drawing> {
  const owner = await database(env.DB).query.users.findFirst({ where: eq(users.id, feed.userId) });
  if (!owner) throw new Error("An RSS feed's owner is gone");
  const settings = designSettingsOf(feed);
  const standard = await listStandardTemplates(env, owner);
  const found = settings.templateIds.length > 0 ? await getTemplateSet(env, owner, settings.templateIds) : [];
  const generator = v.parse(DesignSettings, {
    templateSelections: settings.templateIds,
    isRandomTemplates: true,
    pinsPerSource: 1,
    fontFamily: settings.fontFamily,
    useUpperCaseFont: settings.useUpperCaseFont,
  });
  return { owner, settings, generator, pool: templatePool(settings.templateIds, found, standard), standard };
}

/** The post's copy, rewritten by the AI when the feed asks for it (charged under the item's references); the source's own when the AI fails. */
async function copyFor(env: Env, drawing: Drawing, itemId: string, source: Source): Promise<{ title: string; description: string; credits: number }> {
  const { settings, owner } = drawing;
  if (!settings.aiRewrite) return { title: source.title, description: source.description, credits: 0 };
  let credits = 0;
  const rewrite = async (kind: "title" | "description", text: string): Promise<string> => {
    if (!text.trim()) return text;
    try {
      const [result] = await rewriteText(
        env,
        owner.id,
        { prompt: text.slice(0, 4000), numResults: 1, kind, keywords: settings.aiKeywords, language: settings.aiLanguage, tone: settings.aiTone },
        { unique: false, free: false, chargeReference: `rss:${itemId}:${kind}` },
      );
      credits += CREDIT_COSTS.aiText;
      return result ?? text;
    } catch (error) {
      if (error instanceof OutOfCredits) throw error;
      if (!(error instanceof ServiceError)) throw error;
      console.warn("RSS feed: AI rewrite failed, the post's own text is used", { kind, error: error.message });
      return text;
    }
  };
  const title = await rewrite("title", source.title);
  const description = await rewrite("description", source.description);
  return { title, description, credits };
}

type Drawn = { outcome: "ready"; credits: number } | { outcome: "failed" } | { outcome: "outOfCredits" };

/** Draws one claimed post's pin, stores it and charges it; the item becomes ready (or failed, or waits when credits ran out). */
async function drawPost(env: Env, feed: FeedRow, drawing: Drawing, itemId: string, post: SourcePost, now: number): Promise<Drawn> {
  const { owner, settings } = drawing;
  const cost = CREDIT_COSTS.image + (settings.aiRewrite ? 2 * CREDIT_COSTS.aiText : 0);
  const release = () =>
    env.DB.prepare(`UPDATE rss_feed_items SET claimed_until = NULL, updated_at = ?2 WHERE id = ?1 AND status = 'pending'`).bind(itemId, now).run();
  const fail = async (message: string) => {
    await env.DB.prepare(`UPDATE rss_feed_items SET status = 'failed', error = ?2, claimed_until = NULL, updated_at = ?3 WHERE id = ?1 AND status = 'pending'`)
      .bind(itemId, message, now)
      .run();
    return { outcome: "failed" } as const;
  };
  let key: string | null = null;
  try {
    await requireCredits(env, owner.id, cost, now);
    let source: Source;
    try {
      source = await post.load();
    } catch (error) {
      if (error instanceof ServiceError) return await fail(`We could not read this post: ${error.message}`);
      throw error;
    }
    const copy = await copyFor(env, drawing, itemId, source);
    const colours = settings.designColors;
    const colour = colours[colourIndexFor(post.key, colours.length)]!;
    const [generated] = generatePosts([{ ...source, title: copy.title, description: copy.description }], {
      settings: { ...drawing.generator, designColors: [colour], selectedColorIndex: 0 },
      templates: drawing.pool,
      fallbacks: drawing.standard,
      random: seededRandom(stableSeed(post.key)),
      newId: () => itemId,
    });
    if (!generated?.template) return await fail(PIN_NOT_DRAWN);
    let jpeg: Uint8Array;
    try {
      jpeg = (await renderPin(generated.template, postContent(generated), { fonts: workerFontLoader(env), pictures: pictureSourceFor(env) })).jpeg;
    } catch (error) {
      console.error("RSS feed: a post's pin could not be drawn", { feedId: feed.id, itemId, error: String(error) });
      return await fail(PIN_NOT_DRAWN);
    }
    key = `${userMediaPrefix(owner.id)}rss-pins/${feed.id}/${itemId}/${generated.fileName}`;
    await putMedia(env, key, jpeg, "image/jpeg");
    await consumeCredits(
      env,
      owner.id,
      { category: "image", amount: CREDIT_COSTS.image, reason: `RSS feed pin: ${feed.name}`, reference: `rss:${itemId}:image` },
      now,
    );
    const credits = CREDIT_COSTS.image + copy.credits;
    const done = await env.DB.prepare(
      `UPDATE rss_feed_items SET status = 'ready', title = ?2, description = ?3, link = ?4, image_key = ?5, image_bytes = ?6, credits_charged = ?7,
              charged_at = ?8, claimed_until = NULL, error = NULL, updated_at = ?8
       WHERE id = ?1 AND status = 'pending' RETURNING id`,
    )
      .bind(itemId, generated.title.slice(0, 500), generated.description.slice(0, 2000), generated.url || post.key, key, jpeg.byteLength, credits, now)
      .first();
    if (!done) {
      // The feed was deleted while the pin was drawn: nothing to serve it in, so nothing to pay for.
      await env.MEDIA.delete(key);
      await reverseCredits(env, owner.id, `rss:${itemId}:image`, "RSS feed deleted while its pin was drawn");
      return { outcome: "failed" };
    }
    return { outcome: "ready", credits };
  } catch (error) {
    if (error instanceof OutOfCredits) {
      if (key) await env.MEDIA.delete(key);
      await release();
      return { outcome: "outOfCredits" };
    }
    await release();
    throw error;
  }
}

/** Pauses the feed for credits; the first pause since the owner last switched it on e-mails the owner, once. */
async function pauseForCredits(env: Env, feed: FeedRow, owner: User, now: number) {
  await env.DB.prepare(`UPDATE rss_feeds SET paused_reason = 'credits', paused_at = ?2, updated_at = ?2 WHERE id = ?1 AND paused_reason IS NULL`)
    .bind(feed.id, now)
    .run();
  const claim = await env.DB.prepare(`UPDATE rss_feeds SET pause_email_sent_at = ?2 WHERE id = ?1 AND pause_email_sent_at IS NULL RETURNING id`)
    .bind(feed.id, now)
    .first();
  if (!claim) return;
  try {
    // Only to a verified address (decision 080); otherwise the next pause tries again.
    if (
      !(await sendToAccountAddress(
        env,
        owner,
        rssFeedPausedEmail(owner.email, owner.firstName, feed.name, new URL("/pinterest-rss-feeds", env.APP_URL).toString()),
      ))
    ) {
      await env.DB.prepare(`UPDATE rss_feeds SET pause_email_sent_at = NULL WHERE id = ?1`).bind(feed.id).run();
    }
  } catch (error) {
    // Not sent: let the next pause try again.
    await env.DB.prepare(`UPDATE rss_feeds SET pause_email_sent_at = NULL WHERE id = ?1`).bind(feed.id).run();
    console.warn("RSS feed paused, but its e-mail could not be sent", { feedId: feed.id, error: String(error) });
  }
}

export interface CheckOptions {
  now?: number;
  /** Pins drawn at most in this check. */
  maxRenders?: number;
  /** Only a feed of this user (the "Check now" call). */
  userId?: string;
}

/**
 * One check of one feed. Null when the feed is off, paused, gone, or being
 * checked by someone else right now.
 */
export async function checkRssFeed(env: Env, feedId: string, options: CheckOptions = {}): Promise<RssCheckResult | null> {
  const now = options.now ?? Date.now();
  const feed = await leaseFeed(env, feedId, now, options.userId);
  if (!feed) return null;
  const result: RssCheckResult = { added: 0, failed: 0, waiting: 0, paused: false, error: null };
  try {
    let posts: SourcePost[];
    try {
      posts = await sourcePosts(env, feed);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      result.error = error.message;
      await env.DB.prepare(`UPDATE rss_feeds SET last_error = ?2, last_error_at = ?3, checking_until = NULL, updated_at = ?3 WHERE id = ?1`)
        .bind(feed.id, error.message, now)
        .run();
      return result;
    }
    const { take, leaveOut: older } = splitFirstCheck(posts, feed.lastCheckedAt === null, RSS_FIRST_CHECK_POSTS);
    if (older.length > 0) await leaveOut(env, feed, older, now);
    const known = await knownItems(
      env,
      feed.id,
      take.map((post) => post.key),
    );
    const maxRenders = options.maxRenders ?? MAX_RENDERS_PER_CHECK;
    let drawing: Drawing | null = null;
    for (const post of take) {
      const item = known.get(post.key);
      if (item && item.status !== "pending") continue;
      if (result.added + result.failed >= maxRenders) {
        result.waiting += 1;
        continue;
      }
      const itemId = item ? ((await reclaimPendingPost(env, item.id, now)) ? item.id : null) : await claimNewPost(env, feed, post, now);
      if (!itemId) {
        // Claimed by another check, or the day's limit is reached.
        if (!item) result.waiting += 1;
        continue;
      }
      drawing ??= await drawingFor(env, feed);
      const drawn = await drawPost(env, feed, drawing, itemId, post, now);
      if (drawn.outcome === "ready") result.added += 1;
      else if (drawn.outcome === "failed") result.failed += 1;
      else {
        result.paused = true;
        await pauseForCredits(env, feed, drawing.owner, now);
        break;
      }
    }
    await env.DB.prepare(
      `UPDATE rss_feeds SET last_checked_at = ?2, last_error = NULL, last_error_at = NULL, checking_until = NULL, updated_at = ?2 WHERE id = ?1`,
    )
      .bind(feed.id, now)
      .run();
    return result;
  } catch (error) {
    await env.DB.prepare(`UPDATE rss_feeds SET checking_until = NULL WHERE id = ?1`).bind(feed.id).run();
    throw error;
  }
}

/**
 * The cron's sweep (every 5 minutes): checks the feeds that are on, not
 * paused, and not checked (or failed) in the last RSS_CHECK_INTERVAL_MS,
 * longest waiting first, a few per run. Answers what it did.
 */
export async function sweepRssFeeds(
  env: Env,
  now = Date.now(),
  options: { maxFeeds?: number; maxRenders?: number } = {},
): Promise<{ checked: number; added: number; paused: number }> {
  const due = await env.DB.prepare(
    `SELECT id FROM rss_feeds
     WHERE is_enabled = 1 AND paused_reason IS NULL AND (checking_until IS NULL OR checking_until < ?1)
       AND max(coalesce(last_checked_at, 0), coalesce(last_error_at, 0)) <= ?2
     ORDER BY max(coalesce(last_checked_at, 0), coalesce(last_error_at, 0)), id LIMIT ?3`,
  )
    .bind(now, now - RSS_CHECK_INTERVAL_MS, options.maxFeeds ?? MAX_FEEDS_PER_SWEEP)
    .all<{ id: string }>();
  const totals = { checked: 0, added: 0, paused: 0 };
  for (const { id } of due.results) {
    try {
      const result = await checkRssFeed(env, id, { now, maxRenders: options.maxRenders });
      if (!result) continue;
      totals.checked += 1;
      totals.added += result.added;
      if (result.paused) totals.paused += 1;
    } catch (error) {
      console.error("RSS feed check failed", { feedId: id, error: String(error) });
    }
  }
  return totals;
}
