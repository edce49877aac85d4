import * as v from "valibot";
import { body } from "./fields.ts";
import { PostContent, TemplateDesign } from "./template.ts";

/** POST /highMemLimitApi/scraping/renderTemplateImage {post}: a post with its template copy. */
export const RenderTemplateImageBody = body({
  post: v.object({
    ...PostContent.entries,
    template: TemplateDesign,
    fileName: v.optional(v.pipe(v.string(), v.maxLength(100))),
    bypassResize: v.optional(v.boolean()),
  }),
});
export type RenderTemplateImageBody = v.InferInput<typeof RenderTemplateImageBody>;
