import type { Env } from "../env.ts";
import { MAX_SFNT_BYTES } from "../media/fonts.ts";
import { MEDIA_PATH_PREFIX } from "../media/store.ts";
import { bundledFontBytes } from "./bundled-font-files.ts";
import { FontLoader, FONTS_PATH } from "./fonts.ts";

let loader: FontLoader | null = null;

/**
 * The worker's font loader: bundled fonts come from the worker's own modules
 * (their sfnt, bundled-font-files.ts), and uploaded fonts from the media
 * library in R2 (no network). Any other URL is
 * refused, so a post cannot make the worker fetch arbitrary addresses; the
 * loader then falls back to the sans-serif font. One per isolate, so each
 * font is read and parsed once. Uploads are stored as sfnt (media-library.ts),
 * so no font reaches the loader packed.
 */
export function workerFontLoader(env: Pick<Env, "MEDIA" | "APP_URL">): FontLoader {
  loader ??= new FontLoader({
    async fetchFont(url) {
      if (url.startsWith(FONTS_PATH)) return bundledFontBytes(url);
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
