/**
 * A path of this site to send a visitor back to, normalised the way a browser
 * would read it; null for anything that could leave the site: another origin,
 * a protocol-relative path ("//x", "/.//x", "/%2e//x" all normalise to "//x"),
 * a backslash (browsers read "\" as "/"), or control characters.
 */
export function sameSitePath(value: string, origin: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a path with control characters in it is refused (see above).
  if (!value.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin || url.pathname.startsWith("//")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
