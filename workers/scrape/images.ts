import { decodedUrlPart, pictureKey } from "../domain/picture-identity.ts";

/**
 * Which of a page's (or feed item's) images are worth making a pin from, best
 * first: the images the page names for sharing (og:image, twitter:image),
 * then the article's own images, then the rest of the page. Icons, tracking
 * pixels, tiny images, data: URIs, SVG (icons and sprites) and duplicates are
 * skipped. Pure: takes what the reader saw, answers absolute URLs.
 */

export type ImageOrigin = "meta" | "article" | "page";

export interface ImageCandidate {
  /** As written in the markup: may be relative. */
  url: string;
  from: ImageOrigin;
  /** Declared size (attributes, og:image:width), when given. */
  width?: number;
  height?: number;
  /** The alt text, raw as written. */
  alt?: string;
}

/** Images with a declared side under this many pixels are icons, avatars or pixels. */
export const MIN_IMAGE_SIDE = 100;
/** At most this many images per source (a post holds up to 40). */
export const MAX_IMAGES = 40;

const RANK: Record<ImageOrigin, number> = { meta: 0, article: 1, page: 2 };

const ICON = /(^|[/_.-])(favicon|apple-touch-icon|android-chrome|mstile|safari-pinned-tab)[^/]*$|\/icons?\/|\/sprites?\/|(^|[/_.-])sprites?\.[a-z]+$/i;
const TRACKER_FILE = /(^|[/_.-])(pixel|spacer|blank|transparent|clear|tracking|tracker|beacon|1x1)\.(gif|png|jpe?g|webp)$/i;
const TRACKER_HOST =
  /(^|\.)(pixel\.wp\.com|stats\.wp\.com|google-analytics\.com|googletagmanager\.com|doubleclick\.net|facebook\.com|bat\.bing\.com|analytics\.twitter\.com|px\.ads\.linkedin\.com|ct\.pinterest\.com|quantserve\.com|scorecardresearch\.com)$/i;
const AVATAR_HOST = /(^|\.)gravatar\.com$/i;
/** WordPress-style size suffixes ("photo-150x100.jpg") and the "-scaled" original. */
const SIZE_SUFFIX = /-(\d{1,4})x(\d{1,4})(?=\.[a-z0-9]+$)/i;

/** A declared dimension ("640", "640px"); undefined for percentages and nonsense. */
export function parseDimension(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(value);
  return match ? Number(match[1]) : undefined;
}

/**
 * The best candidate of a srcset: the widest "w" descriptor, else the highest
 * density, else the first. Parsed as the HTML standard describes (URLs may
 * contain commas; descriptors follow whitespace).
 */
export function largestFromSrcset(srcset: string): string | undefined {
  const candidates: { url: string; score: number }[] = [];
  let i = 0;
  const s = srcset;
  while (i < s.length) {
    while (i < s.length && /[\s,]/.test(s[i]!)) i += 1;
    if (i >= s.length) break;
    let start = i;
    while (i < s.length && !/\s/.test(s[i]!)) i += 1;
    let url = s.slice(start, i);
    let descriptor = "";
    if (url.endsWith(",")) {
      url = url.replace(/,+$/, "");
    } else {
      start = i;
      let depth = 0;
      while (i < s.length && (s[i] !== "," || depth > 0)) {
        if (s[i] === "(") depth += 1;
        if (s[i] === ")") depth -= 1;
        i += 1;
      }
      descriptor = s.slice(start, i).trim();
    }
    if (!url) continue;
    const w = /^(\d+)w$/i.exec(descriptor);
    const x = /^(\d+(?:\.\d+)?)x$/i.exec(descriptor);
    candidates.push({ url, score: w ? Number(w[1]) : x ? Number(x[1]) * 1000 : 0 });
  }
  if (candidates.length === 0) return undefined;
  return candidates.reduce((best, c) => (c.score > best.score ? c : best)).url;
}

/** Resolves a candidate against the page; null unless it is an http(s) URL. */
export function resolveImageUrl(raw: string, base: string): URL | null {
  const text = raw.trim();
  if (!text || /^(data|blob|javascript|about):/i.test(text)) return null;
  try {
    const url = new URL(text, base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url;
  } catch {
    return null;
  }
}

/** Why an image is not worth using, or null when it is. */
export function imageRejection(url: URL, candidate: Pick<ImageCandidate, "width" | "height">): string | null {
  const path = decodedUrlPart(url.pathname);
  if (/\.svgz?$/i.test(path) || /[?&](format|fm)=svg\b/i.test(url.search)) return "svg";
  if (ICON.test(path)) return "icon";
  if (TRACKER_FILE.test(path) || TRACKER_HOST.test(url.hostname)) return "tracking pixel";
  if (AVATAR_HOST.test(url.hostname)) return "avatar";
  if (candidate.width !== undefined && candidate.width < MIN_IMAGE_SIDE) return "tiny";
  if (candidate.height !== undefined && candidate.height < MIN_IMAGE_SIDE) return "tiny";
  const named = SIZE_SUFFIX.exec(path);
  if (named && (Number(named[1]) < MIN_IMAGE_SIDE || Number(named[2]) < MIN_IMAGE_SIDE)) return "tiny";
  return null;
}

/** One key for the sizes, crops and formats of one picture (decision 023). */
export function imageKey(url: URL): string {
  return pictureKey(url.href);
}

/**
 * The images worth using, best first, as absolute URLs. `exclude` lists URLs
 * known to be page furniture (icon links).
 */
export function chooseImages(candidates: readonly ImageCandidate[], base: string, exclude: readonly string[] = []): string[] {
  const excluded = new Set(
    exclude
      .map((raw) => resolveImageUrl(raw, base))
      .filter((u): u is URL => u !== null)
      .map(imageKey),
  );
  const ranked = candidates
    .map((candidate, index) => ({ candidate, index }))
    .sort((a, b) => RANK[a.candidate.from] - RANK[b.candidate.from] || a.index - b.index);
  const seen = new Set<string>();
  const chosen: string[] = [];
  for (const { candidate } of ranked) {
    const url = resolveImageUrl(candidate.url, base);
    if (!url) continue;
    const key = imageKey(url);
    if (seen.has(key) || excluded.has(key)) continue;
    if (imageRejection(url, candidate)) continue;
    seen.add(key);
    chosen.push(url.href);
    if (chosen.length >= MAX_IMAGES) break;
  }
  return chosen;
}
