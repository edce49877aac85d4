import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ContentBody, publishedDate } from "../components/content/content-view.tsx";
import { NotFound } from "../components/not-found.tsx";
import { loadContent } from "../lib/content.server.ts";
import { canonicalUrl, seoMeta } from "../lib/seo.ts";
import contentStyles from "../styles/content.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

/** /page/:slug: a content page rendered on the server; an unknown or unpublished slug is the not-found view with status 404. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const found = await loadContent(context, "page", params.slug);
  if (!found) return data({ found: false as const }, { status: 404 });
  const origin = context.cloudflare.env.APP_URL;
  return {
    found: true as const,
    page: found.entry,
    canonical: canonicalUrl(origin, `/page/${found.entry.slug}`),
    image: found.entry.coverImage ? canonicalUrl(origin, found.entry.coverImage) : null,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => {
  if (!loaded?.found) return [{ title: "Page Not Found | Pinboard Studio" }, { name: "robots", content: "noindex" }];
  return seoMeta({
    title: `${loaded.page.title} | Pinboard Studio`,
    description: loaded.page.description,
    url: loaded.canonical,
    image: loaded.image,
    imageAlt: loaded.page.coverAlt,
  });
};

export default function ContentPage() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.found) return <NotFound />;
  const { page } = loaded;
  return (
    <main className="page">
      <article className="article">
        <h1>{page.title}</h1>
        <ContentBody html={page.html} />
        <p className="muted small">Last updated: {publishedDate(page.updatedAt)}</p>
      </article>
    </main>
  );
}
