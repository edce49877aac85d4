import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { publishedEntries } from "../../workers/services/content/content.ts";
import { canonicalUrl, escapeXml, PUBLIC_PAGES } from "../lib/seo.ts";

/** /sitemap.xml: every public page, every published blog post and page (never a draft). */
export async function loader({ context }: LoaderFunctionArgs) {
  const env = context.cloudflare.env;
  const origin = env.APP_URL;
  const entries = await publishedEntries(env);
  const urls = [
    ...PUBLIC_PAGES.map((path) => ({ loc: canonicalUrl(origin, path), lastmod: null as string | null })),
    ...entries.map((entry) => ({
      loc: canonicalUrl(origin, `${entry.kind === "post" ? "/blog/" : "/page/"}${entry.slug}`),
      lastmod: new Date(entry.updatedAt).toISOString().slice(0, 10),
    })),
  ];
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.map((url) => `  <url><loc>${escapeXml(url.loc)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ""}</url>`).join("\n") +
    "\n</urlset>\n";
  return new Response(body, { headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=300" } });
}
