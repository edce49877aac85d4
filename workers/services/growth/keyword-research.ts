import { and, eq, gt, lte } from "drizzle-orm";
import type { KeywordResearch, KeywordResearchQuery, KeywordSource, KeywordTerm } from "../../../contracts/growth/keywords.ts";
import { KEYWORD_TRIAL_SEARCHES, KEYWORD_TRIAL_USED } from "../../../contracts/growth/keywords.ts";
import {
  PINTEREST_INCLUDE_KEYWORDS_MAX,
  PINTEREST_TERMS_SUGGESTED_MAX,
  PINTEREST_TREND_TYPES,
  PINTEREST_TRENDS_MAX,
  type PinterestTrendingKeyword,
  type PinterestTrendRegion,
  type PinterestTrendsQuery,
  type PinterestTrendType,
} from "../../../contracts/pinterest/pinterest-trends.ts";
import { database } from "../../db/client.ts";
import { keywordResearchCache, pinterestProfiles } from "../../db/schema.ts";
import { waitInWords } from "../../domain/waiting.ts";
import type { Env } from "../../env.ts";
import { PinterestApiError, type PinterestClient } from "../../integrations/pinterest.ts";
import type { RequestMeta, User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { accessTokenFor, pinterestClient } from "../pinterest/pinterest-connection.ts";
import { consumeRateLimits, RateLimited, type RateLimitRule } from "../accounts/rate-limit.ts";

/**
 * Keyword research (issue 19, docs/decisions/045-keyword-research.md): a seed
 * keyword and a Pinterest trends region give suggested terms, related terms and
 * the trend figures of the keyword and its relatives. Answers are kept 24 hours
 * per term and region (D1), for everyone. Terms calls use the app's client token
 * (they need ads:read, which we never ask users for); trends calls use the
 * caller's connected Pinterest profile when it allows them, else the app's token.
 */

export const KEYWORD_CACHE_MS = 24 * 60 * 60_000;

export const KEYWORD_RATE_LIMITS = {
  /** A logged-out visitor's try, per client address. */
  trialPerIp: { name: "keywords-trial:ip", limit: KEYWORD_TRIAL_SEARCHES, windowMs: 24 * 60 * 60_000 },
  /** Plenty for research by hand, too few to mirror Pinterest's data through us. */
  searchesPerUser: { name: "keywords:user", limit: 120, windowMs: 60 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** The scopes of the app's client token: terms (ads:read) and trends (user_accounts:read). */
const APP_SCOPES = ["ads:read", "user_accounts:read"] as const;

type CachedAnswer = Omit<KeywordResearch, "cached" | "trialSearchesLeft">;

export async function researchKeyword(env: Env, caller: User | null, query: KeywordResearchQuery, meta: RequestMeta): Promise<KeywordResearch> {
  const now = Date.now();
  const trialBucket = caller ? null : (meta.ip ?? "unknown");
  try {
    await consumeRateLimits(env.DB, caller ? [[KEYWORD_RATE_LIMITS.searchesPerUser, caller.id]] : [[KEYWORD_RATE_LIMITS.trialPerIp, trialBucket]], now);
  } catch (error) {
    if (error instanceof RateLimited && !caller) throw new ServiceError(401, KEYWORD_TRIAL_USED);
    throw error;
  }
  const trial = caller ? {} : { trialSearchesLeft: 0 };
  try {
    const cached = await database(env.DB)
      .select()
      .from(keywordResearchCache)
      .where(and(eq(keywordResearchCache.termKey, query.keyword), eq(keywordResearchCache.region, query.region), gt(keywordResearchCache.expiresAt, now)))
      .get();
    if (cached) return { ...(cached.answer as CachedAnswer), cached: true, ...trial };
    const answer = await askPinterest(env, caller, query);
    const db = database(env.DB);
    await db.batch([
      db.delete(keywordResearchCache).where(lte(keywordResearchCache.expiresAt, now)),
      db
        .insert(keywordResearchCache)
        .values({ termKey: query.keyword, region: query.region, answer, fetchedAt: now, expiresAt: now + KEYWORD_CACHE_MS })
        .onConflictDoUpdate({
          target: [keywordResearchCache.termKey, keywordResearchCache.region],
          set: { answer, fetchedAt: now, expiresAt: now + KEYWORD_CACHE_MS },
        }),
    ]);
    return { ...answer, cached: false, ...trial };
  } catch (error) {
    // A visitor whose one search failed on our side or Pinterest's keeps it.
    if (trialBucket !== null)
      await env.DB.prepare("DELETE FROM rate_limits WHERE bucket = ?1").bind(`${KEYWORD_RATE_LIMITS.trialPerIp.name}:${trialBucket.toLowerCase()}`).run();
    throw error;
  }
}

async function askPinterest(env: Env, caller: User | null, query: KeywordResearchQuery): Promise<CachedAnswer> {
  const client = pinterestClient(env);
  try {
    const [suggested, related] = await Promise.all([
      withAppToken(env, client, (token) => client.suggestedTerms(token, query.keyword, PINTEREST_TERMS_SUGGESTED_MAX)),
      withAppToken(env, client, (token) => client.relatedTerms(token, [query.keyword])),
    ]);
    const relatedTerms = related.get(query.keyword) ?? [...related.values()][0] ?? [];
    const sources = new Map<string, Set<KeywordSource>>();
    const add = (term: string, source: KeywordSource) => {
      const key = term.trim().toLowerCase();
      if (!key) return;
      if (!sources.has(key)) sources.set(key, new Set());
      sources.get(key)!.add(source);
    };
    add(query.keyword, "seed");
    suggested.forEach((term) => {
      add(term, "suggested");
    });
    relatedTerms.forEach((term) => {
      add(term, "related");
    });

    const includeKeywords = [...sources.keys()].filter((term) => term.length <= 100).slice(0, PINTEREST_INCLUDE_KEYWORDS_MAX);
    const readTrends = await trendsReader(env, caller);
    const lists = await Promise.all(
      PINTEREST_TREND_TYPES.map(async (trendType) => {
        const answer = await readTrends(query.region, trendType, { includeKeywords, limit: PINTEREST_TRENDS_MAX });
        return { trendType, trends: answer.trends };
      }),
    );
    return assemble(query, sources, lists);
  } catch (error) {
    throw asServiceError(error);
  }
}

function assemble(
  query: KeywordResearchQuery,
  sources: Map<string, Set<KeywordSource>>,
  lists: Array<{ trendType: PinterestTrendType; trends: PinterestTrendingKeyword[] }>,
): CachedAnswer {
  const figures = new Map<string, PinterestTrendingKeyword>();
  const types = new Map<string, PinterestTrendType[]>();
  for (const { trendType, trends } of lists) {
    for (const trend of trends) {
      const key = trend.keyword.trim().toLowerCase();
      if (!figures.has(key)) figures.set(key, trend);
      types.set(key, [...(types.get(key) ?? []), trendType]);
      if (!sources.has(key)) sources.set(key, new Set(["trending"]));
    }
  }
  const weeks = [...new Set([...figures.values()].flatMap((trend) => Object.keys(trend.time_series ?? {})))].sort();
  const terms: KeywordTerm[] = [...sources.entries()].map(([term, from]) => {
    const trend = figures.get(term);
    return {
      term,
      sources: [...from],
      trendTypes: types.get(term) ?? [],
      weeklyChange: trend?.pct_growth_wow ?? null,
      monthlyChange: trend?.pct_growth_mom ?? null,
      yearlyChange: trend?.pct_growth_yoy ?? null,
      series: trend?.time_series ? weeks.map((week) => trend.time_series![week] ?? 0) : null,
    };
  });
  return { keyword: query.keyword, region: query.region, weeks, terms, fetchedAt: new Date().toISOString() };
}

/** Pinterest's refusals as our answers: a rate limit says when to try again, in words. */
function asServiceError(error: unknown): unknown {
  if (!(error instanceof PinterestApiError)) return error;
  if (error.kind === "rate_limited") {
    const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 60_000) / 1000));
    return new RateLimited(seconds, () => `Pinterest is limiting how often we can ask it for keyword data. Please try again in ${waitInWords(seconds)}.`);
  }
  return new ServiceError(502, "Pinterest did not answer with keyword data. Please try again in a moment.");
}

function isUnauthorized(error: unknown) {
  return error instanceof PinterestApiError && (error.kind === "unauthorized" || error.kind === "forbidden");
}

/**
 * Reads Pinterest's trends for the caller (or the app, for a visitor): with the
 * caller's connected profile when it may (trendsTokenFor), falling back to the
 * app's client token when Pinterest refuses it. Used by keyword research and by
 * the trend alerts' cron (workers/services/growth/trend-alerts.ts).
 */
export async function trendsReader(env: Env, caller: User | null) {
  const client = pinterestClient(env);
  const trendsToken = await trendsTokenFor(env, caller);
  return (region: PinterestTrendRegion, trendType: PinterestTrendType, filters: PinterestTrendsQuery) => {
    const call = (token: string) => client.trendingKeywords(token, region, trendType, filters);
    return trendsToken
      ? call(trendsToken).catch((error: unknown) => (isUnauthorized(error) ? withAppToken(env, client, call) : Promise.reject(error)))
      : withAppToken(env, client, call);
  };
}

/**
 * The caller's active, working Pinterest profile's token when it may read trends
 * (user_accounts:read), so heavy users spend their own Pinterest budget; null
 * (use the app's token) otherwise, or when the token cannot be had.
 */
async function trendsTokenFor(env: Env, caller: User | null): Promise<string | null> {
  if (!caller) return null;
  const profile = await database(env.DB)
    .select()
    .from(pinterestProfiles)
    .where(and(eq(pinterestProfiles.userId, caller.id), eq(pinterestProfiles.isActive, true), eq(pinterestProfiles.status, "ok")))
    .get();
  if (!profile?.scopes.split(/[,\s]+/).includes("user_accounts:read")) return null;
  try {
    return await accessTokenFor(env, profile);
  } catch (error) {
    if (error instanceof ServiceError) return null;
    throw error;
  }
}

// ---- the app's client token ------------------------------------------------------------------

/** This isolate's client token, per Pinterest app (a token lives 30 days; a new isolate asks again). */
let appToken: { key: string; token: string; expiresAt: number } | null = null;

async function appAccessToken(env: Env, client: PinterestClient, renew: boolean): Promise<string> {
  const key = `${env.PINTEREST_API_URL}|${env.PINTEREST_CLIENT_ID}`;
  if (!renew && appToken && appToken.key === key && appToken.expiresAt - Date.now() > 60_000) return appToken.token;
  const fresh = await client.clientToken(APP_SCOPES);
  appToken = { key, token: fresh.accessToken, expiresAt: fresh.expiresAt };
  return fresh.accessToken;
}

/** A call with the app's client token; a refused token (revoked, expired early) is renewed once. */
async function withAppToken<T>(env: Env, client: PinterestClient, call: (token: string) => Promise<T>): Promise<T> {
  try {
    return await call(await appAccessToken(env, client, false));
  } catch (error) {
    if (!(error instanceof PinterestApiError) || error.kind !== "unauthorized") throw error;
    return call(await appAccessToken(env, client, true));
  }
}
