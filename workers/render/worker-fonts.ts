import type { Env } from "../env.ts";
import { FontLoader, FONTS_PATH } from "./fonts.ts";

let loader: FontLoader | null = null;

/**
 * The worker's font loader: bundled fonts come from the static assets (no
 * network), uploaded fonts from their URL. One per isolate, so each font is
 * fetched and parsed once.
 */
export function workerFontLoader(env: Pick<Env, "ASSETS">): FontLoader {
  loader ??= new FontLoader({
    async fetchFont(url, signal) {
      const response = url.startsWith(FONTS_PATH)
        ? await env.ASSETS.fetch(new Request(`https://assets.invalid${url}`, { signal }))
        : await fetch(url, { signal });
      if (!response.ok) throw new Error(`font ${url} answered ${response.status}`);
      return response.arrayBuffer();
    },
  });
  return loader;
}
