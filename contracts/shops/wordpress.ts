import * as v from "valibot";
import { body, IdempotencyReference, plainLine, plainText } from "../fields.ts";
import { PINTEREST_PIN_LIMITS } from "../pinterest/pinterest.ts";
import { isWebUrl } from "../pinterest/scheduling-api.ts";

/**
 * The WordPress hand-off (issue 20, docs/decisions/054, docs/api/wordpress.md):
 * the user's access key, managed on /profile, and the calls the WordPress
 * plugin makes with that key alone (`Authorization: Bearer pbwp_...`).
 */

/** Every access key starts with this; the rest is 32 random bytes, base64url (43 characters). */
export const WORDPRESS_KEY_PREFIX = "pbwp_";
export const WORDPRESS_KEY_PATTERN = /^pbwp_[A-Za-z0-9_-]{43}$/;
/** How much of a key is kept to recognise it: "pbwp_" and four characters. */
export const WORDPRESS_KEY_SHOWN_CHARACTERS = WORDPRESS_KEY_PREFIX.length + 4;

/** Pins one post may become in one call (each is drawn on the server). */
export const MAX_WORDPRESS_PINS_PER_POST = 10;
/** Pictures a post may send. */
export const MAX_WORDPRESS_IMAGES = 20;

// ---------------------------------------------------------------- messages

export const WORDPRESS_KEY_MISSING = "Send your WordPress access key in the Authorization header (Bearer pbwp_...).";
export const WORDPRESS_KEY_REFUSED =
  "This WordPress access key is not valid. It may have been rotated or revoked: copy the current key from your profile page.";
export const WORDPRESS_KEY_EXISTS = "You already have a WordPress access key. Rotate it to get a new one.";
export const WORDPRESS_KEY_NONE = "You have no WordPress access key. Create one first.";
export const WORDPRESS_RATE_LIMITED = (minutes: string) => `Too many requests with this WordPress access key. Please try again in ${minutes}.`;

// ---------------------------------------------------------------- the key, as /profile sees it

/** The key as the user sees it after creation: its first characters only, never the secret or its hash. */
export interface WordPressKeySummary {
  /** "pbwp_abcd…": what `wordpressAccessKey` in the user credentials carries too. */
  shown: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** GET /api/wordpress/accessKey, DELETE /api/wordpress/accessKey (then null). */
export interface WordPressKeyResponse {
  wordpressAccessKey: WordPressKeySummary | null;
}

/** POST /api/wordpress/accessKey (201) and /api/wordpress/accessKey/rotate: the whole key, this once. */
export interface WordPressNewKeyResponse {
  key: string;
  wordpressAccessKey: WordPressKeySummary;
}

// ---------------------------------------------------------------- the plugin's calls

const WebAddress = (field: string) =>
  v.pipe(
    v.string(`${field} must be text`),
    v.trim(),
    v.nonEmpty(`${field} is required`),
    v.maxLength(PINTEREST_PIN_LIMITS.link, `${field} must be at most ${PINTEREST_PIN_LIMITS.link} characters`),
    v.check((value) => isWebUrl(value), `${field} must be a web address starting with http:// or https://`),
  );

const Username = v.pipe(v.string("pinterestProfileUsername must be text"), v.trim(), v.maxLength(100, "pinterestProfileUsername is too long"));
const BoardId = v.pipe(v.string("boardId must be text"), v.trim(), v.regex(/^[0-9A-Za-z_-]{1,64}$/, "boardId is not a board id"));

/**
 * POST /api/wordpress/pins: one WordPress post becomes pins drawn with the
 * user's active design settings, kept as a draft or queued on a profile's board.
 */
export const WordPressPinsBody = v.pipe(
  body({
    url: WebAddress("url"),
    title: v.pipe(
      v.string("title must be text"),
      plainLine,
      v.trim(),
      v.nonEmpty("title is required"),
      v.maxLength(500, "title must be at most 500 characters"),
    ),
    excerpt: v.optional(v.pipe(v.string("excerpt must be text"), plainText, v.trim(), v.maxLength(4000, "excerpt must be at most 4000 characters")), ""),
    images: v.optional(
      v.pipe(
        v.array(WebAddress("images"), "images must be a list of web addresses"),
        v.maxLength(MAX_WORDPRESS_IMAGES, `images may hold at most ${MAX_WORDPRESS_IMAGES} pictures`),
      ),
      [],
    ),
    destination: v.picklist(["draft", "queue"], "destination must be draft or queue"),
    pinterestProfileUsername: v.optional(Username),
    boardId: v.optional(BoardId),
    boardName: v.optional(v.pipe(v.string("boardName must be text"), plainLine, v.maxLength(180, "boardName must be at most 180 characters")), ""),
    reference: v.optional(IdempotencyReference),
  }),
  v.forward(
    v.partialCheck(
      [["destination"], ["pinterestProfileUsername"]],
      (input) => input.destination !== "queue" || Boolean(input.pinterestProfileUsername),
      "pinterestProfileUsername is required to queue pins",
    ),
    ["pinterestProfileUsername"],
  ),
  v.forward(
    v.partialCheck([["destination"], ["boardId"]], (input) => input.destination !== "queue" || Boolean(input.boardId), "boardId is required to queue pins"),
    ["boardId"],
  ),
);
export type WordPressPinsBody = v.InferOutput<typeof WordPressPinsBody>;

export const WordPressBoardsParam = v.object({
  username: v.pipe(v.string("username is required"), v.trim(), v.nonEmpty("username is required"), v.maxLength(100, "username is too long")),
});

/** One pin made from the post. */
export interface WordPressPin {
  title: string;
  description: string;
  url: string;
  /** The template it was drawn with. */
  templateName: string;
  /** Queued pins only: the full-size image (paid by the pin's credit), the pin's id and when it posts. */
  imageURL?: string;
  scheduledPinId?: string;
  scheduledTime?: string;
}

export interface WordPressPinsResponse {
  destination: "draft" | "queue";
  pins: WordPressPin[];
  /** Draft: the draft's id and name, and where to open it. */
  draft?: { draftId: string; name: string; openUrl: string };
  /** Queue: the profile and board, and the credits this request charged (0 on a replay). */
  pinterestProfileUsername?: string;
  boardId?: string;
  /** Queue: pins refused on their own (the rest were queued). */
  notQueued?: { title: string; error: string }[];
  creditsCharged: number;
}

/** GET /api/wordpress/account: who the key belongs to and where it can queue pins. */
export interface WordPressAccountResponse {
  handle: string;
  firstName: string;
  pinterestProfiles: { username: string; isActive: boolean; status: string }[];
  activeDesignSettings: string;
}

/** GET /api/wordpress/boards/:username */
export interface WordPressBoardsResponse {
  boards: { id: string; name: string }[];
}
