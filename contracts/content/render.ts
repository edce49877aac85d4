import * as v from "valibot";
import { body, IdempotencyReference, plainLine } from "../fields.ts";
import { PostContent, TemplateDesign } from "./template.ts";

/**
 * What a full-size render is for. A download is charged one image credit when
 * it is rendered; a render for scheduling costs nothing until the schedule
 * that uses it charges the pin's credit, and its image is not served before.
 */
export const RENDER_PURPOSES = ["download", "schedule"] as const;
export type RenderPurpose = (typeof RENDER_PURPOSES)[number];

/**
 * POST /highMemLimitApi/scraping/renderTemplateImage {post}: a post with its
 * template copy; `purpose` (default download) and an idempotency key
 * `reference` (or the Idempotency-Key header): a replay answers the same
 * image without rendering or charging again.
 */
export const RenderTemplateImageBody = body({
  post: v.object({
    ...PostContent.entries,
    template: TemplateDesign,
    fileName: v.optional(v.pipe(v.string(), plainLine, v.maxLength(100))),
    /** The page the pin links to (for the download's history row). */
    url: v.optional(v.pipe(v.string(), v.maxLength(2048)), ""),
    bypassResize: v.optional(v.boolean()),
  }),
  purpose: v.optional(v.picklist(RENDER_PURPOSES, "purpose must be download or schedule"), "download"),
  reference: v.optional(IdempotencyReference),
});
export type RenderTemplateImageBody = v.InferInput<typeof RenderTemplateImageBody>;

/** The answer of renderTemplateImage. */
export interface RenderedPin {
  url: string;
  imageURL: string;
  fileName: string;
  width: number;
  height: number;
  purpose: RenderPurpose;
  /** Credits this request charged (a download: 1, its replay and a render for scheduling: 0). */
  creditsCharged: number;
}
