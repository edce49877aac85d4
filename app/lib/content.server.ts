import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ContentSummary, PublicContent } from "../../contracts/content/content.ts";
import { ServiceError } from "../../workers/services/core/errors.ts";
import { publishedPage, publishedPost, relatedPosts } from "../../workers/services/content/content.ts";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A published post (with related posts) or page for its page's loader; null when there is none (the not-found view, 404). */
export async function loadContent(
  context: AppLoadContext,
  kind: "post" | "page",
  slug: string | undefined,
): Promise<{ entry: PublicContent; related: ContentSummary[] } | null> {
  if (!slug || slug.length > 120 || !SLUG.test(slug)) return null;
  const env = context.cloudflare.env;
  try {
    if (kind === "page") return { entry: await publishedPage(env, slug), related: [] };
    const [entry, related] = await Promise.all([publishedPost(env, slug), relatedPosts(env, slug)]);
    return { entry, related };
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return null;
    throw error;
  }
}
