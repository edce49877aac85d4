import * as v from "valibot";
import { AI_LANGUAGES, AI_TONES, DEFAULT_AI_LANGUAGE, DEFAULT_AI_TONE } from "./design-settings.ts";
import { body, IdempotencyReference } from "../fields.ts";

/**
 * AI copy (spec section 7, AI). The client sends the text to rewrite as
 * `prompt`; `kind` decides the bounds the server enforces: titles under 40
 * characters, descriptions over 200 and under 500, alt text at most 500.
 */
export const TITLE_MAX_CHARS = 40; // exclusive: a title has at most 39 characters
export const DESCRIPTION_MIN_CHARS = 200; // exclusive
export const DESCRIPTION_MAX_CHARS = 500; // exclusive
export const ALT_TEXT_MAX_CHARS = 500;
export const MAX_AI_RESULTS = 10;

export const REWRITE_KINDS = ["title", "description"] as const;
export type RewriteKind = (typeof REWRITE_KINDS)[number];

/** POST /api/openAI/rewriteText, /highMemLimitApi/openAI/rewriteTextNoDuplicates(Free) -> {results: string[]} */
export const RewriteTextBody = body({
  /** The text to rewrite (the post's title or description). */
  prompt: v.pipe(v.string("prompt is required"), v.trim(), v.nonEmpty("prompt is required"), v.maxLength(4000, "prompt is too long")),
  numResults: v.optional(
    v.pipe(
      v.number("numResults must be a number"),
      v.integer("numResults must be a whole number"),
      v.minValue(1, "numResults must be at least 1"),
      v.maxValue(MAX_AI_RESULTS, `numResults must be at most ${MAX_AI_RESULTS}`),
    ),
    1,
  ),
  kind: v.optional(v.picklist(REWRITE_KINDS, "kind must be title or description"), "title"),
  /** One phrase per line; blank means a free rewrite. */
  keywords: v.optional(v.pipe(v.string("keywords must be text"), v.maxLength(2000, "keywords is too long")), ""),
  language: v.optional(v.picklist(AI_LANGUAGES, "language is not a supported language"), DEFAULT_AI_LANGUAGE),
  tone: v.optional(v.picklist(AI_TONES, "tone is not a supported tone"), DEFAULT_AI_TONE),
  /** Idempotency key for the credit spend (a retried request is not charged twice). */
  reference: v.optional(IdempotencyReference),
});
export type RewriteTextBody = v.InferInput<typeof RewriteTextBody>;
export interface RewriteTextResponse {
  results: string[];
}

/** POST /api/openAI/getAltTextFromImage {imageURL, aiLanguage} -> {altText} */
export const AltTextBody = body({
  imageURL: v.pipe(v.string("imageURL is required"), v.trim(), v.nonEmpty("imageURL is required"), v.maxLength(2048, "imageURL is too long")),
  aiLanguage: v.optional(v.picklist(AI_LANGUAGES, "aiLanguage is not a supported language"), DEFAULT_AI_LANGUAGE),
  reference: v.optional(IdempotencyReference),
});
export interface AltTextResponse {
  altText: string;
}

/** What an AI picture is asked to show: at most this many characters. */
export const AI_IMAGE_PROMPT_MAX = 1000;

/**
 * POST /api/openAI/generateImage {prompt, reference?} -> {image}: a picture for a pin made by OpenAI's image model
 * (issue 40 point 15), 12 credits once per reference, kept in the media library (the image is its MediaItem).
 */
export const GenerateImageBody = body({
  prompt: v.pipe(
    v.string("prompt is required"),
    v.trim(),
    v.nonEmpty("Please say what the picture should show."),
    v.maxLength(AI_IMAGE_PROMPT_MAX, `The description of the picture must be at most ${AI_IMAGE_PROMPT_MAX} characters.`),
  ),
  reference: v.optional(IdempotencyReference),
});
