import { Hono } from "hono";
import { jsonInput } from "../../control-body.ts";
import type { SandboxState } from "../../state.ts";
import { daysBetween, familyOf, pinDay } from "./analytics.ts";
import { pinImageUrl } from "./api.ts";
import { feedsView } from "./catalogs.ts";
import { parseFaultPlan, planView } from "./fault-rate.ts";
import { INTERESTS, normalizeKeyword, TREND_REGIONS, type Interest, type TrendRegion } from "./trends-data.ts";
import {
  accountFor,
  DEFAULT_RATE_LIMIT,
  expireAccessTokens,
  issueTokens,
  normalizeUsername,
  parseScopes,
  PINTEREST_SCOPE_DESCRIPTIONS,
  pinterestState,
  revokeTokens,
  SANDBOX_CLIENT_ID,
  tokenResponse,
  USERNAME_PATTERN,
  DEFAULT_MEDIA_PROCESSING,
  DEFAULT_CATEGORY_LIMITS,
  type MediaStatus,
  type RateCategory,
} from "./state.ts";

/**
 * Sandbox-only controls for the Pinterest stand-in, mounted at /__sandbox/pinterest
 * (see docs/decisions/008-pinterest-stand-in.md). Everything they change is
 * forgotten by `POST /__sandbox/reset`.
 */
export function pinterestControl(state: SandboxState) {
  const control = new Hono();

  /** Created pins, oldest first; `?username=` and `?board_id=` narrow the list. */
  control.get("/pins", (c) => {
    const username = c.req.query("username");
    const boardId = c.req.query("board_id");
    // `?count=1`: only how many (the fleet benchmark waits on hundreds of thousands).
    if (c.req.query("count") === "1") {
      const prefix = c.req.query("username_prefix") ?? "";
      return c.json({
        count: pinterestState(state).pins.filter((pin) => pin.username.startsWith(prefix) && (!username || pin.username === normalizeUsername(username)))
          .length,
      });
    }
    const base = `${new URL(c.req.url).origin}/pinterest`;
    const pins = pinterestState(state)
      .pins.filter((pin) => (!username || pin.username === normalizeUsername(username)) && (!boardId || pin.boardId === boardId))
      .map((pin) => ({
        id: pin.id,
        username: pin.username,
        board_id: pin.boardId,
        board_section_id: pin.boardSectionId,
        title: pin.title,
        description: pin.description,
        link: pin.link,
        alt_text: pin.altText,
        dominant_color: pin.dominantColor,
        media: {
          source_type: pin.media.sourceType,
          ...(pin.media.sourceType === "video_id"
            ? {
                media_id: pin.media.mediaId,
                cover_image_url: pin.media.coverImageUrl ?? null,
                cover_image_key_frame_time: pin.media.coverImageKeyFrameTime ?? null,
              }
            : { url: pin.media.sourceType === "image_url" ? pin.media.url : pinImageUrl(base, pin) }),
          ...(pin.media.sourceType === "image_base64" ? { content_type: pin.media.contentType, bytes: pin.media.bytes } : {}),
        },
        created_at: pin.createdAt,
      }));
    return c.json(pins);
  });

  /** Accounts the stand-in knows, with their sandbox settings. */
  control.get("/accounts", (c) => {
    const pinterest = pinterestState(state);
    return c.json(
      [...pinterest.accounts.values()].map((account) => ({
        id: account.id,
        username: account.username,
        blocked: account.blocked,
        boards: account.boards.map((board) => ({ id: board.id, name: board.name, privacy: board.privacy, sections: board.sections })),
        access_token_lifetime_seconds: account.accessTokenLifetime,
        rate_limit: account.rateLimit ?? pinterest.rateLimit,
      })),
    );
  });

  /** Tokens for a username without the consent page: {username, client_id?, scope?} → the token endpoint's answer. */
  control.post("/tokens", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    if (input.client_id !== undefined && (typeof input.client_id !== "string" || !input.client_id))
      return c.json({ error: "client_id must be a non-empty string" }, 400);
    if (input.scope !== undefined && typeof input.scope !== "string") return c.json({ error: "scope must be a comma-separated string" }, 400);
    const scopes = parseScopes(typeof input.scope === "string" ? input.scope : Object.keys(PINTEREST_SCOPE_DESCRIPTIONS).join(","));
    const unknown = scopes.filter((scope) => !(scope in PINTEREST_SCOPE_DESCRIPTIONS));
    if (unknown.length > 0) return c.json({ error: `unknown scopes: ${unknown.join(", ")}` }, 400);
    const pinterest = pinterestState(state);
    const clientId = typeof input.client_id === "string" ? input.client_id : SANDBOX_CLIENT_ID;
    return c.json(tokenResponse(issueTokens(pinterest, accountFor(pinterest, username), clientId, scopes), "authorization_code"), 201);
  });

  /** {username, inSeconds?}: the account's current access tokens expire now (or in inSeconds). */
  control.post("/expire-token", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    const inSeconds = input.inSeconds ?? 0;
    if (typeof inSeconds !== "number" || !Number.isFinite(inSeconds) || inSeconds < 0) return c.json({ error: "inSeconds must be a number, 0 or more" }, 400);
    const expiresAt = inSeconds === 0 ? Date.now() - 1 : Date.now() + inSeconds * 1000;
    const expired = expireAccessTokens(pinterestState(state), username, expiresAt);
    return c.json({ username, tokens: expired, expires_at: new Date(expiresAt).toISOString() });
  });

  /** {seconds, username?}: lifetime of access tokens issued from now on, for one account or all. */
  control.post("/token-lifetime", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    if (typeof input.seconds !== "number" || !Number.isInteger(input.seconds) || input.seconds < 1)
      return c.json({ error: "seconds must be a positive integer" }, 400);
    const pinterest = pinterestState(state);
    if (input.username === undefined) {
      for (const account of pinterest.accounts.values()) account.accessTokenLifetime = input.seconds;
      return c.json({ seconds: input.seconds, accounts: pinterest.accounts.size });
    }
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    accountFor(pinterest, username).accessTokenLifetime = input.seconds;
    return c.json({ username, seconds: input.seconds });
  });

  /** {perMinute, windowSeconds?, username?}: the request budget, for one account or the default for all. */
  control.post("/rate-limit", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    if (typeof input.perMinute !== "number" || !Number.isInteger(input.perMinute) || input.perMinute < 0) {
      return c.json({ error: "perMinute must be an integer, 0 or more" }, 400);
    }
    const windowSeconds = input.windowSeconds ?? DEFAULT_RATE_LIMIT.windowSeconds;
    if (typeof windowSeconds !== "number" || !Number.isInteger(windowSeconds) || windowSeconds < 1 || windowSeconds > 3600) {
      return c.json({ error: "windowSeconds must be an integer from 1 to 3600" }, 400);
    }
    const setting = { perMinute: input.perMinute, windowSeconds };
    const pinterest = pinterestState(state);
    if (input.username === undefined) {
      pinterest.rateLimit = setting;
      return c.json({ rate_limit: setting });
    }
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    accountFor(pinterest, username).rateLimit = setting;
    return c.json({ username, rate_limit: setting });
  });

  /** {username, blocked?: true}: a blocked account gets 403 {code: 29} on every API call. */
  control.post("/block", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    if (input.blocked !== undefined && typeof input.blocked !== "boolean") return c.json({ error: "blocked must be a boolean" }, 400);
    const account = accountFor(pinterestState(state), username);
    account.blocked = input.blocked ?? true;
    return c.json({ username, blocked: account.blocked });
  });

  /** {username}: the user removed the app: every access and refresh token of the account stops working. */
  control.post("/revoke", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    return c.json({ username, tokens: revokeTokens(pinterestState(state), username) });
  });

  /**
   * {times?, mode?: "delay" | "reset" | "late", delayMs?, username?}: the next `times` pins
   * created (optionally only for one account) are stored, but their answer is
   * held back `delayMs` (default 30000) or the connection is broken mid-answer;
   * "late": the connection breaks at once and the pin is stored `delayMs` later
   * (0: when POST /land-late-creates is called).
   */
  control.post("/drop-after-create", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const times = input.times ?? 1;
    if (typeof times !== "number" || !Number.isInteger(times) || times < 1) return c.json({ error: "times must be a positive integer" }, 400);
    const mode = input.mode ?? "delay";
    if (mode !== "delay" && mode !== "reset" && mode !== "late") return c.json({ error: 'mode must be "delay", "reset" or "late"' }, 400);
    const delayMs = input.delayMs ?? 30_000;
    if (typeof delayMs !== "number" || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > 600_000) {
      return c.json({ error: "delayMs must be an integer from 0 to 600000" }, 400);
    }
    let username: string | null = null;
    if (input.username !== undefined) {
      username = usernameOf(input);
      if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    }
    const drop = { remaining: times, mode, delayMs, username } as const;
    pinterestState(state).dropAfterCreate = { ...drop };
    return c.json({ times, mode, delayMs, username }, 201);
  });

  /** Stores now every pin whose create is still under way (mode "late"); answers how many landed. */
  control.post("/land-late-creates", (c) => {
    const pending = [...pinterestState(state).lateCreates];
    for (const land of pending) land();
    return c.json({ landed: pending.length });
  });

  /**
   * {rate, seed?, kinds?, delayMs?, username?}: from now on a share `rate` (0 to 1) of
   * create-pin calls (of one account, or of every account) fail with one of `kinds`
   * (a list, or {kind: weight}; see fault-rate.ts), chosen by a hash of the seed and
   * the pin, so a run with the same seed meets the same faults. rate 0 removes the plan.
   */
  control.post("/fault-rate", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    let scope = "*";
    if (input.username !== undefined) {
      const username = usernameOf(input);
      if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
      scope = username;
    }
    const plan = parseFaultPlan(input);
    if (typeof plan === "string") return c.json({ error: plan }, 400);
    const plans = pinterestState(state).faultPlans;
    if (plan.rate === 0) plans.delete(scope);
    else plans.set(scope, plan);
    return c.json(planView(scope, plan), 201);
  });

  /** The fault plans, with how many create-pin calls each saw and the faults it injected by kind. */
  control.get("/fault-rate", (c) => c.json([...pinterestState(state).faultPlans.entries()].map(([scope, plan]) => planView(scope, plan))));

  /** {status}: sets a media upload's status (e.g. "failed") regardless of its processing. */
  control.post("/media/:media_id", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const statuses: MediaStatus[] = ["registered", "processing", "succeeded", "failed"];
    if (!statuses.includes(input.status as MediaStatus)) return c.json({ error: `status must be one of ${statuses.join(", ")}` }, 400);
    const media = pinterestState(state).media.get(c.req.param("media_id"));
    if (!media) return c.json({ error: "no such media upload" }, 404);
    media.status = input.status as MediaStatus;
    media.outcome = media.status === "failed" ? "failed" : "succeeded";
    return c.json({ media_id: media.id, status: media.status });
  });

  /**
   * {username, registeredReads?, processingReads?, outcome?}: how the account's next video uploads
   * are processed: GETs of media/get that still answer "registered" after the upload (default 0),
   * then "processing" (default 1), then the outcome ("succeeded" or "failed"). `DELETE` with
   * `?username=` goes back to the default.
   */
  control.post("/media-processing", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    const count = (name: "registeredReads" | "processingReads") => {
      const value = input[name] ?? DEFAULT_MEDIA_PROCESSING[name];
      return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 100_000 ? value : null;
    };
    const registeredReads = count("registeredReads");
    const processingReads = count("processingReads");
    if (registeredReads === null || processingReads === null)
      return c.json({ error: "registeredReads and processingReads must be whole numbers from 0 to 100000" }, 400);
    const outcome = input.outcome ?? "succeeded";
    if (outcome !== "succeeded" && outcome !== "failed") return c.json({ error: "outcome must be succeeded or failed" }, 400);
    const plan = { registeredReads, processingReads, outcome } as const;
    pinterestState(state).mediaProcessing.set(username, plan);
    return c.json({ username, ...plan }, 201);
  });

  control.delete("/media-processing", (c) => {
    const username = usernameOf({ username: c.req.query("username") });
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    pinterestState(state).mediaProcessing.delete(username);
    return c.json({ username, ...DEFAULT_MEDIA_PROCESSING });
  });

  /** Video uploads, oldest first (`?username=` narrows): status, bytes received and the GETs still to come in each state. */
  control.get("/media", (c) => {
    const username = c.req.query("username");
    return c.json(
      [...pinterestState(state).media.values()]
        .filter((media) => !username || media.username === normalizeUsername(username))
        .map((media) => ({
          media_id: media.id,
          username: media.username,
          status: media.status,
          uploaded_bytes: media.uploadedBytes,
          created_at: media.createdAt,
        })),
    );
  });

  /** Catalog data sources and their processing results with item issues (`?username=` narrows). */
  control.get("/feeds", (c) => {
    const username = c.req.query("username");
    return c.json(feedsView(pinterestState(state), username ? normalizeUsername(username) : undefined));
  });

  /**
   * A feed file the stand-in reads instead of downloading `url` (for runs where the
   * app has no address it can reach): `{url, body, contentType?}`.
   */
  control.put("/feed-files", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    if (typeof input.url !== "string" || !/^https?:\/\//.test(input.url)) return c.json({ error: "url must be an http(s) address" }, 400);
    if (typeof input.body !== "string") return c.json({ error: "body must be the file's text" }, 400);
    const contentType = typeof input.contentType === "string" ? input.contentType : "text/csv";
    pinterestState(state).feedFiles.set(input.url, { body: input.body, contentType });
    return c.json({ url: input.url, bytes: input.body.length, contentType });
  });

  /**
   * {keyword, region?, factor?, weeks?, interest?}: the keyword's search volume rises in the
   * region (every region without one): its last `weeks` weeks (default 2) ramp up to `factor`
   * times (default 3) what they were, so its week-over-week and month-over-month growth jump
   * and it climbs the growing and seasonal trends. A keyword the stand-in did not know becomes
   * a trend of `interest` (default: inferred from its words). factor 1 removes the rise.
   */
  control.post("/trends/rise", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    if (typeof input.keyword !== "string" || !input.keyword.trim() || input.keyword.length > 100)
      return c.json({ error: "keyword must be a string of 1 to 100 characters" }, 400);
    const region = input.region ?? "*";
    if (region !== "*" && !(TREND_REGIONS as readonly string[]).includes(region as string))
      return c.json({ error: `region must be one of ${TREND_REGIONS.join(", ")}` }, 400);
    const factor = input.factor ?? 3;
    if (typeof factor !== "number" || !Number.isFinite(factor) || factor <= 0 || factor > 1000)
      return c.json({ error: "factor must be a number above 0, at most 1000" }, 400);
    const weeks = input.weeks ?? 2;
    if (typeof weeks !== "number" || !Number.isInteger(weeks) || weeks < 1 || weeks > 52)
      return c.json({ error: "weeks must be a whole number from 1 to 52" }, 400);
    const interest = input.interest ?? null;
    if (interest !== null && !(INTERESTS as readonly string[]).includes(interest as string))
      return c.json({ error: `interest must be one of ${INTERESTS.join(", ")}` }, 400);
    const keyword = normalizeKeyword(input.keyword);
    const rises = pinterestState(state).trends.rises;
    const key = `${region}|${keyword}`;
    if (factor === 1) {
      rises.delete(key);
      return c.json({ keyword, region, removed: true });
    }
    const rise = { keyword, region: region as TrendRegion | "*", factor, weeks, interest: interest as Interest | null };
    rises.set(key, rise);
    return c.json(rise, 201);
  });

  control.get("/trends/rises", (c) => c.json([...pinterestState(state).trends.rises.values()]));

  /** {date: "YYYY-MM-DD" | null}: the day trends are computed for (null: today). */
  control.post("/trends/today", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const trends = pinterestState(state).trends;
    if (input.date === null) {
      trends.today = null;
      return c.json({ date: null });
    }
    if (typeof input.date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(input.date) || Number.isNaN(Date.parse(`${input.date}T12:00:00Z`))) {
      return c.json({ error: "date must be YYYY-MM-DD or null" }, 400);
    }
    trends.today = Date.parse(`${input.date}T12:00:00Z`);
    return c.json({ date: input.date });
  });

  /** {category: "ads_read" | "trends_read", perMinute}: each token's bucket for the category (terms: ads_read, trends: trends_read), refilled now. */
  control.post("/trends/rate-limit", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const categories = Object.keys(DEFAULT_CATEGORY_LIMITS) as RateCategory[];
    if (!categories.includes(input.category as RateCategory)) return c.json({ error: `category must be one of ${categories.join(", ")}` }, 400);
    if (typeof input.perMinute !== "number" || !Number.isInteger(input.perMinute) || input.perMinute < 0 || input.perMinute > 100_000) {
      return c.json({ error: "perMinute must be a whole number from 0 to 100000" }, 400);
    }
    const trends = pinterestState(state).trends;
    const category = input.category as RateCategory;
    trends.limits[category] = input.perMinute;
    for (const key of [...trends.buckets.keys()]) if (key.startsWith(`${category}|`)) trends.buckets.delete(key);
    return c.json({ category, perMinute: input.perMinute });
  });

  // ---- analytics (issue 41) ----

  /** {username, days}: the account's pins are made `days` older for their analytics figures (as if today had moved on). */
  control.post("/analytics/age-pins", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    const username = usernameOf(input);
    if (!username) return c.json({ error: "username must be 3 to 30 letters, digits or underscores" }, 400);
    if (typeof input.days !== "number" || !Number.isInteger(input.days) || input.days < 0 || input.days > 400) {
      return c.json({ error: "days must be a whole number from 0 to 400" }, 400);
    }
    let pins = 0;
    for (const pin of pinterestState(state).pins) {
      if (pin.username !== username) continue;
      pin.ageDays = (pin.ageDays ?? 0) + input.days;
      pins += 1;
    }
    return c.json({ username, days: input.days, pins });
  });

  /** ?username=&start_date=&end_date=: each pin's daily figures as the analytics endpoints count them, with its family (tests compare with them). */
  control.get("/analytics/figures", (c) => {
    const username = normalizeUsername(c.req.query("username") ?? "");
    const start = c.req.query("start_date") ?? "";
    const end = c.req.query("end_date") ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end))
      return c.json({ error: "start_date and end_date are required (YYYY-MM-DD)" }, 400);
    const days = daysBetween(start, end);
    return c.json(
      pinterestState(state)
        .pins.filter((pin) => pin.username === username)
        .map((pin) => ({ id: pin.id, family: familyOf(pin), days: days.map((date) => pinDay(pin, date)) })),
    );
  });

  /** {url, data (base64), contentType?}: the picture an image_url pin with this address gets, for addresses the stand-in cannot fetch (app.test). */
  control.put("/pictures", async (c) => {
    const input = await jsonInput(c);
    if (input instanceof Response) return input;
    if (typeof input.url !== "string" || !input.url) return c.json({ error: "url is required" }, 400);
    if (typeof input.data !== "string" || !/^[A-Za-z0-9+/=]+$/.test(input.data)) return c.json({ error: "data must be base64" }, 400);
    const contentType = typeof input.contentType === "string" ? input.contentType : "image/jpeg";
    pinterestState(state).pictures.set(input.url, { data: Buffer.from(input.data, "base64"), contentType });
    return c.json({ url: input.url, bytes: Buffer.from(input.data, "base64").length, contentType });
  });

  return control;
}

function usernameOf(input: Record<string, unknown>): string | null {
  return typeof input.username === "string" && USERNAME_PATTERN.test(input.username.trim()) ? normalizeUsername(input.username) : null;
}
