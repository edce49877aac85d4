import type { Env } from "../env.ts";

/** Media objects are addressed by key under /media/; their keys carry random parts, so URLs are not guessable. */
export const MEDIA_PATH_PREFIX = "/media/";

/** Keys of everything a user owns in R2 start with this. */
export function userMediaPrefix(userId: string) {
  return `users/${userId}/`;
}

export function mediaUrl(appUrl: string, key: string) {
  return new URL(MEDIA_PATH_PREFIX + key.split("/").map(encodeURIComponent).join("/"), appUrl).toString();
}

export async function putMedia(
  env: Pick<Env, "MEDIA">,
  key: string,
  body: ReadableStream | ArrayBuffer | ArrayBufferView | string | Blob,
  contentType: string,
) {
  return env.MEDIA.put(key, body, { httpMetadata: { contentType, cacheControl: "public, max-age=31536000, immutable" } });
}

/** Serves one media object with long cache headers, answering 304 to a matching If-None-Match. */
export async function serveMedia(env: Pick<Env, "MEDIA">, key: string, request: Request): Promise<Response> {
  const object = await env.MEDIA.get(key, { onlyIf: request.headers });
  if (!object) return new Response("Not found", { status: 404 });
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("etag", object.httpEtag);
  if (!headers.has("cache-control")) headers.set("cache-control", "public, max-age=31536000, immutable");
  if (!("body" in object)) return new Response(null, { status: 304, headers });
  if (request.method === "HEAD") return new Response(null, { headers: { ...Object.fromEntries(headers), "content-length": String(object.size) } });
  return new Response(object.body, { headers });
}

/** The media key an address of ours points at (absolute on APP_URL, or a /media/ path), else null. */
export function mediaKeyOf(appUrl: string, address: string): string | null {
  let url: URL;
  try {
    url = new URL(address, appUrl);
  } catch {
    return null;
  }
  if (url.origin !== new URL(appUrl).origin || !url.pathname.startsWith(MEDIA_PATH_PREFIX)) return null;
  try {
    return decodeURIComponent(url.pathname.slice(MEDIA_PATH_PREFIX.length));
  } catch {
    return null;
  }
}
