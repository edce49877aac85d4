import type { Post } from "../../../contracts/content/post.ts";
import type { PostContent } from "../../../contracts/content/template.ts";
import { postContent } from "../../../workers/domain/generate.ts";

/**
 * The browser draws previews with satori, which reads every picture's bytes
 * to embed it in the SVG. Pictures on other sites rarely allow that (CORS), so
 * previews take them through our own origin's image proxy; the server-side
 * render fetches the original URLs itself.
 */
export const IMAGE_PROXY_PATH = "/api/scraping/imageProxy";

export function previewImageUrl(url: string, origin: string): string {
  if (!/^https?:\/\//i.test(url)) return url;
  const parsed = new URL(url);
  if (parsed.origin === origin) return parsed.pathname + parsed.search;
  // Full size: the preview engine downscales in the browser (app/lib/pin-preview.ts), sparing the server the work.
  return `${IMAGE_PROXY_PATH}?url=${encodeURIComponent(url)}`;
}

/** What the preview draws for a post: the same content as the download, pictures reachable from this page. */
export function previewContent(post: Post, origin: string): PostContent {
  const content = postContent(post);
  const map = (url: string) => previewImageUrl(url, origin);
  return {
    ...content,
    allImages: content.allImages?.map(map),
    uploadedImages: content.uploadedImages?.map(map),
    ...(content.logoImage ? { logoImage: map(content.logoImage) } : {}),
  };
}
