import type { ImageCandidate } from "./images.ts";
import { resolveWebUrl as resolve } from "./url.ts";
import { asList, asNode, attributeOf, parseXml, textOf, type XmlNode, type XmlValue } from "./xml.ts";

/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom feeds read into plain items. Pure: the
 * item's HTML (description, content) is handed on raw, for the worker to turn
 * into text and images with HTMLRewriter (feed-source.ts).
 */

/** At most this many items of a feed become sources (a generation holds up to 200 posts). */
export const MAX_FEED_ITEMS = 200;

export interface FeedItem {
  title: string;
  /** Absolute link of the item ("" when it has none). */
  link: string;
  /** Summary or description, as HTML. */
  summaryHtml: string;
  /** Full content (content:encoded, Atom content), as HTML. */
  contentHtml: string;
  /** As written in the feed (pubDate, published, updated, dc:date). */
  date: string;
  /** media:content, media:thumbnail, enclosures and itunes:image, in that order. */
  images: ImageCandidate[];
}

export interface ParsedFeed {
  format: "rss" | "atom" | "rdf";
  title: string;
  /** The site the feed belongs to. */
  siteUrl: string;
  items: FeedItem[];
}

const isImageType = (type: string) => !type || type.toLowerCase().startsWith("image/");

/** Images named by Media RSS, enclosures and iTunes tags of an item (or a media:group inside it). */
function itemImages(item: XmlNode): ImageCandidate[] {
  const images: ImageCandidate[] = [];
  const fromMedia = (node: XmlNode) => {
    for (const content of asList(node["media:content"])) {
      const medium = attributeOf(content, "medium");
      const type = attributeOf(content, "type");
      if ((medium && medium !== "image") || (!medium && !isImageType(type))) continue;
      const url = attributeOf(content, "url");
      if (url) images.push({ url, from: "meta", width: numberOf(attributeOf(content, "width")), height: numberOf(attributeOf(content, "height")) });
    }
    for (const thumbnail of asList(node["media:thumbnail"])) {
      const url = attributeOf(thumbnail, "url");
      if (url) images.push({ url, from: "meta", width: numberOf(attributeOf(thumbnail, "width")), height: numberOf(attributeOf(thumbnail, "height")) });
    }
  };
  fromMedia(item);
  for (const group of asList(item["media:group"])) {
    const node = asNode(group);
    if (node) fromMedia(node);
  }
  for (const enclosure of asList(item.enclosure)) {
    const url = attributeOf(enclosure, "url");
    if (url && attributeOf(enclosure, "type").toLowerCase().startsWith("image/")) images.push({ url, from: "meta" });
  }
  // Atom's <link rel="enclosure" type="image/...">.
  for (const link of asList(item.link)) {
    if (attributeOf(link, "rel") === "enclosure" && attributeOf(link, "type").toLowerCase().startsWith("image/")) {
      images.push({ url: attributeOf(link, "href"), from: "meta" });
    }
  }
  const itunes = attributeOf(item["itunes:image"], "href");
  if (itunes) images.push({ url: itunes, from: "meta" });
  return images;
}

function numberOf(text: string): number | undefined {
  const value = Number(text);
  return text && Number.isFinite(value) ? value : undefined;
}

/** Atom's alternate link (or the first link without a rel). */
function atomLink(links: XmlValue): string {
  const list = asList(links);
  const alternate =
    list.find((link) => attributeOf(link, "rel") === "alternate" && attributeOf(link, "type") !== "application/atom+xml") ??
    list.find((link) => !attributeOf(link, "rel")) ??
    list.find((link) => attributeOf(link, "rel") === "alternate");
  return alternate ? attributeOf(alternate, "href") || textOf(alternate) : "";
}

function rssItem(item: XmlNode, base: string): FeedItem {
  const guid = item.guid;
  const guidIsLink = attributeOf(guid, "isPermaLink") !== "false" && /^https?:\/\//i.test(textOf(guid));
  return {
    title: textOf(item.title),
    link: resolve(textOf(item.link) || atomLink(item["atom:link"]) || (guidIsLink ? textOf(guid) : ""), base),
    summaryHtml: textOf(item.description),
    contentHtml: textOf(item["content:encoded"]),
    date: textOf(item.pubDate) || textOf(item["dc:date"]) || textOf(item.published) || textOf(item.updated),
    images: itemImages(item),
  };
}

function atomEntry(entry: XmlNode, base: string): FeedItem {
  const entryBase = resolve(attributeOf(entry, "xml:base"), base) || base;
  return {
    title: textOf(entry.title),
    link: resolve(atomLink(entry.link), entryBase),
    summaryHtml: textOf(entry.summary),
    contentHtml: textOf(entry.content),
    date: textOf(entry.published) || textOf(entry.updated) || textOf(entry.issued) || textOf(entry.modified),
    images: itemImages(entry),
  };
}

/**
 * Reads a feed. `feedUrl` resolves relative links. Null when the text is not
 * an RSS, RDF or Atom feed.
 */
export function parseFeed(text: string, feedUrl: string): ParsedFeed | null {
  const xml = parseXml(text, { removeNamespaces: false });
  if (!xml) return null;
  const rss = asNode(xml.rss);
  if (rss) {
    const channel = asNode(rss.channel) ?? {};
    const siteUrl = resolve(textOf(channel.link) || atomLink(channel["atom:link"]), feedUrl);
    return {
      format: "rss",
      title: textOf(channel.title),
      siteUrl,
      items: asList(channel.item)
        .slice(0, MAX_FEED_ITEMS)
        .map((item) => rssItem(asNode(item) ?? {}, feedUrl)),
    };
  }
  const atom = asNode(xml.feed);
  if (atom) {
    const base = resolve(attributeOf(atom, "xml:base"), feedUrl) || feedUrl;
    return {
      format: "atom",
      title: textOf(atom.title),
      siteUrl: resolve(atomLink(atom.link), base),
      items: asList(atom.entry)
        .slice(0, MAX_FEED_ITEMS)
        .map((entry) => atomEntry(asNode(entry) ?? {}, base)),
    };
  }
  const rdf = asNode(xml["rdf:RDF"]);
  if (rdf) {
    const channel = asNode(rdf.channel) ?? {};
    return {
      format: "rdf",
      title: textOf(channel.title),
      siteUrl: resolve(textOf(channel.link), feedUrl),
      items: asList(rdf.item)
        .slice(0, MAX_FEED_ITEMS)
        .map((item) => rssItem(asNode(item) ?? {}, feedUrl)),
    };
  }
  return null;
}
