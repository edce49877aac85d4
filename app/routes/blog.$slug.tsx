import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ContentBody, isoDate, PostCard, publishedDate } from "../components/content/content-view.tsx";
import { NotFound } from "../components/not-found.tsx";
import { loadContent } from "../lib/content.server.ts";
import { canonicalUrl, seoMeta } from "../lib/seo.ts";
import contentStyles from "../styles/content.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

/** /blog/:slug: the post rendered on the server, with related posts; an unknown or unpublished slug is the not-found view with status 404. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const found = await loadContent(context, "post", params.slug);
  if (!found) return data({ found: false as const }, { status: 404 });
  const origin = context.cloudflare.env.APP_URL;
  return {
    found: true as const,
    post: found.entry,
    related: found.related,
    canonical: canonicalUrl(origin, `/blog/${found.entry.slug}`),
    image: found.entry.coverImage ? canonicalUrl(origin, found.entry.coverImage) : null,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => {
  if (!loaded?.found) return [{ title: "Page Not Found | Pinboard Studio" }, { name: "robots", content: "noindex" }];
  return seoMeta({
    title: `${loaded.post.title} | Pinboard Studio`,
    description: loaded.post.description,
    url: loaded.canonical,
    type: "article",
    image: loaded.image,
    imageAlt: loaded.post.coverAlt,
    publishedTime: new Date(loaded.post.publishedAt).toISOString(),
    modifiedTime: new Date(loaded.post.updatedAt).toISOString(),
  });
};

export default function BlogPostPage() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.found) return <NotFound />;
  const { post, related } = loaded;
  return (
    <main className="page">
      <article className="article">
        <p>
          <Link to="/blog">← All posts</Link>
        </p>
        <h1>{post.title}</h1>
        <p className="article__meta">
          <time dateTime={isoDate(post.publishedAt)}>{publishedDate(post.publishedAt)}</time> · {post.author} · {post.readingMinutes} min read
        </p>
        {post.coverImage ? <img className="article__cover" src={post.coverImage} alt={post.coverAlt ?? ""} width={1200} height={630} /> : null}
        <ContentBody html={post.html} />
      </article>
      {related.length > 0 ? (
        <section className="related" aria-labelledby="related-title">
          <h2 id="related-title">Related posts</h2>
          <ul className="blog-list">
            {related.map((item) => (
              <li key={item.slug}>
                <PostCard post={item} headingLevel={3} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
