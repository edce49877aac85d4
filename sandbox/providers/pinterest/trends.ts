import type { Context, Hono } from "hono";
import type { SandboxState } from "../../state.ts";
import { ERRORS, pinterestError } from "./http.ts";
import { pinterestState, type AccountRecord, type PinterestState, type RateCategory, type TokenRecord } from "./state.ts";
import {
  AGE_BUCKETS,
  demographicsOf,
  GENDERS,
  INTERESTS,
  isoDate,
  isSeasonal,
  normalizeKeyword,
  percentChange,
  profileOf,
  relatedTerms,
  suggestedTerms,
  TREND_REGIONS,
  TREND_TYPES,
  vocabulary,
  weekEnds,
  weeklyVolumes,
  WEEKS_SHOWN,
  type AgeBucket,
  type Gender,
  type Interest,
  type KeywordProfile,
  type TrendRegion,
  type TrendType,
} from "./trends-data.ts";

type Env = { Variables: { account: AccountRecord; token: TokenRecord } };

/**
 * The terms and trends operations of the Pinterest stand-in, added to the /v5
 * app after its authentication: `GET /terms/suggested` (terms_suggested/list),
 * `GET /terms/related` (terms_related/list) and
 * `GET /trends/keywords/{region}/top/{trend_type}` (trending_keywords/list), with
 * the data of trends-data.ts. Each token has a bucket per rate-limit category
 * (ads_read for terms, trends_read for trends, as the OpenAPI description's
 * x-ratelimit-category says), refilling continuously; an empty bucket answers
 * 429 {code: 8} with Retry-After.
 */
export function addTrendsRoutes(app: Hono<Env>, state: SandboxState, requireScopes: (c: Context<Env>, scopes: string[]) => Response | null) {
  app.get("/terms/suggested", (c) => {
    const denied = requireScopes(c, ["ads:read"]);
    if (denied) return denied;
    const limited = takeFromBucket(c, pinterestState(state), "ads_read");
    if (limited) return limited;
    const term = c.req.query("term");
    if (term === undefined || !term.trim()) return invalidParameters(c, "terms suggested", "'term' is required.");
    const rawLimit = c.req.query("limit");
    if (rawLimit !== undefined && !/^\d+$/.test(rawLimit)) return invalidParameters(c, "terms suggested", "'limit' must be an integer from 1 to 10.");
    const limit = rawLimit === undefined ? 4 : Number(rawLimit);
    if (limit < 1 || limit > 10) return invalidParameters(c, "terms suggested", "'limit' must be an integer from 1 to 10.");
    return c.json(suggestedTerms(term, limit));
  });

  app.get("/terms/related", (c) => {
    const denied = requireScopes(c, ["ads:read"]);
    if (denied) return denied;
    const limited = takeFromBucket(c, pinterestState(state), "ads_read");
    if (limited) return limited;
    const terms = listQuery(c, "terms");
    if (terms.length === 0) return invalidParameters(c, "terms related", "'terms' is required.");
    if (terms.some((term) => !term)) return invalidParameters(c, "terms related", "'terms' must not contain empty terms.");
    const list = terms.map((term) => ({ term, related_terms: relatedTerms(term) }));
    return c.json({
      id: terms[0],
      related_term_count: list.reduce((sum, entry) => sum + entry.related_terms.length, 0),
      related_terms_list: list,
    });
  });

  app.get("/trends/keywords/:region/top/:trend_type", (c) => {
    const denied = requireScopes(c, ["user_accounts:read"]);
    if (denied) return denied;
    const pinterest = pinterestState(state);
    const limited = takeFromBucket(c, pinterest, "trends_read");
    if (limited) return limited;
    const request = trendsRequest(c);
    if (request instanceof Response) return request;
    return c.json({ trends: topTrends(pinterest, request) });
  });
}

// ---- rate limits -------------------------------------------------------------------------------

/** One request from the token's bucket for the category, or a 429 answer; sets Pinterest's x-ratelimit-* headers. */
function takeFromBucket(c: Context<Env>, pinterest: PinterestState, category: RateCategory): Response | null {
  const perMinute = pinterest.trends.limits[category];
  const key = `${category}|${c.var.token.token}`;
  const now = Date.now();
  const bucket = pinterest.trends.buckets.get(key) ?? { tokens: perMinute, updatedAt: now };
  bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.updatedAt) / 60_000) * perMinute);
  bucket.updatedAt = now;
  pinterest.trends.buckets.set(key, bucket);
  const perSecond = perMinute / 60;
  c.header("x-ratelimit-limit", String(perMinute));
  if (bucket.tokens < 1) {
    const wait = perSecond > 0 ? Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) : 60;
    c.header("x-ratelimit-remaining", "0");
    c.header("x-ratelimit-reset", String(wait));
    c.header("retry-after", String(wait));
    return pinterestError(c, ERRORS.rateLimited);
  }
  bucket.tokens -= 1;
  c.header("x-ratelimit-remaining", String(Math.floor(bucket.tokens)));
  c.header("x-ratelimit-reset", String(perSecond > 0 ? Math.ceil((perMinute - bucket.tokens) / perSecond) : 60));
  return null;
}

// ---- requests ----------------------------------------------------------------------------------

function invalidParameters(c: Context, operation: string, problem: string) {
  return c.json({ code: 400, message: `Invalid ${operation} parameters: ${problem}` }, 400);
}

/** An array query parameter, repeated (`?a=x&a=y`) or comma-separated (`?a=x,y`), trimmed. */
function listQuery(c: Context, name: string): string[] {
  return (c.req.queries(name) ?? []).flatMap((value) => value.split(",")).map((value) => value.trim());
}

export interface TrendsRequest {
  region: TrendRegion;
  trendType: TrendType;
  interests: Interest[];
  genders: Gender[];
  ages: AgeBucket[];
  includeKeywords: string[];
  normalizeAgainstGroup: boolean;
  limit: number;
  includePrediction: boolean;
  includeDemographics: boolean;
}

function trendsRequest(c: Context): TrendsRequest | Response {
  const fail = (problem: string) => invalidParameters(c, "trending keywords request", problem);
  const region = decodeURIComponent(c.req.param("region") ?? "");
  if (!(TREND_REGIONS as readonly string[]).includes(region)) return fail(`'region' must be one of ${TREND_REGIONS.join(", ")}.`);
  const trendType = c.req.param("trend_type") ?? "";
  if (!(TREND_TYPES as readonly string[]).includes(trendType)) return fail(`'trend_type' must be one of ${TREND_TYPES.join(", ")}.`);
  const enumList = <T extends string>(name: string, allowed: readonly T[]): T[] | Response => {
    const values = listQuery(c, name);
    const wrong = values.find((value) => !(allowed as readonly string[]).includes(value));
    return wrong === undefined ? (values as T[]) : fail(`'${name}' has an unknown value "${wrong}".`);
  };
  const interests = enumList("interests", INTERESTS);
  if (interests instanceof Response) return interests;
  const genders = enumList("genders", GENDERS);
  if (genders instanceof Response) return genders;
  const ages = enumList("ages", AGE_BUCKETS);
  if (ages instanceof Response) return ages;
  let includeKeywords: string[] = [];
  if (c.req.queries("include_keywords") !== undefined) {
    includeKeywords = listQuery(c, "include_keywords");
    if (includeKeywords.length < 1 || includeKeywords.length > 50) return fail("'include_keywords' must have 1 to 50 keywords.");
    if (includeKeywords.some((keyword) => keyword.length < 1 || keyword.length > 100)) return fail("each of 'include_keywords' must be 1 to 100 characters.");
  }
  const flag = (name: string): boolean | Response => {
    const value = c.req.query(name);
    if (value === undefined) return false;
    return value === "true" ? true : value === "false" ? false : fail(`'${name}' must be true or false.`);
  };
  const normalizeAgainstGroup = flag("normalize_against_group");
  if (normalizeAgainstGroup instanceof Response) return normalizeAgainstGroup;
  const includePrediction = flag("include_prediction");
  if (includePrediction instanceof Response) return includePrediction;
  const includeDemographics = flag("include_demographics");
  if (includeDemographics instanceof Response) return includeDemographics;
  const rawLimit = c.req.query("limit");
  if (rawLimit !== undefined && (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 50))
    return fail("'limit' must be an integer from 1 to 50.");
  return {
    region: region as TrendRegion,
    trendType: trendType as TrendType,
    interests,
    genders,
    ages,
    includeKeywords: includeKeywords.map(normalizeKeyword),
    normalizeAgainstGroup,
    limit: rawLimit === undefined ? 50 : Number(rawLimit),
    includePrediction,
    includeDemographics,
  };
}

// ---- the ranking -------------------------------------------------------------------------------

interface Candidate {
  profile: KeywordProfile;
  volumes: number[];
  audience: number;
  score: number;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The keyword contains the phrase as whole words. */
function containsPhrase(keyword: string, phrase: string) {
  return ` ${keyword} `.includes(` ${phrase} `);
}

/** The top trends for a request: candidates filtered, scored by the trend type, limited, shaped as TrendingKeywordsResponse.trends. */
export function topTrends(pinterest: PinterestState, request: TrendsRequest) {
  const today = pinterest.trends.today ?? Date.now();
  const ends = weekEnds(today);
  const rises = pinterest.trends.rises;
  const riseFor = (keyword: string) => rises.get(`${request.region}|${keyword}`) ?? rises.get(`*|${keyword}`) ?? null;

  const universe = new Map<string, KeywordProfile>(vocabulary().map((profile) => [profile.keyword, profile]));
  for (const rise of rises.values()) {
    if (rise.region !== "*" && rise.region !== request.region) continue;
    const profile = profileOf(rise.keyword);
    universe.set(profile.keyword, rise.interest ? { ...profile, interest: rise.interest } : profile);
  }
  for (const keyword of request.includeKeywords) {
    for (const term of [keyword, ...suggestedTerms(keyword, 10), ...relatedTerms(keyword)]) {
      if (!universe.has(normalizeKeyword(term))) universe.set(normalizeKeyword(term), profileOf(term));
    }
  }

  const candidates: Candidate[] = [];
  for (const profile of universe.values()) {
    if (request.includeKeywords.length > 0 && !request.includeKeywords.some((phrase) => containsPhrase(profile.keyword, phrase))) continue;
    if (request.interests.length > 0 && !request.interests.includes(profile.interest)) continue;
    const volumes = weeklyVolumes(profile, request.region, ends, riseFor(profile.keyword));
    const demographics = demographicsOf(profile);
    const genderShare = request.genders.length === 0 ? 1 : sum(request.genders.map((gender) => demographics.gender[gender]));
    const ageShare = request.ages.length === 0 ? 1 : sum(request.ages.map((age) => demographics.age[age]));
    const audience = genderShare * ageShare;
    const score = scoreFor(request.trendType, profile, volumes, audience);
    if (score !== null) candidates.push({ profile, volumes, audience, score });
  }
  candidates.sort((a, b) => b.score - a.score || a.profile.keyword.localeCompare(b.profile.keyword));
  const top = candidates.slice(0, request.limit);

  const shown = (candidate: Candidate) => candidate.volumes.slice(-WEEKS_SHOWN);
  const groupPeak = Math.max(...top.map((candidate) => Math.max(...shown(candidate)) * candidate.audience), 0);
  const shownEnds = ends.slice(-WEEKS_SHOWN);
  return top.map((candidate) => {
    const volumes = candidate.volumes;
    const series = shown(candidate);
    const peak = request.normalizeAgainstGroup ? groupPeak / candidate.audience : Math.max(...series);
    const trend: Record<string, unknown> = {
      keyword: candidate.profile.keyword,
      pct_growth_wow: percentChange(volumes.at(-1)!, volumes.at(-2)!),
      pct_growth_mom: percentChange(sum(volumes.slice(-4)), sum(volumes.slice(-8, -4))),
      pct_growth_yoy: percentChange(sum(volumes.slice(-52)), sum(volumes.slice(-104, -52))),
      time_series: Object.fromEntries(series.map((volume, index) => [isoDate(shownEnds[index]), peak > 0 ? Math.round((volume / peak) * 100) : 0])),
      has_prediction: request.includePrediction,
    };
    if (request.includePrediction) {
      const futureEnds = Array.from({ length: 13 }, (_, index) => ends.at(-1)! + (index + 1) * 7 * 86_400_000);
      const future = weeklyVolumes(candidate.profile, request.region, futureEnds, null);
      const futurePeak = Math.max(...future);
      trend.predicted_time_series = Object.fromEntries(
        future.map((volume, index) => [isoDate(futureEnds[index]), futurePeak > 0 ? Math.round((volume / futurePeak) * 100) : 0]),
      );
    }
    if (request.includeDemographics) {
      const demographics = demographicsOf(candidate.profile);
      const privacy = (value: number) => (value < 0.05 ? 0.04 : value);
      trend.demographics = {
        age_distribution: Object.fromEntries(Object.entries(demographics.age).map(([bucket, share]) => [bucket, privacy(share)])),
        gender_distribution: {
          female: privacy(demographics.gender.female),
          male: privacy(demographics.gender.male),
          unspecified: privacy(demographics.gender.unknown),
        },
      };
    }
    return trend;
  });
}

/** How trendy a keyword is by the trend type's method; null: not a trend of this type. */
function scoreFor(trendType: TrendType, profile: KeywordProfile, volumes: number[], audience: number): number | null {
  switch (trendType) {
    case "growing": {
      // Upward growth over the last quarter that is new: a seasonal term is measured against its own
      // growth in the same quarter a year ago, so Christmas rising in November is not "growing".
      const quarter = sum(volumes.slice(-13)) / sum(volumes.slice(-26, -13));
      const month = sum(volumes.slice(-4)) / sum(volumes.slice(-8, -4));
      const usual = isSeasonal(profile.curve) ? sum(volumes.slice(-65, -52)) / sum(volumes.slice(-78, -65)) : 1;
      const growth = quarter / usual;
      return growth > 1.1 && month >= 1 ? growth : null;
    }
    case "monthly":
      return sum(volumes.slice(-4)) * audience;
    case "yearly":
      return sum(volumes.slice(-52)) * audience;
    case "seasonal": {
      if (!isSeasonal(profile.curve)) return null;
      const month = sum(volumes.slice(-4)) / sum(volumes.slice(-8, -4));
      return month > 1.05 ? month : null;
    }
  }
}
