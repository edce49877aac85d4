import { CreateRssFeedBody, RssFeedIdParam, RssPublicTokenParam, UpdateRssFeedBody, type RssCheckResponse } from "../../../contracts/pinterest/rss.ts";
import { requireUser } from "../../auth/middleware.ts";
import { checkRssFeed } from "../../services/pinterest/rss-checks.ts";
import {
  createRssFeed,
  deleteRssFeed,
  getRssDesignSettings,
  getRssFeed,
  listRssFeedItems,
  listRssFeeds,
  ownFeedRow,
  publicFeedXml,
  updateRssFeed,
} from "../../services/pinterest/rss-feeds.ts";
import { ServiceError } from "../../services/core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * RSS feeds for Pinterest's auto-publish (issue 18, docs/decisions/044):
 * the owner's calls (all scoped to the caller) and the public feed Pinterest reads.
 */
export const rssApi = router();

/** The public RSS 2.0 feed of a feed's token: no sign-in, as Pinterest fetches it. */
rssApi.get("/rss/feed/:token", valid("param", RssPublicTokenParam), async (c) => {
  const xml = await publicFeedXml(c.env, c.req.valid("param").token);
  if (xml === null) return c.json({ error: "RSS feed not found" }, 404);
  return c.body(xml, 200, { "content-type": "application/rss+xml; charset=utf-8", "cache-control": "public, max-age=300" });
});

rssApi.get("/rss/getRSSFeeds", requireUser, async (c) => {
  return c.json({ rssFeeds: await listRssFeeds(c.env, c.var.auth.user) });
});

rssApi.post("/rss/createRSSFeed", requireUser, valid("json", CreateRssFeedBody), async (c) => {
  return c.json({ rssFeed: await createRssFeed(c.env, c.var.auth.user, c.req.valid("json")) }, 201);
});

rssApi.patch("/rss/updateRSSFeed/:id", requireUser, valid("param", RssFeedIdParam), valid("json", UpdateRssFeedBody), async (c) => {
  return c.json({ rssFeed: await updateRssFeed(c.env, c.var.auth.user, c.req.valid("param").id, c.req.valid("json")) });
});

rssApi.delete("/rss/deleteRSSFeed/:id", requireUser, valid("param", RssFeedIdParam), async (c) => {
  return c.json(await deleteRssFeed(c.env, c.var.auth.user, c.req.valid("param").id));
});

/** Spec section 7: a feed's design settings. */
rssApi.get("/rss/getRSSFeedDesignSettings/:id", requireUser, valid("param", RssFeedIdParam), async (c) => {
  return c.json({ designSettings: await getRssDesignSettings(c.env, c.var.auth.user, c.req.valid("param").id) });
});

rssApi.get("/rss/getRSSFeedItems/:id", requireUser, valid("param", RssFeedIdParam), async (c) => {
  return c.json({ items: await listRssFeedItems(c.env, c.var.auth.user, c.req.valid("param").id) });
});

/** "Check now": the cron's check of one feed, at once. */
rssApi.post("/rss/checkRSSFeed/:id", requireUser, valid("param", RssFeedIdParam), async (c) => {
  const user = c.var.auth.user;
  const row = await ownFeedRow(c.env, user, c.req.valid("param").id);
  if (!row.isEnabled) throw new ServiceError(409, "This feed is switched off. Switch it on to check it.");
  if (row.pausedReason === "credits")
    throw new ServiceError(409, "This feed is paused because you ran out of pin credits. Switch it back on once you have credits.");
  const check = await checkRssFeed(c.env, row.id, { userId: user.id });
  if (!check) throw new ServiceError(409, "This feed is being checked right now. Try again in a minute.");
  const answer: RssCheckResponse = { check, rssFeed: await getRssFeed(c.env, user, row.id) };
  return c.json(answer);
});
