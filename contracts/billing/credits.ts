import * as v from "valibot";
import { body, IdempotencyReference, plainLine, plainText } from "../fields.ts";

/** What credits are spent on, and what each costs (spec section 9). */
export const CREDIT_COSTS = { image: 1, video: 5, aiText: 0.5, aiAltText: 2, aiImage: 12 } as const;
export type CreditCategory = keyof typeof CREDIT_COSTS;
export const CREDIT_CATEGORIES = Object.keys(CREDIT_COSTS) as CreditCategory[];

const Category = v.picklist(CREDIT_CATEGORIES, `category must be one of ${CREDIT_CATEGORIES.join(", ")}`);
const Amount = (field: string) =>
  v.pipe(
    v.number(`${field} must be a number`),
    v.minValue(0.5, `${field} must be at least 0.5`),
    v.maxValue(1000, `${field} is too large`),
    v.multipleOf(0.5, `${field} must be a multiple of 0.5`),
  );
/** A client-chosen idempotency key: the same reference is never charged twice. */
const Reference = v.optional(IdempotencyReference);

/**
 * POST /api/user/incrementUsedPinCredits. The server decides what a category
 * costs (CREDIT_COSTS); `creditAmount`, when sent, must say the same.
 */
export const IncrementCreditsBody = body({
  creditAmount: v.optional(Amount("creditAmount")),
  category: v.pipe(v.string("category is required"), Category),
  reference: Reference,
});

const short = (max: number) => v.optional(v.pipe(v.string(), plainText, v.maxLength(max)), "");
export const PinDetails = v.object({
  action: v.optional(v.picklist(["downloaded", "scheduled", "pinned"]), "downloaded"),
  title: short(500),
  description: short(2000),
  url: short(2048),
  imageUrl: short(2048),
  mediaType: v.optional(v.picklist(["image", "video"]), "image"),
  boardId: v.optional(v.pipe(v.string(), v.maxLength(64))),
  boardName: v.optional(v.pipe(v.string(), plainLine, v.maxLength(200))),
  pinterestProfile: v.optional(v.pipe(v.string(), v.maxLength(100))),
  pinterestPinId: v.optional(v.pipe(v.string(), v.maxLength(64))),
});
export type PinDetails = v.InferOutput<typeof PinDetails>;

/** POST /api/scraping/addPinHistoryAndAdjustCredits; `numCreditsToConsume`, when sent, must be what the category costs. */
export const PinHistoryBody = body({
  pinDetails: PinDetails,
  numCreditsToConsume: v.optional(Amount("numCreditsToConsume")),
  category: v.pipe(v.string("category is required"), Category),
  reference: Reference,
});

/** What a user sees when a spend would take the month's balance below zero (HTTP 402). */
export const OUT_OF_CREDITS_MESSAGE = "You have run out of pin credits for this month. Upgrade your plan to get more.";
/** Where the out-of-credits answer sends the user. */
export const UPGRADE_URL = "/pricing";

/** GET /api/user/credits: this billing month's credits (dates are ISO strings). */
export interface CreditsSummary {
  planId: string;
  creditsPerMonth: number;
  usedPinCredits: number;
  remaining: number;
  periodStart: string;
  periodEnd: string;
}
