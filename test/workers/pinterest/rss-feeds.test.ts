import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { RSS_FIRST_CHECK_POSTS, RSS_ITEMS_PER_DAY, RSS_PAUSED_FOR_CREDITS } from "../../../contracts/pinterest/rss.ts";
import { DEMO_POSTS } from "../../../sandbox/blog-demo/posts.ts";
import worker from "../../../workers/app.ts";
import { consumeCredits } from "../../../workers/services/billing/credits.ts";
import { checkRssFeed, RSS_CHECK_INTERVAL_MS, sweepRssFeeds } from "../../../workers/services/pinterest/rss-checks.ts";
import { bearer, json, outboxFor, signUpUser, signUpVerifiedUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, pinterestName, remainingCredits, type ConnectedProfile } from "./scheduling-support.ts";
import { app, read, testEnv } from "../support.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";

/**
 * RSS feeds for Pinterest's auto-publish (issue 18): the calls, the public
 * RSS 2.0 feed, and the check that draws and charges each new post of the
 * source once (the demo blog's feed.xml lists its 14 posts).
 */

const FEED_URL = () => `${testEnv.SANDBOX_URL}/blog-demo/feed.xml`;
const HOUR = 60 * 60_000;

function call(user: TestUser, path: string, method = "GET", body?: unknown) {
  return app(path, body === undefined ? { method, headers: bearer(user.tokens) } : { ...json(body, bearer(user.tokens)), method });
}

async function newFeed(user: TestUser, profile: ConnectedProfile, fields: Record<string, unknown> = {}) {
  const response = await call(user, "/api/rss/createRSSFeed", "POST", {
    sourceUrl: FEED_URL(),
    pinterestProfileUsername: profile.username,
    boardId: profile.boards[0].id,
    boardName: profile.boards[0].name,
    ...fields,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await read(response)).rssFeed;
}

async function items(feedId: string) {
  return (await testEnv.DB.prepare(`SELECT * FROM rss_feed_items WHERE feed_id = ?1 ORDER BY created_at, id`).bind(feedId).all<Record<string, unknown>>())
    .results;
}

async function imageCharges(user: TestUser) {
  return (
    await ledgerOf(testEnv, user.userId)
      .prepare(`SELECT reference, amount FROM credit_ledger WHERE user_id = ?1 AND reference LIKE 'rss:%'`)
      .bind(user.userId)
      .all<{ reference: string; amount: number }>()
  ).results;
}

/** Only this feed is due: other files' feeds never run in these tests' sweeps (each test's feeds are checked through checkRssFeed or sweeps at times only they are due). */
async function parkOtherFeeds(except: string[]) {
  await testEnv.DB.prepare(`UPDATE rss_feeds SET is_enabled = 0 WHERE id NOT IN (SELECT value FROM json_each(?1))`).bind(JSON.stringify(except)).run();
}

describe("RSS feed calls", () => {
  let owner: TestUser;
  let other: TestUser;
  let profile: ConnectedProfile;

  beforeAll(async () => {
    owner = await signUpUser();
    other = await signUpUser();
    profile = await connectProfile(owner, pinterestName("rssown"));
  });

  it("creates a feed with an unguessable public address, lists it, and reads its design settings", async () => {
    const feed = await newFeed(owner, profile, { designSettings: { aiRewrite: true, designColors: [{ r: 200, g: 40, b: 60 }] } });
    expect(feed.name).toBe(new URL(FEED_URL()).hostname);
    expect(feed.isEnabled).toBe(true);
    expect(feed.publicUrl).toMatch(/^http:\/\/app\.test\/api\/rss\/feed\/[A-Za-z0-9_-]{43}$/);
    expect(feed.lastCheckedAt).toBeNull();

    const listed = await read(await call(owner, "/api/rss/getRSSFeeds"));
    expect(listed.rssFeeds.map((f: { id: string }) => f.id)).toContain(feed.id);

    const settings = await call(owner, `/api/rss/getRSSFeedDesignSettings/${feed.id}`);
    expect(settings.status).toBe(200);
    expect((await read(settings)).designSettings).toMatchObject({
      aiRewrite: true,
      designColors: [{ r: 200, g: 40, b: 60, a: 1 }],
      fontFamily: "Carter One",
      templateIds: [],
    });
  });

  it("refuses bad input naming the field, and a source that is not a web address", async () => {
    const missing = await call(owner, "/api/rss/createRSSFeed", "POST", { pinterestProfileUsername: profile.username, boardId: "1", boardName: "B" });
    expect(missing.status).toBe(400);
    expect((await read(missing)).field).toBe("sourceUrl");

    const badUrl = await call(owner, "/api/rss/createRSSFeed", "POST", {
      sourceUrl: "not a url",
      pinterestProfileUsername: profile.username,
      boardId: "1",
      boardName: "B",
    });
    expect(badUrl.status).toBe(400);
    expect((await read(badUrl)).field).toBe("sourceUrl");

    const badTemplate = await call(owner, "/api/rss/createRSSFeed", "POST", {
      sourceUrl: FEED_URL(),
      pinterestProfileUsername: profile.username,
      boardId: "1",
      boardName: "B",
      designSettings: { templateIds: ["no-such-template"] },
    });
    expect(badTemplate.status).toBe(400);
    expect((await read(badTemplate)).field).toBe("designSettings.templateIds.0");

    const notMine = await call(owner, "/api/rss/createRSSFeed", "POST", {
      sourceUrl: FEED_URL(),
      pinterestProfileUsername: "someone_else",
      boardId: "1",
      boardName: "B",
    });
    expect(notMine.status).toBe(404);
    expect((await read(notMine)).field).toBe("pinterestProfileUsername");
  });

  it("keeps another user's feed untouchable: not read, changed, checked, listed or deleted", async () => {
    const feed = await newFeed(owner, profile);
    for (const [path, method, body] of [
      [`/api/rss/getRSSFeedDesignSettings/${feed.id}`, "GET"],
      [`/api/rss/getRSSFeedItems/${feed.id}`, "GET"],
      [`/api/rss/updateRSSFeed/${feed.id}`, "PATCH", { isEnabled: false, name: "Taken" }],
      [`/api/rss/checkRSSFeed/${feed.id}`, "POST", {}],
      [`/api/rss/deleteRSSFeed/${feed.id}`, "DELETE"],
    ] as const) {
      const response = await call(other, path, method, body);
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await read(await call(other, "/api/rss/getRSSFeeds"))).rssFeeds).toEqual([]);
    const still = await read(await call(owner, `/api/rss/getRSSFeeds`));
    expect(still.rssFeeds.find((f: { id: string }) => f.id === feed.id)).toMatchObject({ name: feed.name, isEnabled: true });
  });

  it("updates only what is sent, and deletes a feed with its public address", async () => {
    const feed = await newFeed(owner, profile);
    const updated = await call(owner, `/api/rss/updateRSSFeed/${feed.id}`, "PATCH", { name: "Linen & Lark pins", isEnabled: false });
    expect(updated.status).toBe(200);
    expect((await read(updated)).rssFeed).toMatchObject({ name: "Linen & Lark pins", isEnabled: false, sourceUrl: feed.sourceUrl, boardId: feed.boardId });

    const token = feed.publicUrl.split("/").at(-1);
    expect((await app(`/api/rss/feed/${token}`)).status).toBe(200);
    expect((await call(owner, `/api/rss/deleteRSSFeed/${feed.id}`, "DELETE")).status).toBe(200);
    expect((await app(`/api/rss/feed/${token}`)).status).toBe(404);
    expect((await call(owner, `/api/rss/getRSSFeedDesignSettings/${feed.id}`)).status).toBe(404);
  });
});

describe("checking a feed's source", () => {
  let user: TestUser;
  let profile: ConnectedProfile;

  beforeAll(async () => {
    user = await signUpUser();
    profile = await connectProfile(user, pinterestName("rsscheck"));
    await grantCredits(user, 100);
  });

  it("draws and charges each new post once across repeated and concurrent cron runs, and serves them as valid RSS 2.0", async () => {
    const feed = await newFeed(user, profile);
    await parkOtherFeeds([feed.id]);
    const start = Date.now();
    const before = await remainingCredits(user);

    // Two cron runs at once: one of them checks the feed.
    const runs = await Promise.all([sweepRssFeeds(testEnv, start), sweepRssFeeds(testEnv, start)]);
    expect(runs.map((run) => run.added).sort()).toEqual([0, RSS_FIRST_CHECK_POSTS]);

    const afterFirst = await items(feed.id);
    const ready = afterFirst.filter((item) => item.status === "ready");
    expect(ready).toHaveLength(RSS_FIRST_CHECK_POSTS);
    // The first check takes the newest posts; the older ones are left out, never drawn or charged.
    expect(afterFirst.filter((item) => item.status === "skipped")).toHaveLength(DEMO_POSTS.length - RSS_FIRST_CHECK_POSTS);
    expect(await remainingCredits(user)).toBe(before - RSS_FIRST_CHECK_POSTS);
    expect(await imageCharges(user)).toHaveLength(RSS_FIRST_CHECK_POSTS);

    // Later runs (due again, and forced at the same time) find nothing new and charge nothing.
    for (const at of [start + RSS_CHECK_INTERVAL_MS + 1, start + 2 * RSS_CHECK_INTERVAL_MS + 2]) {
      const [a, b] = await Promise.all([sweepRssFeeds(testEnv, at), checkRssFeed(testEnv, feed.id, { now: at })]);
      expect(a.added + (b?.added ?? 0)).toBe(0);
    }
    expect(await items(feed.id)).toHaveLength(DEMO_POSTS.length);
    expect(await remainingCredits(user)).toBe(before - RSS_FIRST_CHECK_POSTS);

    // The pins are real 1000x1500 JPEGs, served publicly without sniffing.
    const image = await app(new URL(`/media/${encodeURI(String(ready[0].image_key))}`, "http://app.test").pathname);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect(bytes.byteLength).toBe(ready[0].image_bytes);
    expect(jpegSize(bytes)).toEqual({ width: 1000, height: 1500 });

    // The public feed: RSS 2.0 with the required channel and item elements.
    const token = feed.publicUrl.split("/").at(-1);
    const response = await app(`/api/rss/feed/${token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await response.text();
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "item" }).parse(xml);
    expect(parsed.rss["@version"]).toBe("2.0");
    const channel = parsed.rss.channel;
    for (const required of ["title", "link", "description"]) expect(String(channel[required] ?? "").length, `channel ${required}`).toBeGreaterThan(0);
    expect(channel.item).toHaveLength(RSS_FIRST_CHECK_POSTS);
    const guids = new Set<string>();
    const links = new Set(DEMO_POSTS.map((post) => `${testEnv.SANDBOX_URL}/blog-demo/posts/${post.slug}`));
    for (const item of channel.item) {
      // An item needs a title or a description; ours have both, a link to the post and its pin as the enclosure.
      expect(String(item.title).length).toBeGreaterThan(0);
      expect(String(item.description).length).toBeGreaterThan(0);
      expect(links).toContain(String(item.link));
      expect(new Date(item.pubDate).toUTCString()).toBe(item.pubDate);
      const enclosure = item.enclosure;
      expect(enclosure["@type"]).toBe("image/jpeg");
      expect(Number(enclosure["@length"])).toBeGreaterThan(1000);
      expect(enclosure["@url"]).toMatch(/^http:\/\/app\.test\/media\/users\/.+\.jpeg$/);
      // guid: isPermaLink="false" for an id that is not an address; otherwise it would have to be a URL.
      const guid = item.guid;
      const permaLink = typeof guid === "object" ? guid["@isPermaLink"] : undefined;
      const guidText = typeof guid === "object" ? guid["#text"] : guid;
      if (permaLink === undefined || permaLink === "true") expect(guidText).toMatch(/^https?:\/\//);
      else expect(permaLink).toBe("false");
      guids.add(String(guidText));
    }
    expect(guids.size).toBe(RSS_FIRST_CHECK_POSTS);
    // The same items keep the same guids on the next read.
    const again = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "item" }).parse(
      await (await app(`/api/rss/feed/${token}`)).text(),
    );
    expect(new Set(again.rss.channel.item.map((item: { guid: { "#text": string } }) => item.guid["#text"]))).toEqual(guids);

    // The page's list shows the same items with their images.
    const listed = (await read(await call(user, `/api/rss/getRSSFeedItems/${feed.id}`))).items;
    expect(listed).toHaveLength(RSS_FIRST_CHECK_POSTS);
    expect(listed.every((item: { imageUrl: string | null; status: string }) => item.status === "ready" && item.imageUrl?.endsWith(".jpeg"))).toBe(true);
  });

  it(`adds at most ${RSS_ITEMS_PER_DAY} items in 24 hours, and the rest the next day`, async () => {
    const feed = await newFeed(user, profile);
    await parkOtherFeeds([feed.id]);
    const now = Date.now();
    // 198 items added in the last hours; the feed has been checked before (so every post of the source is new to it).
    await testEnv.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
       INSERT INTO rss_feed_items (id, feed_id, user_id, source_key, status, title, description, link, created_at, updated_at)
       SELECT 'seed-' || ?1 || '-' || i, ?1, ?2, 'https://elsewhere.example/post-' || i, 'ready', 'Earlier post', '', 'https://elsewhere.example/', ?4 - i * 60000, ?4 FROM n`,
    )
      .bind(feed.id, user.userId, RSS_ITEMS_PER_DAY - 2, now)
      .run();
    await testEnv.DB.prepare(`UPDATE rss_feeds SET last_checked_at = ?2 WHERE id = ?1`)
      .bind(feed.id, now - 2 * HOUR)
      .run();

    const today = await checkRssFeed(testEnv, feed.id, { now });
    expect(today).toMatchObject({ added: 2, waiting: DEMO_POSTS.length - 2 });
    expect((await read(await call(user, "/api/rss/getRSSFeeds"))).rssFeeds.find((f: { id: string }) => f.id === feed.id).addedToday).toBe(RSS_ITEMS_PER_DAY);

    // Still within the 24 hours: nothing more.
    expect(await checkRssFeed(testEnv, feed.id, { now: now + RSS_CHECK_INTERVAL_MS + 1 })).toMatchObject({ added: 0 });
    // A day later the earlier items are out of the window: the next posts get their pins.
    const tomorrow = await checkRssFeed(testEnv, feed.id, { now: now + 25 * HOUR, maxRenders: 2 });
    expect(tomorrow).toMatchObject({ added: 2, waiting: DEMO_POSTS.length - 4 });
    expect((await items(feed.id)).filter((item) => item.status === "ready")).toHaveLength(RSS_ITEMS_PER_DAY + 2);
  });

  it("rewrites the copy with AI when chosen, charging 0.5 per text and 1 per pin, once", async () => {
    const feed = await newFeed(user, profile, { designSettings: { aiRewrite: true, aiTone: "Friendly" } });
    const now = Date.now();
    const before = await remainingCredits(user);
    expect(await checkRssFeed(testEnv, feed.id, { now, maxRenders: 1 })).toMatchObject({ added: 1, waiting: RSS_FIRST_CHECK_POSTS - 1 });
    const [item] = (await items(feed.id)).filter((row) => row.status === "ready");
    const charges = (await imageCharges(user)).filter((charge) => charge.reference.startsWith(`rss:${item.id}:`));
    expect(charges.map((charge) => [charge.reference.split(":").at(-1), charge.amount]).sort()).toEqual([
      ["description", -0.5],
      ["image", -1],
      ["title", -0.5],
    ]);
    expect(item.credits_charged).toBe(2);
    expect(await remainingCredits(user)).toBe(before - 2);
    // The pin carries the AI's copy, not the post's own title.
    const original = DEMO_POSTS.map((post) => post.title);
    expect(original).not.toContain(item.title);
    expect(String(item.title).length).toBeLessThan(40);
    // Checked again: the same post is not rewritten or charged again.
    await checkRssFeed(testEnv, feed.id, { now: now + RSS_CHECK_INTERVAL_MS + 1, maxRenders: 1 });
    expect((await imageCharges(user)).filter((charge) => charge.reference.startsWith(`rss:${item.id}:`))).toHaveLength(3);
    await call(user, `/api/rss/deleteRSSFeed/${feed.id}`, "DELETE");
  });

  it("reads a sitemap's posts as well, each page read for its title, description and pictures", async () => {
    const feed = await newFeed(user, profile, { sourceUrl: `${testEnv.SANDBOX_URL}/blog-demo/sitemap.xml`, sourceKind: "sitemap" });
    expect(await checkRssFeed(testEnv, feed.id, { maxRenders: 1 })).toMatchObject({ added: 1, failed: 0, waiting: RSS_FIRST_CHECK_POSTS - 1, error: null });
    const [item] = (await read(await call(user, `/api/rss/getRSSFeedItems/${feed.id}`))).items;
    const post = DEMO_POSTS.find((candidate) => item.link === `${testEnv.SANDBOX_URL}/blog-demo/posts/${candidate.slug}`);
    expect(post, item.link).toBeDefined();
    expect(item).toMatchObject({ status: "ready", title: post!.title, creditsCharged: 1 });
    expect(item.description.length).toBeGreaterThan(20);
    expect(item.imageUrl).toMatch(/\.jpeg$/);
    await call(user, `/api/rss/deleteRSSFeed/${feed.id}`, "DELETE");
  });

  it("is swept by the worker's */5 cron", async () => {
    const feed = await newFeed(user, profile, { sourceUrl: `${testEnv.SANDBOX_URL}/blog-demo/no-feed-here.xml` });
    await parkOtherFeeds([feed.id]);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    const shown = (await read(await call(user, "/api/rss/getRSSFeeds"))).rssFeeds.find((f: { id: string }) => f.id === feed.id);
    expect(shown.lastError).toBe("The feed answered 404 (not found).");
    await call(user, `/api/rss/deleteRSSFeed/${feed.id}`, "DELETE");
  });

  it("stores a source that cannot be read in plain words, and clears it once the source reads", async () => {
    const feed = await newFeed(user, profile, { sourceUrl: `${testEnv.SANDBOX_URL}/blog-demo/posts/${DEMO_POSTS[0].slug}/missing-feed.xml` });
    const check = await call(user, `/api/rss/checkRSSFeed/${feed.id}`, "POST", {});
    expect(check.status).toBe(200);
    const answer = await read(check);
    expect(answer.check.error).toBe("The feed answered 404 (not found).");
    expect(answer.rssFeed.lastError).toBe("The feed answered 404 (not found).");

    const notAFeed = await call(user, `/api/rss/updateRSSFeed/${feed.id}`, "PATCH", { sourceUrl: `${testEnv.SANDBOX_URL}/blog-demo/sitemap.xml` });
    expect((await read(notAFeed)).rssFeed.lastError).toBeNull();
    const second = await read(await call(user, `/api/rss/checkRSSFeed/${feed.id}`, "POST", {}));
    expect(second.rssFeed.lastError).toBe("That address is not an RSS or Atom feed.");
    await call(user, `/api/rss/deleteRSSFeed/${feed.id}`, "DELETE");
  });
});

describe("running out of credits", () => {
  it("pauses the feed, says so, e-mails the owner once, and resumes only with credits", async () => {
    // Verified: the notice goes to the owner's address only once it is (decision 080).
    const user = await signUpVerifiedUser({ firstName: "Ines" });
    const profile = await connectProfile(user, pinterestName("rssbroke"));
    // A Free month has 10 credits: 3 are left.
    await consumeCredits(testEnv, user.userId, { category: "image", amount: 7, reason: "test spend", reference: `test-spend-${user.userId}` });
    const feed = await newFeed(user, profile, { name: "Linen & Lark" });
    await parkOtherFeeds([feed.id]);
    const now = Date.now();

    const first = await sweepRssFeeds(testEnv, now);
    expect(first).toMatchObject({ checked: 1, added: 3, paused: 1 });
    expect(await remainingCredits(user)).toBe(0);
    const shown = (await read(await call(user, "/api/rss/getRSSFeeds"))).rssFeeds[0];
    expect(shown).toMatchObject({ pausedReason: "credits", pausedMessage: RSS_PAUSED_FOR_CREDITS, publishedCount: 3 });

    // Paused feeds are not checked; no second e-mail.
    expect(await sweepRssFeeds(testEnv, now + RSS_CHECK_INTERVAL_MS + 1)).toMatchObject({ checked: 0 });
    const mails = (await outboxFor(user.email)).filter((mail) => mail.subject === 'Your RSS feed "Linen & Lark" is paused');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("you ran out of pin credits");
    expect(mails[0].links).toContain("http://app.test/pinterest-rss-feeds");

    // Switching it back on needs credits.
    const refused = await call(user, `/api/rss/updateRSSFeed/${feed.id}`, "PATCH", { isEnabled: true });
    expect(refused.status).toBe(402);
    await grantCredits(user, 20);
    const resumed = await call(user, `/api/rss/updateRSSFeed/${feed.id}`, "PATCH", { isEnabled: true });
    expect((await read(resumed)).rssFeed).toMatchObject({ pausedReason: null, isEnabled: true });
    const credits = await remainingCredits(user);
    const after = await checkRssFeed(testEnv, feed.id, { now: now + 2 * RSS_CHECK_INTERVAL_MS });
    // The post whose drawing was stopped is drawn now, and the rest of the first ten.
    expect(after).toMatchObject({ added: RSS_FIRST_CHECK_POSTS - 3, paused: false });
    expect(await remainingCredits(user)).toBe(credits - (RSS_FIRST_CHECK_POSTS - 3));
    expect(await imageCharges(user)).toHaveLength(RSS_FIRST_CHECK_POSTS);
  });
});

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[offset + 5]! << 8) | bytes[offset + 6]!, width: (bytes[offset + 7]! << 8) | bytes[offset + 8]! };
    }
    offset += 2 + length;
  }
  return null;
}
