import { XMLParser } from "fast-xml-parser";

/**
 * XML as plain objects (fast-xml-parser), configured once for feeds and
 * sitemaps: attributes kept under "@_", values kept as strings, CDATA merged
 * into text, entity expansion bounded (no "billion laughs").
 */

const ARRAY_TAGS = new Set(["item", "entry", "link", "url", "sitemap", "category", "enclosure", "media:content", "media:thumbnail", "media:group"]);

export function xmlParser(options: { removeNamespaces: boolean }) {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    textNodeName: "#text",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    removeNSPrefix: options.removeNamespaces,
    processEntities: { enabled: true, maxEntityCount: 100, maxTotalExpansions: 10_000, maxExpandedLength: 100_000 },
    htmlEntities: false,
    isArray: (name) => ARRAY_TAGS.has(name),
    // No element path as a string for each tag and value: it repeats every ancestor's name, so a 1 MB tag name
    // around a sitemap's elements took 17 s to parse (decision 078). Nothing here reads the path.
    jPath: false,
  });
}

export type XmlValue = string | XmlNode | XmlValue[] | undefined;
export interface XmlNode {
  [key: string]: XmlValue;
}

/** Parses XML; null when it is not XML at all. */
export function parseXml(text: string, options: { removeNamespaces: boolean }): XmlNode | null {
  if (!/^\s*(<\?xml|<!--|<!doctype|<[a-z_])/i.test(text.replace(/^\uFEFF/, ""))) return null;
  try {
    const parsed: unknown = xmlParser(options).parse(text);
    return parsed && typeof parsed === "object" ? (parsed as XmlNode) : null;
  } catch {
    return null;
  }
}

export function asList(value: XmlValue): XmlValue[] {
  if (value === undefined || value === "") return [];
  return Array.isArray(value) ? value : [value];
}

export function asNode(value: XmlValue): XmlNode | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first && typeof first === "object" && !Array.isArray(first) ? first : undefined;
}

/** The text of an element (its "#text" when it also has attributes); "" when none. */
export function textOf(value: XmlValue): string {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === "string") return first;
  if (first && typeof first === "object" && !Array.isArray(first)) {
    const text = first["#text"];
    return typeof text === "string" ? text : "";
  }
  return "";
}

export function attributeOf(value: XmlValue, name: string): string {
  const node = asNode(value);
  const attribute = node?.[`@_${name}`];
  return typeof attribute === "string" ? attribute : "";
}
