import * as v from "valibot";
import { AI_LANGUAGES, AI_TONES, DEFAULT_AI_LANGUAGE, DEFAULT_AI_TONE, RgbaColor } from "../content/design-settings.ts";
import { body, plainLine, plainText } from "../fields.ts";
import { DEFAULT_FONT_FAMILY, DEFAULT_PIN_COLOR } from "../content/template.ts";

/**
 * RSS feeds for Pinterest's auto-publish (issue 18, docs/decisions/044): a
 * user's blog feed or sitemap becomes an RSS 2.0 feed of designed pins at a
 * public address that a Pinterest business account claims. Calls under /api/rss.
 */

/** Pinterest publishes at most this many new pins a day from one feed; we add no more items than that. */
export const RSS_ITEMS_PER_DAY = 200;
/** On its first check a feed takes this many of the source's newest posts; older ones are left out. */
export const RSS_FIRST_CHECK_POSTS = 10;
/** A user keeps at most this many feeds. */
export const MAX_RSS_FEEDS = 20;
/** Templates a feed may rotate through. */
export const MAX_RSS_TEMPLATES = 12;

export const RSS_SOURCE_KINDS = ["feed", "sitemap"] as const;
export type RssSourceKind = (typeof RSS_SOURCE_KINDS)[number];

const flag = (fallback: boolean) => v.optional(v.boolean(), fallback);

/**
 * How a feed's pins look and read (GET /api/rss/getRSSFeedDesignSettings/{id}):
 * the templates it rotates through (none: the standard templates that fit
 * each post), the colours, the font, and whether the AI rewrites each post's
 * title and description (0.5 credit each) before the pin is drawn.
 */
export const RssDesignSettings = v.object({
  templateIds: v.optional(
    v.pipe(
      v.array(v.pipe(v.string("templateIds must be template ids"), v.minLength(1), v.maxLength(64))),
      v.maxLength(MAX_RSS_TEMPLATES, `templateIds has at most ${MAX_RSS_TEMPLATES} templates`),
    ),
    [],
  ),
  designColors: v.optional(
    v.pipe(v.array(RgbaColor), v.minLength(1, "designColors needs at least one colour"), v.maxLength(24, "designColors has too many colours")),
    [{ ...DEFAULT_PIN_COLOR }],
  ),
  fontFamily: v.optional(
    v.pipe(v.string("fontFamily must be text"), plainLine, v.trim(), v.nonEmpty("fontFamily is required"), v.maxLength(80, "fontFamily is too long")),
    DEFAULT_FONT_FAMILY,
  ),
  useUpperCaseFont: flag(true),
  /** Rewrite each post's title and description with AI (0.5 credit each). */
  aiRewrite: flag(false),
  aiLanguage: v.optional(v.picklist(AI_LANGUAGES, "aiLanguage is not a supported language"), DEFAULT_AI_LANGUAGE),
  aiTone: v.optional(v.picklist(AI_TONES, "aiTone is not a supported tone"), DEFAULT_AI_TONE),
  /** One phrase per line; blank means a free rewrite. */
  aiKeywords: v.optional(v.pipe(v.string("aiKeywords must be text"), plainText, v.maxLength(2000, "aiKeywords is too long")), ""),
});
export type RssDesignSettings = v.InferOutput<typeof RssDesignSettings>;
export type RssDesignSettingsInput = v.InferInput<typeof RssDesignSettings>;

export function defaultRssDesignSettings(): RssDesignSettings {
  return v.parse(RssDesignSettings, {});
}

const SourceUrl = v.pipe(v.string("sourceUrl is required"), v.trim(), v.nonEmpty("sourceUrl is required"), v.maxLength(2048, "sourceUrl is too long"));
const Name = v.pipe(v.string("name must be text"), plainLine, v.trim(), v.maxLength(100, "name is too long"));
const Username = v.pipe(
  v.string("pinterestProfileUsername is required"),
  v.trim(),
  v.nonEmpty("pinterestProfileUsername is required"),
  v.maxLength(100, "pinterestProfileUsername is too long"),
);
const BoardId = v.pipe(v.string("boardId is required"), v.trim(), v.nonEmpty("Choose a board"), v.maxLength(64, "boardId is too long"));
const BoardName = v.pipe(
  v.string("boardName is required"),
  plainLine,
  v.trim(),
  v.nonEmpty("boardName is required"),
  v.maxLength(200, "boardName is too long"),
);
const Kind = v.picklist(RSS_SOURCE_KINDS, "sourceKind must be feed or sitemap");

/** POST /api/rss/createRSSFeed -> 201 {rssFeed} */
export const CreateRssFeedBody = body({
  name: v.optional(Name, ""),
  sourceUrl: SourceUrl,
  sourceKind: v.optional(Kind, "feed"),
  pinterestProfileUsername: Username,
  boardId: BoardId,
  boardName: BoardName,
  designSettings: v.optional(RssDesignSettings, {}),
  isEnabled: v.optional(v.boolean("isEnabled must be true or false"), true),
});
export type CreateRssFeedBody = v.InferInput<typeof CreateRssFeedBody>;

/** PATCH /api/rss/updateRSSFeed/{id} -> {rssFeed}: only the fields sent change. */
export const UpdateRssFeedBody = v.object(
  {
    name: v.optional(Name),
    sourceUrl: v.optional(SourceUrl),
    sourceKind: v.optional(Kind),
    pinterestProfileUsername: v.optional(Username),
    boardId: v.optional(BoardId),
    boardName: v.optional(BoardName),
    designSettings: v.optional(RssDesignSettings),
    isEnabled: v.optional(v.boolean("isEnabled must be true or false")),
  },
  "The request body must be a JSON object",
);
export type UpdateRssFeedBody = v.InferInput<typeof UpdateRssFeedBody>;

/** {id} of a feed in the path. */
export const RssFeedIdParam = v.object({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(64, "id is too long")) });
/** {token} of a feed's public address. */
export const RssPublicTokenParam = v.object({ token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,64}$/, "token is not a feed address")) });

/** Why a feed is paused, for the page. */
export const RSS_PAUSED_FOR_CREDITS =
  "Paused: you ran out of pin credits. New posts get pins again once you have credits (upgrade your plan or wait for next month's credits), then switch the feed back on.";

/** A feed as its owner sees it (dates are ISO strings; the page shows them in the user's time zone). */
export interface RssFeed {
  id: string;
  name: string;
  sourceUrl: string;
  sourceKind: RssSourceKind;
  pinterestProfileUsername: string;
  boardId: string;
  boardName: string;
  designSettings: RssDesignSettings;
  isEnabled: boolean;
  /** "credits" when the feed stopped because the user ran out of credits. */
  pausedReason: "credits" | null;
  /** What the page says about the pause, in plain words. */
  pausedMessage: string | null;
  /** The public RSS 2.0 address to give Pinterest. */
  publicUrl: string;
  lastCheckedAt: string | null;
  /** The source's last failure, in plain words (null once a check succeeds). */
  lastError: string | null;
  /** Items in the public feed. */
  publishedCount: number;
  /** Items added in the last 24 hours (at most RSS_ITEMS_PER_DAY). */
  addedToday: number;
  createdAt: string;
}

export interface RssFeedItem {
  id: string;
  title: string;
  description: string;
  link: string;
  /** The pin image (null until rendered). */
  imageUrl: string | null;
  status: "pending" | "ready" | "failed";
  error: string | null;
  creditsCharged: number;
  createdAt: string;
}

export interface RssFeedsResponse {
  rssFeeds: RssFeed[];
}
export interface RssFeedResponse {
  rssFeed: RssFeed;
}
export interface RssFeedItemsResponse {
  items: RssFeedItem[];
}
export interface RssDesignSettingsResponse {
  designSettings: RssDesignSettings;
}
/** POST /api/rss/checkRSSFeed/{id}: what one check did. */
export interface RssCheckResult {
  added: number;
  failed: number;
  /** New posts left for later (the day's limit, or the check's share of work). */
  waiting: number;
  paused: boolean;
  error: string | null;
}
export interface RssCheckResponse {
  check: RssCheckResult;
  rssFeed: RssFeed;
}
