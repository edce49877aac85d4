/**
 * When two picture URLs show the same photo (decision 023): the same file at
 * another size, crop, format or CDN address. Pure and isomorphic: the scraper
 * uses it to drop a page's duplicates, the generator to count a post's
 * different pictures and never to put one photo in two boxes of a pin.
 */

/** WordPress size variants ("-300x200"), its "-scaled"/"-rotated" originals and edited copies ("-e1712345678901"). */
const WORDPRESS_SUFFIX = /(?:-\d{1,5}x\d{1,5}|-scaled|-rotated|-e\d{10,13})+$/;
/** Retina copies ("photo@2x"). */
const DENSITY_SUFFIX = /@\d(?:\.\d+)?x$/;
/** Shopify size and crop variants ("_600x", "_600x400", "_x400", "_grande", "_600x400_crop_center"). */
const SHOPIFY_SUFFIX = /(?:_(?:\d{1,5}x\d{0,5}|x\d{1,5}|pico|icon|thumb|small|compact|medium|large|grande|original|master)(?:@\d+x)?(?:_crop_[a-z]+)?)+$/;
/** Raster formats one CDN may serve the same photo in. */
const RASTER_EXTENSION = /\.(?:jpe?g|png|webp|avif|gif|jfif)$/;
/** Query parameters that only choose a size, crop, format, quality or cache version. */
const RENDITION_PARAMETERS = new Set([
  "w",
  "h",
  "width",
  "height",
  "resize",
  "fit",
  "crop",
  "quality",
  "q",
  "format",
  "fm",
  "auto",
  "dpr",
  "strip",
  "zoom",
  "ssl",
  "size",
  "scale",
  "v",
  "ver",
  "version",
  "itok",
  "cb",
  "rect",
  "ixlib",
  "cs",
  "lossless",
]);
/** Cloudinary-style transformation segments ("/upload/w_300,h_200,c_fill/"). */
const TRANSFORM_SEGMENT = /^(?:[a-z]{1,3}_[^/,]+)(?:,[a-z]{1,3}_[^/,]+)*$/;
/** Jetpack's image CDN puts the origin host in the path: i0.wp.com/example.com/wp-content/... */
const PHOTON_HOST = /^i\d\.wp\.com$/;

/** Percent-encoding undone; text that is not valid percent-encoding (a "%" not followed by a byte) as written. */
export function decodedUrlPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * One key per photo: lower-cased host without "www.", the path without size
 * suffixes, transformation segments and raster extension, and only the query
 * parameters that could name a different picture. Unparseable URLs are their
 * own key.
 */
export function pictureKey(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return raw.trim();
  }
  // Next.js' image optimiser: the picture is the `url` parameter.
  if (url.pathname.endsWith("/_next/image") && url.searchParams.get("url")) {
    try {
      return pictureKey(new URL(url.searchParams.get("url")!, url.origin).href);
    } catch {
      /* fall through */
    }
  }
  let host = url.hostname.toLowerCase().replace(/^www\./, "");
  let segments = url.pathname
    .split("/")
    .filter(Boolean)
    .map((segment) => decodedUrlPart(segment).toLowerCase());
  if (PHOTON_HOST.test(host) && segments.length > 1) {
    host = segments[0]!.replace(/^www\./, "");
    segments = segments.slice(1);
  }
  segments = segments.filter((segment, index) => index === segments.length - 1 || !TRANSFORM_SEGMENT.test(segment));
  const file = segments.pop() ?? "";
  const hasExtension = RASTER_EXTENSION.test(file);
  let stem = file.replace(RASTER_EXTENSION, "");
  if (hasExtension) {
    for (let i = 0; i < 3; i++) stem = stem.replace(DENSITY_SUFFIX, "").replace(WORDPRESS_SUFFIX, "").replace(SHOPIFY_SUFFIX, "");
  }
  const kept = [...url.searchParams.entries()]
    .filter(([name]) => !RENDITION_PARAMETERS.has(name.toLowerCase()))
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  return `${host}/${[...segments, stem || file].join("/")}${kept.length ? `?${kept.join("&")}` : ""}`;
}

/** The pictures in order with near-duplicates removed (the first of each photo stays). */
export function distinctPictures(urls: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const url of urls) {
    if (!url) continue;
    const key = pictureKey(url);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(url);
  }
  return kept;
}

/** Whether two URLs show the same photo. */
export function samePicture(a: string, b: string): boolean {
  return pictureKey(a) === pictureKey(b);
}
