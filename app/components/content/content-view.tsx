import { Link } from "@remix-run/react";
import type { ContentSummary } from "../../../contracts/content/content.ts";

/** A publication date as a calendar date ("6 October 2026"), the same on the server and in every browser. */
export function publishedDate(ms: number): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(ms);
}

/** ISO date for <time dateTime>. */
export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The rendered Markdown of a post or page. The HTML comes from the server's
 * one renderer (workers/content/markdown.ts: raw HTML escaped, unsafe links
 * dropped), so it is safe to insert; the admin's preview shows it through this
 * same component, exactly as published.
 */
export function ContentBody({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's one Markdown renderer made this HTML safe (above).
  return <div className="content-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A post in a list: the blog and related posts. */
export function PostCard({ post, headingLevel = 2 }: { post: ContentSummary; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="card post-card">
      {post.coverImage ? (
        <img className="post-card__cover" src={post.coverImage} alt={post.coverAlt ?? ""} loading="lazy" width={600} height={315} />
      ) : (
        // A post without a cover still has one the index can line up (issue 40 point 10): its initial on the brand colour.
        <div className="post-card__cover post-card__cover--none" aria-hidden="true">
          {post.title.trim().charAt(0).toUpperCase()}
        </div>
      )}
      <Heading className="post-card__title">
        <Link to={`/blog/${post.slug}`}>{post.title}</Link>
      </Heading>
      <p className="muted small">
        <time dateTime={isoDate(post.publishedAt)}>{publishedDate(post.publishedAt)}</time> · {post.author}
      </p>
      <p>{post.description}</p>
    </article>
  );
}
