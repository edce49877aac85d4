import { parse, type Font } from "@shuding/opentype.js";
import { availableWeight, bundledFont, bundledFontPath, FALLBACK_FONT_FAMILY } from "./font-catalog.ts";
import { noteLoad } from "./load-stats.ts";

export { BUNDLED_FONTS, bundledFont, FALLBACK_FONT_FAMILY, FONTS_PATH } from "./font-catalog.ts";

/** A font ready for layout: its bytes (for satori) and parsed outlines (for measuring text). */
export interface LoadedFont {
  /** The family name layout refers to (the one asked for, even when it fell back). */
  family: string;
  weight: 400 | 700;
  data: ArrayBuffer;
  font: Font;
  /** True when this is the fallback standing in for a font that could not be loaded. */
  isFallback: boolean;
}

/** Where a font's bytes come from: a bundled file, or a user's uploaded font by URL. */
export type FontRequest = { family: string; weight: 400 | 700; url?: string };

export interface FontLoaderOptions {
  /** Fetches a font file (an absolute URL or a /fonts/ path). */
  fetchFont: (url: string, signal: AbortSignal) => Promise<ArrayBuffer>;
  /** Fonts loading at once (spec section 9: 3). */
  concurrency?: number;
  /** Attempts per font (3). */
  attempts?: number;
  /** Time limit per attempt in ms (10 s). */
  timeoutMs?: number;
  /** First retry delay in ms; doubles each time. */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Parses a font for measuring, with satori's own build of opentype.js
 * (@shuding/opentype.js): satori parses each font again for its layout, and
 * in a fresh isolate that second parse runs code the first one has already
 * compiled. Glyphs are read on demand (opentype.js's
 * lowMemory mode): a pin uses a few dozen of a font's hundreds of glyphs, so
 * a cold render does not wait for all of them to be decoded.
 */
export function parseFont(data: ArrayBuffer): Font {
  return parse(data, { lowMemory: true });
}

/**
 * Loads fonts at most `concurrency` at a time, each with `attempts` tries, a
 * time limit and exponential backoff. A font that still cannot be loaded (or
 * parsed) is replaced by the sans-serif fallback. Loaded fonts are kept, so a
 * font is fetched once per isolate or page.
 */
export class FontLoader {
  private readonly options: Required<FontLoaderOptions>;
  private readonly cache = new Map<string, Promise<LoadedFont | null>>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: FontLoaderOptions) {
    this.options = {
      concurrency: 3,
      attempts: 3,
      timeoutMs: 10_000,
      backoffMs: 250,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      ...options,
    };
  }

  /** The font asked for, or the fallback when it cannot be had. */
  async load(request: FontRequest): Promise<LoadedFont> {
    const loaded = await this.tryLoad(request);
    if (loaded) return loaded;
    const fallback = await this.tryLoad({ family: FALLBACK_FONT_FAMILY, weight: request.weight });
    if (!fallback) throw new Error("The fallback font could not be loaded");
    return { ...fallback, family: request.family, isFallback: true };
  }

  /** Several fonts, loaded through the queue. */
  loadAll(requests: FontRequest[]): Promise<LoadedFont[]> {
    return Promise.all(requests.map((request) => this.load(request)));
  }

  private tryLoad(request: FontRequest): Promise<LoadedFont | null> {
    const bundled = request.url ? undefined : bundledFont(request.family);
    const weight = bundled ? availableWeight(bundled, request.weight) : request.weight;
    const url = request.url ?? (bundled ? bundledFontPath(bundled, weight) : null);
    if (!url) return Promise.resolve(null);
    const key = `${url}|${weight}`;
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.queued(async () => {
        const started = performance.now();
        const data = await this.fetchWithRetries(url);
        noteLoad("fontFetchMs", performance.now() - started);
        return data;
      }).then((data) => {
        if (!data) return null;
        const started = performance.now();
        try {
          return { family: request.family, weight, data, font: parseFont(data), isFallback: false };
        } catch {
          return null;
        } finally {
          noteLoad("fontParseMs", performance.now() - started);
          noteLoad("fontsLoaded", 1);
        }
      });
      this.cache.set(key, pending);
    }
    return pending.then((font) => (font ? { ...font, family: request.family } : null));
  }

  private async fetchWithRetries(url: string): Promise<ArrayBuffer | null> {
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
      try {
        return await Promise.race([
          this.options.fetchFont(url, controller.signal),
          new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(new Error("font load timed out")))),
        ]);
      } catch {
        if (attempt < this.options.attempts) await this.options.sleep(this.options.backoffMs * 2 ** (attempt - 1));
      } finally {
        clearTimeout(timer);
      }
    }
    return null;
  }

  private async queued<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
