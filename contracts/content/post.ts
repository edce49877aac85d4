import * as v from "valibot";
import { plainText } from "../fields.ts";
import { RgbaColor } from "./design-settings.ts";
import { PinOrigin } from "../pinterest/analytics.ts";
import { TemplateDesign } from "./template.ts";

/**
 * A post (pin draft) in the generator grid (spec section 3, Post): the copy,
 * its images, the template copy it is drawn with and its flags. Drafts store
 * lists of these.
 */

const text = (field: string, max: number) => v.optional(v.pipe(v.string(`${field} must be text`), plainText, v.maxLength(max, `${field} is too long`)), "");
const flag = () => v.optional(v.boolean(), false);

export const SelectedBoard = v.object({
  boardId: v.pipe(v.string(), v.maxLength(64)),
  boardName: text("boardName", 200),
  sectionId: v.optional(v.pipe(v.string(), v.maxLength(64))),
  pinterestProfileUsername: text("pinterestProfileUsername", 100),
});

export const Post = v.object({
  id: v.pipe(v.string("id is required"), v.minLength(1), v.maxLength(64)),
  /** The id of the template the post is drawn with. */
  templateType: text("templateType", 64),
  colorIndex: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(23)), 1),
  color: v.optional(RgbaColor, { r: 81, g: 195, b: 166, a: 1 }),
  title: text("title", 500),
  /** When the source was published, as given by the source. */
  date: text("date", 64),
  description: text("description", 2000),
  altText: text("altText", 500),
  allImages: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(2048))), v.maxLength(40)), []),
  /** Images chosen for this post's image layers, in slot order. */
  selectedImages: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(2048))), v.maxLength(40)), []),
  url: text("url", 2048),
  URLText: text("URLText", 200),
  brandName: text("brandName", 100),
  logoImage: text("logoImage", 2048),
  price: text("price", 40),
  /** The source's list items, for list lines (issue 13). */
  listItems: v.optional(v.pipe(v.array(v.pipe(v.string(), plainText, v.maxLength(200))), v.maxLength(30)), []),
  /** The source's quotation, for quote templates. */
  quote: text("quote", 500),
  /** The source's video, for video templates. */
  video: text("video", 2048),
  /** The source's before and after pictures, for before-and-after templates. */
  comparison: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(2048))), v.maxLength(2)), []),
  fontFamily: text("fontFamily", 80),
  fontUrl: text("fontUrl", 2048),
  fontColor: text("fontColor", 9),
  useUpperCaseFont: v.optional(v.boolean(), true),
  fixLowContrastText: v.optional(v.boolean(), true),
  /** The template copy (with layers) the post is drawn with. */
  template: v.optional(TemplateDesign),
  textDesignOverrides: v.optional(v.record(v.pipe(v.string(), v.maxLength(64)), v.record(v.string(), v.unknown())), {}),
  imageDesignOverrides: v.optional(v.record(v.pipe(v.string(), v.maxLength(64)), v.record(v.string(), v.unknown())), {}),
  /** What made the pin (template and source), sent with it when it is scheduled (issue 41's analytics). */
  origin: v.optional(PinOrigin),
  fileName: text("fileName", 120),
  selectedBoards: v.optional(v.pipe(v.array(SelectedBoard), v.maxLength(50)), []),
  isLocked: flag(),
  isScheduling: flag(),
  isScheduled: flag(),
  isDownloading: flag(),
  isDownloaded: flag(),
  isPinning: flag(),
  isPinned: flag(),
  error: text("error", 500),
});
export type Post = v.InferOutput<typeof Post>;
export type PostInput = v.InferInput<typeof Post>;

/** How many posts a draft (and a generation) may hold. */
export const MAX_POSTS = 200;
export const PostList = v.pipe(v.array(Post, "posts must be a list"), v.maxLength(MAX_POSTS, `posts may hold at most ${MAX_POSTS} posts`));
