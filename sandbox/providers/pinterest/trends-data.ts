import {
  PINTEREST_AGE_BUCKETS,
  PINTEREST_GENDERS,
  PINTEREST_INTEREST_KEYS,
  PINTEREST_TREND_REGION_CODES,
  PINTEREST_TREND_TYPES,
  type PinterestAgeBucket,
  type PinterestGender,
  type PinterestInterest,
  type PinterestTrendRegion,
  type PinterestTrendType,
} from "../../../contracts/pinterest/pinterest-trends.ts";
import { stableSeed } from "../../../workers/domain/random.ts";

/**
 * The keyword data behind the Pinterest stand-in's terms and trends endpoints
 * (docs/decisions/045-keyword-research.md): a vocabulary of search terms, each
 * with an interest, a popularity and the shape of its year (Christmas, summer,
 * back to school ... or evergreen, growing, falling), and the weekly search
 * volume that follows from them for a region and a date. Everything is a pure
 * function of its inputs (hashes, never Math.random), so the same question on
 * the same day gets the same answer; sandbox "rises" are the only state.
 */

export const TREND_REGIONS = PINTEREST_TREND_REGION_CODES;
export type TrendRegion = PinterestTrendRegion;
export const TREND_TYPES = PINTEREST_TREND_TYPES;
export type TrendType = PinterestTrendType;
export const INTERESTS = PINTEREST_INTEREST_KEYS;
export type Interest = PinterestInterest;
export const GENDERS = PINTEREST_GENDERS;
export type Gender = PinterestGender;
export const AGE_BUCKETS = PINTEREST_AGE_BUCKETS;
export type AgeBucket = PinterestAgeBucket;

export type Curve =
  | "christmas"
  | "halloween"
  | "autumn"
  | "thanksgiving"
  | "valentines"
  | "spring"
  | "wedding"
  | "summer"
  | "back_to_school"
  | "new_year"
  | "evergreen"
  | "growing"
  | "falling";

const SEASONAL_CURVES: ReadonlySet<Curve> = new Set([
  "christmas",
  "halloween",
  "autumn",
  "thanksgiving",
  "valentines",
  "spring",
  "wedding",
  "summer",
  "back_to_school",
  "new_year",
]);

export interface KeywordProfile {
  keyword: string;
  interest: Interest;
  curve: Curve;
  /** Relative popularity in the US, 1 to 100. */
  popularity: number;
}

type Entry = [keyword: string, interest: Interest, curve: Curve, popularity: number];

// prettier-ignore
const VOCABULARY: Entry[] = [
  ["christmas decor", "home_decor", "christmas", 95],
  ["christmas tree", "home_decor", "christmas", 90],
  ["christmas nails", "beauty", "christmas", 88],
  ["christmas cookies", "food_and_drinks", "christmas", 80],
  ["christmas gift ideas", "event_planning", "christmas", 85],
  ["christmas outfits", "womens_fashion", "christmas", 60],
  ["christmas wallpaper", "art", "christmas", 70],
  ["christmas crafts", "diy_and_crafts", "christmas", 66],
  ["christmas table decor", "home_decor", "christmas", 45],
  ["christmas party ideas", "event_planning", "christmas", 40],
  ["christmas cards", "art", "christmas", 38],
  ["christmas quotes", "quotes", "christmas", 30],
  ["gingerbread house", "food_and_drinks", "christmas", 52],
  ["advent calendar ideas", "diy_and_crafts", "christmas", 35],
  ["stocking stuffers", "event_planning", "christmas", 50],
  ["ugly christmas sweater", "womens_fashion", "christmas", 34],
  ["christmas dinner", "food_and_drinks", "christmas", 58],
  ["holiday nails", "beauty", "christmas", 48],
  ["winter wonderland party", "event_planning", "christmas", 18],
  ["elf on the shelf ideas", "parenting", "christmas", 55],
  ["halloween costumes", "entertainment", "halloween", 92],
  ["halloween decor", "home_decor", "halloween", 80],
  ["halloween nails", "beauty", "halloween", 70],
  ["couples halloween costumes", "entertainment", "halloween", 64],
  ["halloween makeup", "beauty", "halloween", 62],
  ["pumpkin carving ideas", "diy_and_crafts", "halloween", 58],
  ["halloween party food", "food_and_drinks", "halloween", 40],
  ["kids halloween costumes", "childrens_fashion", "halloween", 44],
  ["fall outfits", "womens_fashion", "autumn", 86],
  ["fall decor", "home_decor", "autumn", 82],
  ["fall nails", "beauty", "autumn", 78],
  ["pumpkin recipes", "food_and_drinks", "autumn", 50],
  ["fall wallpaper", "art", "autumn", 60],
  ["apple cider recipes", "food_and_drinks", "autumn", 28],
  ["fall wreath", "diy_and_crafts", "autumn", 36],
  ["cozy fall aesthetic", "design", "autumn", 42],
  ["thanksgiving recipes", "food_and_drinks", "thanksgiving", 66],
  ["thanksgiving table", "home_decor", "thanksgiving", 40],
  ["thanksgiving desserts", "food_and_drinks", "thanksgiving", 48],
  ["friendsgiving ideas", "event_planning", "thanksgiving", 22],
  ["valentines day gifts", "event_planning", "valentines", 60],
  ["valentines nails", "beauty", "valentines", 54],
  ["valentines day outfit", "womens_fashion", "valentines", 38],
  ["galentines party", "event_planning", "valentines", 20],
  ["valentines crafts", "diy_and_crafts", "valentines", 30],
  ["easter decor", "home_decor", "spring", 44],
  ["spring outfits", "womens_fashion", "spring", 64],
  ["spring nails", "beauty", "spring", 60],
  ["easter recipes", "food_and_drinks", "spring", 36],
  ["vegetable garden layout", "gardening", "spring", 46],
  ["spring cleaning checklist", "home_decor", "spring", 32],
  ["seed starting", "gardening", "spring", 26],
  ["wedding dresses", "wedding", "wedding", 90],
  ["wedding decorations", "wedding", "wedding", 70],
  ["wedding cake", "wedding", "wedding", 62],
  ["bridesmaid dresses", "wedding", "wedding", 58],
  ["wedding nails", "beauty", "wedding", 44],
  ["wedding hairstyles", "beauty", "wedding", 56],
  ["wedding guest dress", "womens_fashion", "wedding", 60],
  ["bridal shower ideas", "event_planning", "wedding", 40],
  ["wedding invitations", "wedding", "wedding", 42],
  ["wedding bouquet", "wedding", "wedding", 36],
  ["summer outfits", "womens_fashion", "summer", 90],
  ["summer nails", "beauty", "summer", 84],
  ["beach outfits", "womens_fashion", "summer", 46],
  ["summer salads", "food_and_drinks", "summer", 42],
  ["bbq recipes", "food_and_drinks", "summer", 36],
  ["pool party ideas", "event_planning", "summer", 30],
  ["summer wallpaper", "art", "summer", 40],
  ["road trip snacks", "travel", "summer", 24],
  ["summer cocktails", "food_and_drinks", "summer", 34],
  ["swimsuits", "womens_fashion", "summer", 50],
  ["patio decor", "home_decor", "summer", 38],
  ["beach vacation packing list", "travel", "summer", 22],
  ["back to school outfits", "womens_fashion", "back_to_school", 62],
  ["back to school supplies", "education", "back_to_school", 50],
  ["dorm room ideas", "home_decor", "back_to_school", 56],
  ["lunch box ideas", "food_and_drinks", "back_to_school", 40],
  ["classroom decor", "education", "back_to_school", 48],
  ["first day of school sign", "parenting", "back_to_school", 28],
  ["teacher gifts", "education", "back_to_school", 36],
  ["school hairstyles", "beauty", "back_to_school", 30],
  ["study tips", "education", "back_to_school", 34],
  ["new year nails", "beauty", "new_year", 30],
  ["new years eve outfit", "womens_fashion", "new_year", 42],
  ["vision board ideas", "quotes", "new_year", 46],
  ["workout plan", "health", "new_year", 52],
  ["meal prep ideas", "food_and_drinks", "new_year", 48],
  ["new year quotes", "quotes", "new_year", 26],
  ["budget planner", "finance", "new_year", 34],
  ["living room ideas", "home_decor", "evergreen", 88],
  ["bedroom ideas", "home_decor", "evergreen", 86],
  ["kitchen ideas", "home_decor", "evergreen", 80],
  ["bathroom ideas", "home_decor", "evergreen", 74],
  ["small apartment decor", "home_decor", "evergreen", 48],
  ["gallery wall", "home_decor", "evergreen", 40],
  ["boho bedroom", "home_decor", "evergreen", 44],
  ["easy dinner recipes", "food_and_drinks", "evergreen", 84],
  ["chicken recipes", "food_and_drinks", "evergreen", 82],
  ["healthy breakfast", "food_and_drinks", "evergreen", 66],
  ["banana bread", "food_and_drinks", "evergreen", 54],
  ["sourdough bread", "food_and_drinks", "evergreen", 46],
  ["smoothie recipes", "food_and_drinks", "evergreen", 44],
  ["pasta recipes", "food_and_drinks", "evergreen", 60],
  ["crockpot recipes", "food_and_drinks", "evergreen", 58],
  ["nail ideas", "beauty", "evergreen", 92],
  ["makeup looks", "beauty", "evergreen", 70],
  ["hairstyles for long hair", "beauty", "evergreen", 72],
  ["short hair cuts", "beauty", "evergreen", 66],
  ["skincare routine", "beauty", "evergreen", 58],
  ["outfit ideas", "womens_fashion", "evergreen", 90],
  ["casual outfits", "womens_fashion", "evergreen", 68],
  ["work outfits women", "womens_fashion", "evergreen", 56],
  ["mens outfits", "mens_fashion", "evergreen", 60],
  ["mens haircuts", "mens_fashion", "evergreen", 64],
  ["mens fashion casual", "mens_fashion", "evergreen", 40],
  ["tattoo ideas", "art", "evergreen", 86],
  ["drawing ideas", "art", "evergreen", 70],
  ["painting ideas", "art", "evergreen", 56],
  ["aesthetic wallpaper", "art", "evergreen", 80],
  ["iphone wallpaper", "art", "evergreen", 64],
  ["diy home decor", "diy_and_crafts", "evergreen", 60],
  ["crafts for kids", "diy_and_crafts", "evergreen", 58],
  ["crochet patterns", "diy_and_crafts", "evergreen", 62],
  ["cricut projects", "diy_and_crafts", "evergreen", 44],
  ["garden ideas", "gardening", "evergreen", 62],
  ["indoor plants", "gardening", "evergreen", 48],
  ["backyard landscaping", "gardening", "evergreen", 52],
  ["workout motivation", "health", "evergreen", 40],
  ["yoga for beginners", "health", "evergreen", 42],
  ["healthy snacks", "health", "evergreen", 46],
  ["self care ideas", "health", "evergreen", 38],
  ["inspirational quotes", "quotes", "evergreen", 70],
  ["motivational quotes", "quotes", "evergreen", 62],
  ["funny quotes", "quotes", "evergreen", 58],
  ["travel destinations", "travel", "evergreen", 50],
  ["europe travel", "travel", "evergreen", 40],
  ["packing list", "travel", "evergreen", 34],
  ["dog breeds", "animals", "evergreen", 40],
  ["cute cats", "animals", "evergreen", 52],
  ["puppy training", "animals", "evergreen", 30],
  ["modern house", "architecture", "evergreen", 44],
  ["tiny house", "architecture", "evergreen", 40],
  ["logo design", "design", "evergreen", 38],
  ["graphic design inspiration", "design", "evergreen", 30],
  ["baby shower ideas", "event_planning", "evergreen", 48],
  ["birthday party ideas", "event_planning", "evergreen", 56],
  ["kids outfits", "childrens_fashion", "evergreen", 34],
  ["toddler activities", "parenting", "evergreen", 44],
  ["baby names", "parenting", "evergreen", 54],
  ["money saving tips", "finance", "evergreen", 38],
  ["side hustle ideas", "finance", "evergreen", 36],
  ["gaming setup", "electronics", "evergreen", 40],
  ["desk setup", "electronics", "evergreen", 44],
  ["phone case", "electronics", "evergreen", 30],
  ["movies to watch", "entertainment", "evergreen", 46],
  ["book recommendations", "entertainment", "evergreen", 38],
  ["home gym", "sport", "evergreen", 34],
  ["running tips", "sport", "evergreen", 26],
  ["jeep wrangler", "vehicles", "evergreen", 30],
  ["car interior ideas", "vehicles", "evergreen", 28],
  ["vintage cars", "vehicles", "evergreen", 22],
  ["matcha recipes", "food_and_drinks", "growing", 38],
  ["cottage core aesthetic", "design", "falling", 24],
  ["quiet luxury outfits", "womens_fashion", "growing", 34],
  ["japandi living room", "home_decor", "growing", 30],
  ["pickleball outfits", "sport", "growing", 22],
  ["cowboy boots outfit", "womens_fashion", "growing", 36],
  ["protein breakfast", "food_and_drinks", "growing", 32],
  ["coquette aesthetic", "womens_fashion", "falling", 28],
  ["dopamine decor", "home_decor", "falling", 18],
  ["cottage cheese recipes", "food_and_drinks", "growing", 40],
  ["chrome nails", "beauty", "falling", 42],
  ["barbiecore", "womens_fashion", "falling", 14],
  ["mocha mousse", "design", "growing", 26],
  ["butter yellow dress", "womens_fashion", "growing", 24],
  ["bento cake", "food_and_drinks", "growing", 20],
  ["pilates at home", "health", "growing", 34],
  ["dupe perfumes", "beauty", "growing", 28],
  ["dalgona coffee", "food_and_drinks", "falling", 12],
  ["sourdough discard recipes", "food_and_drinks", "growing", 30],
  ["grandmillennial decor", "home_decor", "falling", 16],
  ["ai art", "art", "growing", 30],
];

const VOCABULARY_PROFILES: KeywordProfile[] = VOCABULARY.map(([keyword, interest, curve, popularity]) => ({ keyword, interest, curve, popularity }));
const BY_KEYWORD = new Map(VOCABULARY_PROFILES.map((profile) => [profile.keyword, profile]));

/** The stand-in's own vocabulary (the "top" keywords without a keyword filter). */
export function vocabulary(): readonly KeywordProfile[] {
  return VOCABULARY_PROFILES;
}

/** A number in [0, 1) fixed by its parts (FNV-1a, then murmur3's finaliser: fast, and well spread). */
export function unit(...parts: Array<string | number>): number {
  let hash = stableSeed(parts.join("\u0000"));
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

/** Remembers a pure function's answers (the stand-in answers the same terms again and again). */
function remembered<T>(compute: (key: string) => T): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      if (answers.size > 50_000) answers.clear();
      answer = compute(key);
      answers.set(key, answer);
    }
    return answer;
  };
}

export function normalizeKeyword(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, " ");
}

const words = (keyword: string) => keyword.split(/[^a-z0-9']+/).filter((word) => word.length > 2);

const CURVE_WORDS: Array<[RegExp, Curve]> = [
  [/\b(christmas|xmas|advent|santa|stocking|gingerbread|holiday|elf|nutcracker|winter)\b/, "christmas"],
  [/\b(halloween|costume|costumes|spooky|pumpkin carving|witch)\b/, "halloween"],
  [/\b(thanksgiving|friendsgiving|turkey)\b/, "thanksgiving"],
  [/\b(fall|autumn|pumpkin|cider|harvest)\b/, "autumn"],
  [/\b(valentine|valentines|galentines)\b/, "valentines"],
  [/\b(easter|spring)\b/, "spring"],
  [/\b(wedding|bridal|bride|bridesmaid|engagement)\b/, "wedding"],
  [/\b(summer|beach|pool|bbq|swimsuit|swimsuits|vacation|picnic)\b/, "summer"],
  [/\b(school|classroom|teacher|dorm|backpack|college|lunch box)\b/, "back_to_school"],
  [/\b(new year|new years|resolution|resolutions)\b/, "new_year"],
];

/** What the stand-in knows about any term: the vocabulary's entry, else one inferred from its words and a hash. */
export function profileOf(term: string): KeywordProfile {
  return profileOfKeyword(normalizeKeyword(term));
}

const profileOfKeyword = remembered((keyword: string): KeywordProfile => {
  const known = BY_KEYWORD.get(keyword);
  if (known) return known;
  const parent = relativesInVocabulary(keyword)[0];
  const seasonal = CURVE_WORDS.find(([pattern]) => pattern.test(keyword))?.[1];
  const pick = unit("curve", keyword);
  const curve: Curve = seasonal ?? parent?.curve ?? (pick < 0.6 ? "evergreen" : pick < 0.85 ? "growing" : "falling");
  const interest = parent?.interest ?? INTERESTS[Math.floor(unit("interest", keyword) * INTERESTS.length)];
  const base = parent?.popularity ?? 30;
  // Longer phrases are searched less.
  const popularity = Math.max(1, Math.round(base * (0.08 + 0.5 * unit("popularity", keyword)) * (keyword.split(" ").length > 3 ? 0.5 : 1)));
  return { keyword, interest, curve, popularity };
});

/** A word without its plural "s", so "nails" relates to "nail ideas". */
const stem = (word: string) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word);
/** Modifiers that make no two searches related by themselves ("garden ideas" is not related to "nail ideas"). */
const MODIFIERS = new Set(["idea", "recipe", "outfit", "aesthetic", "easy", "diy", "best", "cute", "simple", "for", "and", "the", "with"]);
const stems = (keyword: string) =>
  new Set(
    words(keyword)
      .map(stem)
      .filter((word) => !MODIFIERS.has(word)),
  );

/** How many vocabulary entries use each stem: shared rare words say more than shared common ones. */
const STEM_COUNTS = VOCABULARY_PROFILES.reduce((counts, profile) => {
  for (const word of stems(profile.keyword)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}, new Map<string, number>());

/** Vocabulary entries sharing a word with the term, the closest (rarest shared words) first, then the most popular. */
const VOCABULARY_STEMS = VOCABULARY_PROFILES.map((profile) => ({ profile, stems: [...stems(profile.keyword)] }));

const relativesInVocabulary = remembered((keyword: string): KeywordProfile[] => {
  const mine = stems(keyword);
  if (mine.size === 0) return [];
  const weight = (word: string) => Math.log((VOCABULARY_PROFILES.length + 1) / (STEM_COUNTS.get(word) ?? 1));
  return VOCABULARY_STEMS.filter(({ profile }) => profile.keyword !== keyword)
    .map(({ profile, stems: theirs }) => ({ profile, score: theirs.filter((word) => mine.has(word)).reduce((sum, word) => sum + weight(word), 0) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || b.profile.popularity - a.profile.popularity || a.profile.keyword.localeCompare(b.profile.keyword))
    .map((entry) => entry.profile);
});

// ---- terms -----------------------------------------------------------------------------------

const SUFFIXES: Partial<Record<Interest, string[]>> & { default: string[] } = {
  food_and_drinks: ["recipes", "recipe easy", "ideas", "healthy", "for dinner", "dessert", "aesthetic", "meal prep"],
  home_decor: ["decor", "ideas", "aesthetic", "living room", "bedroom", "diy", "on a budget", "cozy"],
  beauty: ["ideas", "looks", "aesthetic", "for beginners", "tutorial", "short", "simple", "2026"],
  womens_fashion: ["outfits", "outfit ideas", "aesthetic", "casual", "for women", "for work", "street style", "2026"],
  mens_fashion: ["for men", "outfits", "style", "casual", "ideas"],
  diy_and_crafts: ["diy", "crafts", "ideas", "for kids", "easy", "projects"],
  event_planning: ["ideas", "decorations", "for adults", "theme", "on a budget", "diy"],
  wedding: ["ideas", "decorations", "aesthetic", "on a budget", "rustic", "elegant"],
  art: ["ideas", "drawing", "aesthetic", "wallpaper", "easy", "sketch"],
  quotes: ["quotes", "quotes inspirational", "aesthetic", "short", "funny"],
  default: ["ideas", "aesthetic", "inspiration", "diy", "for beginners", "tips", "wallpaper", "quotes"],
};

const PREFIXES = ["easy", "cute", "simple", "aesthetic", "diy", "minimalist", "cheap", "vintage", "modern", "best"];

/**
 * `GET /terms/suggested`: popular searches that begin with the term (not the term
 * itself), most popular first.
 */
export function suggestedTerms(term: string, limit: number): string[] {
  return allSuggestions(normalizeKeyword(term)).slice(0, limit);
}

const allSuggestions = remembered((keyword: string): string[] => {
  const profile = profileOf(keyword);
  const known = VOCABULARY_PROFILES.filter((candidate) => candidate.keyword.startsWith(keyword) && candidate.keyword !== keyword);
  const suffixes = SUFFIXES[profile.interest] ?? SUFFIXES.default;
  const mine = new Set(keyword.split(" "));
  const made = suffixes.filter((suffix) => !suffix.split(" ").some((word) => mine.has(word))).map((suffix) => profileOf(`${keyword} ${suffix}`));
  return rankByPopularity(uniqueProfiles([...known, ...made]).filter((candidate) => candidate.keyword !== keyword)).slice(0, 10);
});

/** `GET /terms/related`: terms logically related to the term (sharing words, same interest, common modifiers). */
export function relatedTerms(term: string): string[] {
  return relatedOf(normalizeKeyword(term));
}

const relatedOf = remembered((keyword: string): string[] => {
  const profile = profileOf(keyword);
  const sharing = relativesInVocabulary(keyword).slice(0, 8);
  const sameInterest = VOCABULARY_PROFILES.filter((candidate) => candidate.interest === profile.interest && candidate.keyword !== keyword)
    .sort((a, b) => b.popularity - a.popularity || a.keyword.localeCompare(b.keyword))
    .slice(0, 6);
  const prefixed = [...PREFIXES]
    .sort((a, b) => unit("prefix", keyword, a) - unit("prefix", keyword, b))
    .slice(0, 4)
    .filter((prefix) => !keyword.startsWith(`${prefix} `))
    .map((prefix) => profileOf(`${prefix} ${keyword}`));
  return uniqueProfiles([...sharing, ...prefixed, ...sameInterest])
    .filter((candidate) => candidate.keyword !== keyword)
    .map((candidate) => candidate.keyword)
    .slice(0, 16);
});

function uniqueProfiles(profiles: KeywordProfile[]) {
  const seen = new Set<string>();
  return profiles.filter((profile) => {
    if (seen.has(profile.keyword)) return false;
    seen.add(profile.keyword);
    return true;
  });
}

function rankByPopularity(profiles: KeywordProfile[]) {
  return [...profiles].sort((a, b) => b.popularity - a.popularity || a.keyword.localeCompare(b.keyword)).map((profile) => profile.keyword);
}

// ---- volumes ---------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
export const WEEKS_SHOWN = 52;
const WEEKS_COMPUTED = 104;

const REGION_SCALE: Record<TrendRegion, number> = {
  US: 1,
  CA: 0.15,
  DE: 0.12,
  FR: 0.1,
  ES: 0.06,
  IT: 0.06,
  "DE+AT+CH": 0.15,
  "GB+IE": 0.2,
  "IT+ES+PT+GR+MT": 0.15,
  "PL+RO+HU+SK+CZ": 0.07,
  "SE+DK+FI+NO": 0.06,
  "NL+BE+LU": 0.06,
  AR: 0.04,
  BR: 0.18,
  CO: 0.03,
  MX: 0.08,
  "MX+AR+CO+CL": 0.15,
  "AU+NZ": 0.08,
};

const SOUTHERN: ReadonlySet<TrendRegion> = new Set(["AR", "BR", "AU+NZ"]);

/** Day of the year (1-366) when children go back to school, by region. */
const BACK_TO_SCHOOL_PEAK: Record<TrendRegion, number> = {
  US: 222,
  CA: 237,
  DE: 244,
  FR: 244,
  ES: 250,
  IT: 256,
  "DE+AT+CH": 244,
  "GB+IE": 240,
  "IT+ES+PT+GR+MT": 252,
  "PL+RO+HU+SK+CZ": 244,
  "SE+DK+FI+NO": 225,
  "NL+BE+LU": 240,
  AR: 60,
  BR: 40,
  CO: 20,
  MX: 232,
  "MX+AR+CO+CL": 200,
  "AU+NZ": 27,
};

interface SeasonShape {
  peak: number;
  before: number;
  after: number;
  baseline: number;
}

function seasonShape(curve: Curve, region: TrendRegion): SeasonShape | null {
  const south = SOUTHERN.has(region) ? 182 : 0;
  switch (curve) {
    case "christmas":
      return { peak: 349, before: 26, after: 9, baseline: 0.05 };
    case "halloween":
      return { peak: 297, before: 20, after: 5, baseline: SOUTHERN.has(region) ? 0.02 : 0.04 };
    case "autumn":
      return { peak: (274 + south) % 365, before: 30, after: 26, baseline: 0.14 };
    case "thanksgiving":
      return region === "US"
        ? { peak: 325, before: 14, after: 4, baseline: 0.03 }
        : region === "CA"
          ? { peak: 283, before: 12, after: 4, baseline: 0.03 }
          : { peak: 325, before: 10, after: 4, baseline: 0.3 };
    case "valentines":
      return { peak: 40, before: 14, after: 4, baseline: 0.04 };
    case "spring":
      return { peak: (97 + south) % 365, before: 26, after: 22, baseline: 0.18 };
    case "wedding":
      return { peak: (155 + south) % 365, before: 50, after: 42, baseline: 0.35 };
    case "summer":
      return { peak: (192 + south) % 365, before: 42, after: 34, baseline: 0.12 };
    case "back_to_school":
      return { peak: BACK_TO_SCHOOL_PEAK[region], before: 22, after: 12, baseline: 0.08 };
    case "new_year":
      return { peak: 4, before: 8, after: 24, baseline: 0.3 };
    default:
      return null;
  }
}

function dayOfYear(time: number) {
  const date = new Date(time);
  return Math.floor((time - Date.UTC(date.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
}

/** Signed days from the peak, on a circular year: negative before it. */
function daysFromPeak(day: number, peak: number) {
  let delta = day - peak;
  if (delta > 182) delta -= 365;
  if (delta < -182) delta += 365;
  return delta;
}

/** The end (a Sunday, UTC midnight) of the last complete week before `today`. */
export function lastWeekEnd(today: number): number {
  const midnight = Math.floor(today / DAY_MS) * DAY_MS;
  const weekday = new Date(midnight).getUTCDay(); // 0 = Sunday
  return midnight - (weekday === 0 ? 7 : weekday) * DAY_MS;
}

export function isoDate(time: number) {
  return new Date(time).toISOString().slice(0, 10);
}

/** A bump the sandbox was told to give a keyword's latest weeks (control `POST /__sandbox/pinterest/trends/rise`). */
export interface Rise {
  factor: number;
  weeks: number;
}

/**
 * Weekly search volumes (arbitrary units), oldest first, for weeks ending on
 * `weekEnds`. `weeksAgo(i)` is how many weeks before the last complete one a
 * week is, which growing and falling terms (anchored to today) need.
 */
export function weeklyVolumes(profile: KeywordProfile, region: TrendRegion, weekEnds: number[], rise: Rise | null): number[] {
  const key = `${profile.keyword}|${profile.curve}|${profile.popularity}|${region}|${weekEnds[0]}|${weekEnds.length}|${rise ? `${rise.factor}|${rise.weeks}` : ""}`;
  let volumes = VOLUMES.get(key);
  if (!volumes) {
    if (VOLUMES.size > 20_000) VOLUMES.clear();
    volumes = computeVolumes(profile, region, weekEnds, rise);
    VOLUMES.set(key, volumes);
  }
  return volumes;
}

const VOLUMES = new Map<string, number[]>();

function computeVolumes(profile: KeywordProfile, region: TrendRegion, weekEnds: number[], rise: Rise | null): number[] {
  const regional = REGION_SCALE[region] * (0.7 + 0.6 * unit("region", profile.keyword, region));
  const shape = seasonShape(profile.curve, region);
  const growth = 1.5 + 3.5 * unit("growth", profile.keyword);
  const wobble = unit("phase", profile.keyword) * Math.PI * 2;
  const last = weekEnds.length - 1;
  return weekEnds.map((end, index) => {
    const weeksAgo = last - index;
    let level: number;
    if (shape) {
      const delta = daysFromPeak(dayOfYear(end), shape.peak);
      const width = delta < 0 ? shape.before : shape.after;
      level = shape.baseline + (1 - shape.baseline) * Math.exp(-0.5 * (delta / width) ** 2);
    } else if (profile.curve === "growing") {
      level = 0.25 + growth * 0.25 * Math.exp(-weeksAgo / 11);
    } else if (profile.curve === "falling") {
      level = 0.3 + 0.7 * (weeksAgo / WEEKS_COMPUTED) ** 0.8;
    } else {
      level = 0.85 + 0.08 * Math.sin((end / (DAY_MS * 7)) * ((Math.PI * 2) / 26) + wobble);
    }
    const noise = 0.95 + 0.1 * unit("noise", profile.keyword, region, end);
    let bump = 1;
    if (rise && weeksAgo < rise.weeks) bump = 1 + (rise.factor - 1) * ((rise.weeks - weeksAgo) / rise.weeks);
    return profile.popularity * 1000 * regional * level * noise * bump;
  });
}

/** The week ends of the last `count` complete weeks before `today`, oldest first. */
export function weekEnds(today: number, count = WEEKS_COMPUTED): number[] {
  const last = lastWeekEnd(today);
  return Array.from({ length: count }, (_, index) => last - (count - 1 - index) * 7 * DAY_MS);
}

const FEMALE_SHARE: Partial<Record<Interest, number>> = {
  beauty: 0.9,
  womens_fashion: 0.93,
  wedding: 0.85,
  home_decor: 0.8,
  parenting: 0.82,
  childrens_fashion: 0.85,
  event_planning: 0.8,
  food_and_drinks: 0.72,
  diy_and_crafts: 0.8,
  mens_fashion: 0.12,
  vehicles: 0.2,
  electronics: 0.35,
  sport: 0.45,
  finance: 0.55,
  architecture: 0.5,
};

/** The share of a keyword's searches by gender and by age bucket (each sums to about 1). */
export function demographicsOf(profile: KeywordProfile): { gender: Record<Gender, number>; age: Record<AgeBucket, number> } {
  const female = Math.min(0.95, Math.max(0.05, (FEMALE_SHARE[profile.interest] ?? 0.65) + (unit("female", profile.keyword) - 0.5) * 0.1));
  const unknown = 0.06;
  const gender = { female: round2(female * (1 - unknown)), male: round2((1 - female) * (1 - unknown)), unknown };
  const centre = 1 + unit("age", profile.keyword) * 2.5; // peaks between 25-34 and 45-49
  const weights = AGE_BUCKETS.map((_, index) => Math.exp(-0.5 * ((index - centre) / 1.3) ** 2));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const age = Object.fromEntries(AGE_BUCKETS.map((bucket, index) => [bucket, round2(weights[index] / total)])) as Record<AgeBucket, number>;
  return { gender, age };
}

function round2(value: number) {
  return Math.round(value * 100) / 100;
}

/** Percent change rounded, capped at +/-10000; 10001 means more than 10000%. */
export function percentChange(now: number, before: number): number {
  if (before <= 0) return now > 0 ? 10001 : 0;
  const change = Math.round((now / before - 1) * 100);
  return change > 10000 ? 10001 : Math.max(-10000, change);
}

export function isSeasonal(curve: Curve) {
  return SEASONAL_CURVES.has(curve);
}
