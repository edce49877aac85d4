/**
 * Pinterest's terms and trends vocabulary (../shared/specs/pinterest-api-v5.openapi.json:
 * TrendsSupportedRegion, TrendType, L1InterestList, GenderList, AgeBucketList,
 * TrendingKeywordsResponse, RelatedTerms), with the names people read. Used by
 * the client (workers/integrations/pinterest.ts), the keyword research API and
 * page, and the sandbox's stand-in.
 */

export const PINTEREST_TREND_REGIONS = {
  US: "United States",
  CA: "Canada",
  DE: "Germany",
  FR: "France",
  ES: "Spain",
  IT: "Italy",
  "DE+AT+CH": "Germanic countries",
  "GB+IE": "Great Britain & Ireland",
  "IT+ES+PT+GR+MT": "Southern Europe",
  "PL+RO+HU+SK+CZ": "Eastern Europe",
  "SE+DK+FI+NO": "Nordic countries",
  "NL+BE+LU": "Benelux",
  AR: "Argentina",
  BR: "Brazil",
  CO: "Colombia",
  MX: "Mexico",
  "MX+AR+CO+CL": "Hispanic LatAm",
  "AU+NZ": "Australasia",
} as const;
export type PinterestTrendRegion = keyof typeof PINTEREST_TREND_REGIONS;
export const PINTEREST_TREND_REGION_CODES = Object.keys(PINTEREST_TREND_REGIONS) as PinterestTrendRegion[];

/** growing: up over the last quarter; monthly / yearly: most searched in the last month / year; seasonal: up this month and recurring yearly. */
export const PINTEREST_TREND_TYPES = ["growing", "monthly", "yearly", "seasonal"] as const;
export type PinterestTrendType = (typeof PINTEREST_TREND_TYPES)[number];

export const PINTEREST_INTERESTS = {
  animals: "Animals",
  architecture: "Architecture",
  art: "Art",
  beauty: "Beauty",
  childrens_fashion: "Children's Fashion",
  design: "Design",
  diy_and_crafts: "DIY & Crafts",
  education: "Education",
  electronics: "Electronics",
  entertainment: "Entertainment",
  event_planning: "Event Planning",
  finance: "Finance",
  food_and_drinks: "Food & Drink",
  gardening: "Gardening",
  health: "Health",
  home_decor: "Home Decor",
  mens_fashion: "Men's Fashion",
  parenting: "Parenting",
  quotes: "Quotes",
  sport: "Sports",
  travel: "Travel",
  vehicles: "Vehicles",
  wedding: "Wedding",
  womens_fashion: "Women's Fashion",
} as const;
export type PinterestInterest = keyof typeof PINTEREST_INTERESTS;
export const PINTEREST_INTEREST_KEYS = Object.keys(PINTEREST_INTERESTS) as PinterestInterest[];

export const PINTEREST_GENDERS = ["female", "male", "unknown"] as const;
export type PinterestGender = (typeof PINTEREST_GENDERS)[number];
export const PINTEREST_AGE_BUCKETS = ["18-24", "25-34", "35-44", "45-49", "50-54", "55-64", "65+"] as const;
export type PinterestAgeBucket = (typeof PINTEREST_AGE_BUCKETS)[number];

/** terms/suggested answers at most 10 terms (4 when not asked); trends at most 50, with up to 50 include_keywords of up to 100 characters. */
export const PINTEREST_TERMS_SUGGESTED_MAX = 10;
export const PINTEREST_TRENDS_MAX = 50;
export const PINTEREST_INCLUDE_KEYWORDS_MAX = 50;
export const PINTEREST_KEYWORD_MAX_LENGTH = 100;

/** One TrendingKeyword: growth in percent (10001: more than 10000%), weekly relative volume 0-100 keyed by the week's last day. */
export interface PinterestTrendingKeyword {
  keyword: string;
  pct_growth_wow?: number;
  pct_growth_mom?: number;
  pct_growth_yoy?: number;
  time_series?: Record<string, number>;
  has_prediction?: boolean;
  predicted_time_series?: Record<string, number>;
  demographics?: {
    age_distribution?: Record<string, number> | null;
    gender_distribution?: Record<string, number> | null;
  } | null;
}

export interface PinterestTrendingKeywordsResponse {
  trends: PinterestTrendingKeyword[];
}

export interface PinterestRelatedTerms {
  id?: string;
  related_term_count?: number;
  related_terms_list?: Array<{ term?: string; related_terms?: string[] }>;
}

/** Filters of trending_keywords/list (all optional). */
export interface PinterestTrendsQuery {
  interests?: readonly PinterestInterest[];
  genders?: readonly PinterestGender[];
  ages?: readonly PinterestAgeBucket[];
  includeKeywords?: readonly string[];
  normalizeAgainstGroup?: boolean;
  limit?: number;
  includePrediction?: boolean;
  includeDemographics?: boolean;
}
