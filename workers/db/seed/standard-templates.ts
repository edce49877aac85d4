import { BEFORE_AFTER_TEMPLATES } from "./templates/before-after.ts";
import { COLLAGE_TEMPLATES } from "./templates/collage.ts";
import { FULL_BLEED_TEMPLATES } from "./templates/full-bleed.ts";
import type { StandardTemplateSeed } from "./templates/kit.ts";
import { LIST_TEMPLATES } from "./templates/list.ts";
import { PRODUCT_TEMPLATES } from "./templates/product.ts";
import { QUOTE_TEMPLATES } from "./templates/quote.ts";
import { SPLIT_TEMPLATES } from "./templates/split.ts";
import { TEXT_ONLY_TEMPLATES } from "./templates/text-only.ts";
import { VIDEO_TEMPLATES } from "./templates/video.ts";

export type { StandardTemplateSeed } from "./templates/kit.ts";

/**
 * The standard templates (spec: more than 100), seeded for every user. Each
 * is data in templates/<family>.ts, written with the small builders of
 * templates/kit.ts. Ids are stable slugs that favourites and saved pins refer
 * to: never rename one, and give a new design a new id.
 */
export const STANDARD_TEMPLATES: StandardTemplateSeed[] = [
  ...FULL_BLEED_TEMPLATES,
  ...SPLIT_TEMPLATES,
  ...COLLAGE_TEMPLATES,
  ...TEXT_ONLY_TEMPLATES,
  ...LIST_TEMPLATES,
  ...PRODUCT_TEMPLATES,
  ...QUOTE_TEMPLATES,
  ...BEFORE_AFTER_TEMPLATES,
  ...VIDEO_TEMPLATES,
];
