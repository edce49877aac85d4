import * as v from "valibot";
import { plainLine, plainText } from "../fields.ts";
import { DEFAULT_COLOR_INDEX, DEFAULT_FONT_FAMILY, DEFAULT_PIN_COLOR } from "./template.ts";

/**
 * Design settings of the generator (spec section 3, defaults of section 9).
 * They decide how a generation turns sources into posts: which colours,
 * templates, images and font, and what the AI writes. Saved as named
 * profiles (workers/services/content/design-settings.ts).
 */

export const RgbaColor = v.object({
  r: v.pipe(v.number("r must be a number"), v.integer(), v.minValue(0), v.maxValue(255)),
  g: v.pipe(v.number("g must be a number"), v.integer(), v.minValue(0), v.maxValue(255)),
  b: v.pipe(v.number("b must be a number"), v.integer(), v.minValue(0), v.maxValue(255)),
  a: v.optional(v.pipe(v.number("a must be a number"), v.minValue(0), v.maxValue(1)), 1),
});
export type RgbaColor = v.InferOutput<typeof RgbaColor>;

/** Languages the AI writes in (aiLanguage). */
export const AI_LANGUAGES = [
  "English",
  "Spanish",
  "French",
  "German",
  "Italian",
  "Portuguese",
  "Dutch",
  "Swedish",
  "Danish",
  "Norwegian",
  "Finnish",
  "Polish",
  "Czech",
  "Romanian",
  "Hungarian",
  "Greek",
  "Turkish",
  "Russian",
  "Ukrainian",
  "Japanese",
  "Korean",
  "Chinese",
  "Hindi",
  "Indonesian",
  "Arabic",
  "Hebrew",
] as const;
/** Tones the AI writes in (aiTone). */
export const AI_TONES = ["Neutral", "Friendly", "Professional", "Playful", "Persuasive", "Inspirational", "Informative", "Luxurious", "Witty"] as const;

export const DEFAULT_AI_LANGUAGE = "English";
/** Pins per source: the spec's default for a CSV row (numberOfPinsToGenerate 5) serves every source. */
export const DEFAULT_PINS_PER_SOURCE = 5;
export const MAX_PINS_PER_SOURCE = 20;
export const DEFAULT_AI_TONE = "Neutral";

const url = (field: string) => v.pipe(v.string(`${field} must be text`), v.trim(), v.maxLength(2048, `${field} is too long`));
const text = (field: string, max: number) => v.optional(v.pipe(v.string(`${field} must be text`), plainText, v.maxLength(max, `${field} is too long`)), "");
const flag = (fallback: boolean) => v.optional(v.boolean(), fallback);
const urlList = (field: string, max: number) => v.optional(v.pipe(v.array(url(field)), v.maxLength(max, `${field} has too many entries`)), []);

/** Text and images that replace what a source gave, on every generated post (empty = keep the source's). */
export const PinOverrides = v.object({
  title: text("pinOverrides.title", 500),
  URLText: text("pinOverrides.URLText", 200),
  description: text("pinOverrides.description", 2000),
  url: text("pinOverrides.url", 2048),
  brandName: text("pinOverrides.brandName", 100),
  logoImage: text("pinOverrides.logoImage", 2048),
});
export type PinOverrides = v.InferOutput<typeof PinOverrides>;

export const DesignSettings = v.object({
  designColors: v.optional(
    v.pipe(v.array(RgbaColor), v.minLength(1, "designColors needs at least one colour"), v.maxLength(24, "designColors has too many colours")),
    [{ r: 29, g: 34, b: 38, a: 1 }, { ...DEFAULT_PIN_COLOR }, { r: 242, g: 107, b: 91, a: 1 }, { r: 247, g: 197, b: 72, a: 1 }, { r: 64, g: 99, b: 179, a: 1 }],
  ),
  /** Which of designColors new posts use (unless useAllColors). */
  selectedColorIndex: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(23)), DEFAULT_COLOR_INDEX),
  useAllColors: flag(false),
  /** Template ids to generate with; empty means the standard templates. */
  templateSelections: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(64))), v.maxLength(200, "templateSelections has too many templates")), []),
  isRandomTemplates: flag(true),
  /** How many pins each source (page, feed item, product) gives, each with another template; "one of each" settings decide instead when on. */
  pinsPerSource: v.optional(
    v.pipe(
      v.number("pinsPerSource must be a number"),
      v.integer("pinsPerSource must be a whole number"),
      v.minValue(1, "pinsPerSource must be at least 1"),
      v.maxValue(MAX_PINS_PER_SOURCE, `pinsPerSource must be at most ${MAX_PINS_PER_SOURCE}`),
    ),
    DEFAULT_PINS_PER_SOURCE,
  ),
  isRandomImages: flag(false),
  useAllDetectedImages: flag(true),
  selectedDetectedImages: urlList("selectedDetectedImages", 40),
  selectedUploadedImages: urlList("selectedUploadedImages", 40),
  aiLanguage: v.optional(v.picklist(AI_LANGUAGES, "aiLanguage is not a supported language"), DEFAULT_AI_LANGUAGE),
  /** One phrase per line; blank means a free rewrite. */
  aiKeywords: text("aiKeywords", 2000),
  aiTone: v.optional(v.picklist(AI_TONES, "aiTone is not a supported tone"), DEFAULT_AI_TONE),
  rewriteTitle: flag(false),
  rewriteDescription: flag(false),
  fontFamily: v.optional(v.pipe(v.string(), v.maxLength(80, "fontFamily is too long")), DEFAULT_FONT_FAMILY),
  /** For an uploaded font: its URL in the media library. */
  fontUrl: text("fontUrl", 2048),
  /** Hex colour for text, or empty for the template's own colours. */
  fontColor: v.optional(
    v.union([v.pipe(v.string(), v.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "fontColor must be a hex colour like #1d2226")), v.literal("")]),
    "",
  ),
  useUpperCaseFont: flag(true),
  fixLowContrastText: flag(true),
  useOneOfEachImage: flag(false),
  useOneOfEachTemplate: flag(false),
  bypassResize: flag(false),
  generateAltTextWithAI: flag(false),
  pinOverrides: v.optional(PinOverrides, {}),
});
export type DesignSettings = v.InferOutput<typeof DesignSettings>;
export type DesignSettingsInput = v.InferInput<typeof DesignSettings>;

/** The settings a new user starts with. */
export function defaultDesignSettings(): DesignSettings {
  return v.parse(DesignSettings, {});
}

export const DESIGN_PROFILE_NAME_MAX = 60;
export const DesignProfileName = v.pipe(
  v.string("newProfileName is required"),
  plainLine,
  v.trim(),
  v.nonEmpty("newProfileName is required"),
  v.maxLength(DESIGN_PROFILE_NAME_MAX, `newProfileName must be at most ${DESIGN_PROFILE_NAME_MAX} characters`),
);

export interface DesignSettingsProfile {
  profileId: string;
  name: string;
  isActive: boolean;
  updatedAt: string;
  settings: DesignSettings;
}
