import * as v from "valibot";

/**
 * Blog posts and content pages (spec section 7, content; issue 17;
 * docs/decisions/039-content-in-d1.md): the public reads and the admin's calls.
 */

export const SLUG_MESSAGE = "slug must be 1-120 lower-case letters, digits and single dashes, such as pinterest-seo-basics";
const slug = v.pipe(v.string("slug is required"), v.trim(), v.maxLength(120, SLUG_MESSAGE), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, SLUG_MESSAGE));

/** GET /api/blogs/getBlogPost/{slug}, GET /api/blogs/getRelatedBlogPosts/{slug}, GET /api/pages/getPage/{slug} */
export const ContentSlugParam = v.object({ slug });

export const CONTENT_KINDS = ["post", "page"] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

const text = (field: string, max: number) =>
  v.pipe(v.string(`${field} is required`), v.trim(), v.nonEmpty(`${field} is required`), v.maxLength(max, `${field} must be at most ${max} characters`));

/** A cover picture: an https address or a path on this site (/media/..., /samples/...). */
const coverImage = v.nullish(
  v.pipe(
    v.string("coverImage must be an address"),
    v.trim(),
    v.maxLength(1000, "coverImage is too long"),
    v.check(
      (value) => value === "" || /^https:\/\/[^\s]+$/.test(value) || /^\/(?!\/)[^\s]*$/.test(value),
      "coverImage must be an https address or a path on this site",
    ),
    v.transform((value) => value || null),
  ),
);

/** POST /api/admin/content and PUT /api/admin/content/{id}: what the admin writes. */
export const ContentInput = v.object({
  kind: v.picklist(CONTENT_KINDS, "kind must be post or page"),
  slug,
  title: text("title", 200),
  description: text("description", 320),
  body: text("body", 100_000),
  coverImage,
  coverAlt: v.nullish(v.pipe(v.string("coverAlt must be text"), v.trim(), v.maxLength(300, "coverAlt must be at most 300 characters"))),
  author: text("author", 100),
});
export type ContentInput = v.InferOutput<typeof ContentInput>;

export const ContentIdParam = v.object({
  id: v.pipe(v.string("id is required"), v.regex(/^[A-Za-z0-9-]{1,64}$/, "id must name a post or page")),
});

/** POST /api/admin/content/{id}/publish */
export const PublishContentBody = v.object({ published: v.boolean("published must be true or false") });

/** POST /api/admin/content/preview: the Markdown rendered exactly as it will be published. */
export const PreviewContentBody = v.object({ body: v.pipe(v.string("body is required"), v.maxLength(100_000, "body must be at most 100000 characters")) });

/** GET /api/admin/content?kind= */
export const ContentListQuery = v.object({ kind: v.optional(v.picklist(CONTENT_KINDS, "kind must be post or page")) });

/** A published post or page as the public reads it. */
export interface PublicContent {
  slug: string;
  title: string;
  description: string;
  /** The Markdown rendered to sanitised HTML, blog links rewritten. */
  html: string;
  coverImage: string | null;
  coverAlt: string | null;
  author: string;
  /** Milliseconds since 1970. */
  publishedAt: number;
  updatedAt: number;
  readingMinutes: number;
}

/** A post in a list (blog, related posts). */
export interface ContentSummary {
  slug: string;
  title: string;
  description: string;
  coverImage: string | null;
  coverAlt: string | null;
  author: string;
  publishedAt: number;
}

/** A post or page as the admin edits it (drafts included). */
export interface AdminContent {
  id: string;
  kind: ContentKind;
  slug: string;
  title: string;
  description: string;
  body: string;
  coverImage: string | null;
  coverAlt: string | null;
  author: string;
  status: "draft" | "published";
  publishedAt: number | null;
  updatedAt: number;
}

export const CONTENT_NOT_FOUND = "This post or page does not exist.";
export const CONTENT_ADMINS_ONLY = "Only admins can manage blog posts and pages.";
export const BLOG_PAGE_SIZE = 9;
