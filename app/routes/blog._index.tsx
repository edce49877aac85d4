import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { blogPage } from "../../workers/services/content/content.ts";
import { PostCard } from "../components/content/content-view.tsx";
import { canonicalUrl, seoMeta } from "../lib/seo.ts";
import contentStyles from "../styles/content.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

/** /blog?page=n: published posts, newest first, rendered on the server. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const env = context.cloudflare.env;
  const requested = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const listing = await blogPage(env, Number.isFinite(requested) ? requested : 1);
  const path = listing.page > 1 ? `/blog?page=${listing.page}` : "/blog";
  return { ...listing, canonical: canonicalUrl(env.APP_URL, path) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  seoMeta({
    title: data && data.page > 1 ? `Blog, page ${data.page} | Pinboard Studio` : "Blog: Pinterest marketing guides | Pinboard Studio",
    description: "Practical guides to Pinterest marketing for bloggers, shop owners and affiliate marketers: SEO, pin design, scheduling and more.",
    url: data?.canonical ?? "/blog",
  });

export default function BlogPage() {
  const { posts, page, pages } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <h1>Blog</h1>
      <p className="lead">Practical guides to growing your traffic and sales with Pinterest.</p>
      {posts.length === 0 ? (
        <p>No posts yet. Come back soon.</p>
      ) : (
        <ul className="blog-list">
          {posts.map((post) => (
            <li key={post.slug}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav className="pager" aria-label="Blog pages">
          {page > 1 ? (
            <Link className="button button--ghost" to={page === 2 ? "/blog" : `/blog?page=${page - 1}`} rel="prev">
              Newer posts
            </Link>
          ) : (
            <span />
          )}
          <span className="muted">{`Page ${page} of ${pages}`}</span>
          {page < pages ? (
            <Link className="button button--ghost" to={`/blog?page=${page + 1}`} rel="next">
              Older posts
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </main>
  );
}
