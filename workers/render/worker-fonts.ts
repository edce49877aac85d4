import type { Env } from "../env.ts";
import { MAX_SFNT_BYTES, unpackWoff } from "../media/fonts.ts";
import { MEDIA_PATH_PREFIX } from "../media/store.ts";
import { FontLoader, FONTS_PATH } from "./fonts.ts";

let loader: FontLoader | null = null;

/**
 * The worker's font loader: bundled fonts come from the static assets, and
 * uploaded fonts from the media library in R2 (no network). Any other URL is
 * refused, so a post cannot make the worker fetch arbitrary addresses; the
 * loader then falls back to the sans-serif font. One per isolate, so each
 * font is fetched and parsed once.
 */
export function workerFontLoader(env: Pick<Env, "ASSETS" | "MEDIA" | "APP_URL">): FontLoader {
  loader ??= new FontLoader({
    unpack: unpackWoff,
    async fetchFont(url, signal) {
      if (url.startsWith(FONTS_PATH)) {
        const response = await env.ASSETS.fetch(new Request(`https://assets.invalid${url}`, { signal }));
        if (!response.ok) throw new Error(`font ${url} answered ${response.status}`);
        return response.arrayBuffer();
      }
      const ownMedia = new URL(MEDIA_PATH_PREFIX, env.APP_URL).toString();
      if (!url.startsWith(ownMedia)) throw new Error(`font ${url} is not in the media library`);
      const key = decodeURIComponent(new URL(url).pathname.slice(MEDIA_PATH_PREFIX.length));
      const object = await env.MEDIA.get(key);
      if (!object) throw new Error(`font ${url} does not exist`);
      if (object.size > MAX_SFNT_BYTES) {
        await object.body.cancel();
        throw new Error(`font ${url} is too large`);
      }
      return object.arrayBuffer();
    },
  });
  return loader;
}
