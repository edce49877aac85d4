import * as v from "valibot";
import { body, plainLine } from "../fields.ts";
import {
  PINTEREST_KEYWORD_MAX_LENGTH,
  PINTEREST_TREND_REGION_CODES,
  type PinterestTrendRegion,
  type PinterestTrendType,
} from "../pinterest/pinterest-trends.ts";

/**
 * Keyword research (/pinterest-keyword-research-tool, issue 19; design in
 * docs/decisions/045-keyword-research.md):
 * - GET  /api/keywords/research?keyword&region -> KeywordResearch
 * - POST /api/keywords/useAsAiKeywords {keywords} -> UseAsAiKeywordsAnswer
 */

/** A keyword phrase: one line, trimmed, lowercased, single spaces, 2-100 characters, no commas (Pinterest joins lists with them). */
export const KeywordPhrase = (field: string) =>
  v.pipe(
    v.string(`${field} must be text`),
    plainLine,
    v.transform((value: string) => value.trim().toLowerCase().replace(/\s+/g, " ")),
    v.nonEmpty(`Please enter a keyword.`),
    v.minLength(2, "Please enter a keyword of at least 2 characters."),
    v.maxLength(PINTEREST_KEYWORD_MAX_LENGTH, `Please keep the keyword under ${PINTEREST_KEYWORD_MAX_LENGTH} characters.`),
    v.check((value) => !value.includes(","), "Please enter one keyword phrase, without commas."),
  );

export const KeywordRegion = v.picklist(PINTEREST_TREND_REGION_CODES, "region must be one of Pinterest's trend regions");

export const KeywordResearchQuery = v.object({
  keyword: KeywordPhrase("keyword"),
  region: v.optional(KeywordRegion, "US"),
});
export type KeywordResearchQuery = v.InferOutput<typeof KeywordResearchQuery>;

/** How a term came into the results. */
export type KeywordSource = "seed" | "suggested" | "related" | "trending";

export interface KeywordTerm {
  term: string;
  sources: KeywordSource[];
  /** The Pinterest trend lists (growing, monthly, yearly, seasonal) the term is in; empty: in none. */
  trendTypes: PinterestTrendType[];
  /** Percent change of searches: last week against the week before, last 30 days against the 30 before, last year against the year before. Null: no trend data. */
  weeklyChange: number | null;
  monthlyChange: number | null;
  yearlyChange: number | null;
  /** Weekly interest 0-100 (the term's busiest week = 100), one value per KeywordResearch.weeks; null: no trend data. */
  series: number[] | null;
}

export interface KeywordResearch {
  keyword: string;
  region: PinterestTrendRegion;
  /** The last day of each week of the series, oldest first (YYYY-MM-DD). */
  weeks: string[];
  terms: KeywordTerm[];
  /** When Pinterest was asked (ISO 8601); answers are kept 24 hours per term and region. */
  fetchedAt: string;
  /** True when this answer came from the 24-hour cache. */
  cached: boolean;
  /** Logged-out visitors: searches left before they need an account (0 after their one try); absent when signed in. */
  trialSearchesLeft?: number;
}

/** Most terms sent to /generate at once, and the AI keywords field's own limit (contracts/content/design-settings.ts). */
export const AI_KEYWORDS_MAX_TERMS = 50;
export const AI_KEYWORDS_MAX_LENGTH = 2000;

export const UseAsAiKeywordsBody = body({
  keywords: v.pipe(
    v.array(KeywordPhrase("keywords"), "keywords must be a list of keyword phrases"),
    v.minLength(1, "Please choose at least one keyword."),
    v.maxLength(AI_KEYWORDS_MAX_TERMS, `Please choose at most ${AI_KEYWORDS_MAX_TERMS} keywords.`),
    v.transform((keywords: string[]) => [...new Set(keywords)]),
    v.check(
      (keywords) => keywords.join("\n").length <= AI_KEYWORDS_MAX_LENGTH,
      `The chosen keywords are longer than the ${AI_KEYWORDS_MAX_LENGTH} characters the AI keywords field holds.`,
    ),
  ),
});
export type UseAsAiKeywordsBody = v.InferOutput<typeof UseAsAiKeywordsBody>;

export interface UseAsAiKeywordsAnswer {
  /** The design settings profile that now has these AI keywords (the active one, which /generate opens). */
  profileName: string;
  aiKeywords: string;
}

/** Logged-out visitors get one search (a taste of the tool); more needs an account. */
export const KEYWORD_TRIAL_SEARCHES = 1;
export const KEYWORD_TRIAL_USED = "You have used your free keyword search. Sign up free to keep researching keywords.";
