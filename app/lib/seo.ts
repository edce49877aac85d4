import type { MetaDescriptor } from "@remix-run/cloudflare";
import { escapeHtml } from "../../contracts/html.ts";

/** The public pages a search engine should find (besides published posts and pages): listed in /sitemap.xml. */
export const PUBLIC_PAGES = [
  "/",
  "/pricing",
  "/lifetime",
  "/blog",
  "/help",
  "/affiliate",
  "/email-signup",
  "/signup",
  "/login",
  "/privacy-policy",
  "/terms-and-conditions",
  "/contact",
  "/pinterest-mini-course",
  "/savings-calculator",
  "/pinterest-keyword-research-tool",
];

export const SITE_NAME = "Pinboard Studio";

/** An absolute address on the site's canonical origin (APP_URL). */
export function canonicalUrl(origin: string, path: string): string {
  return new URL(path, origin).toString();
}

interface PageMeta {
  title: string;
  description: string;
  /** The canonical absolute address. */
  url: string;
  type?: "website" | "article";
  image?: string | null;
  imageAlt?: string | null;
  publishedTime?: string;
  modifiedTime?: string;
}

/** Title, description, canonical link, Open Graph and Twitter tags for a public page. */
export function seoMeta(page: PageMeta): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: page.url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: page.url },
    { name: "twitter:card", content: page.image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: page.title },
    { name: "twitter:description", content: page.description },
  ];
  if (page.image) {
    tags.push({ property: "og:image", content: page.image }, { name: "twitter:image", content: page.image });
    if (page.imageAlt) tags.push({ property: "og:image:alt", content: page.imageAlt }, { name: "twitter:image:alt", content: page.imageAlt });
  }
  if (page.publishedTime) tags.push({ property: "article:published_time", content: page.publishedTime });
  if (page.modifiedTime) tags.push({ property: "article:modified_time", content: page.modifiedTime });
  return tags;
}

/** Text in the sitemap's XML: the one escape (`&#39;` for `'` reads in XML as in HTML). */
export const escapeXml = escapeHtml;
