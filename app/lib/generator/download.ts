import { zipSync, type Zippable } from "fflate";
import type { Post } from "../../../contracts/content/post.ts";
import type { RenderTemplateImageBody } from "../../../contracts/content/render.ts";
import { renderReference, type RenderedPinImage } from "../pin-images.ts";
import { renderPostBody } from "../../../workers/domain/generate.ts";
import { mapLimit } from "./tasks.ts";

/**
 * Downloading pins (spec sections 2 and 9): the server renders the post's pin
 * (a 1000 x 1500 JPEG) and charges one image credit for it, recording it in
 * the pin history; the browser then fetches the bytes and saves the file
 * under the post's file name. Many pins go into one ZIP. The render's
 * reference is the hash of what is rendered: asking again for the same pin
 * (a retry, or the same download later) answers the same image, charged once.
 */

export interface DownloadDeps {
  render(body: RenderTemplateImageBody): Promise<RenderedPinImage>;
  fetchBytes(url: string): Promise<Uint8Array>;
}

export interface DownloadedPin {
  postId: string;
  fileName: string;
  imageUrl: string;
  bytes: Uint8Array;
}

/** The render request of a download, with its idempotency key. */
export async function downloadRequest(post: Post, options: { bypassResize?: boolean } = {}): Promise<RenderTemplateImageBody> {
  const body = { ...renderPostBody(post, options), url: post.url.slice(0, 2048) };
  return { post: body, purpose: "download", reference: await renderReference("pin-download", body) };
}

/** Renders (and so charges) and fetches one pin. Throws when rendering or fetching fails. */
export async function downloadPin(post: Post, deps: DownloadDeps, options: { bypassResize?: boolean } = {}): Promise<DownloadedPin> {
  const request = await downloadRequest(post, options);
  let rendered: RenderedPinImage;
  try {
    rendered = await deps.render(request);
  } catch (error) {
    // A dropped connection may hide a render that was charged: the same reference makes the retry safe.
    if (!(error instanceof TypeError)) throw error;
    rendered = await deps.render(request);
  }
  const bytes = await deps.fetchBytes(rendered.url);
  return { postId: post.id, fileName: post.fileName || rendered.fileName, imageUrl: rendered.url, bytes };
}

export interface ManyResult {
  pins: DownloadedPin[];
  failed: { postId: string; error: unknown }[];
}

/** Several pins, two at a time; a failed pin does not stop the others. */
export async function downloadPins(
  posts: readonly Post[],
  deps: DownloadDeps,
  onProgress: (done: number, total: number) => void,
  options: { bypassResize?: boolean } = {},
): Promise<ManyResult> {
  const outcomes = await mapLimit(
    posts,
    2,
    async (post) => {
      try {
        return { ok: true as const, pin: await downloadPin(post, deps, options) };
      } catch (error) {
        return { ok: false as const, postId: post.id, error };
      }
    },
    onProgress,
  );
  return {
    pins: outcomes.flatMap((outcome) => (outcome.ok ? [outcome.pin] : [])),
    failed: outcomes.flatMap((outcome) => (outcome.ok ? [] : [{ postId: outcome.postId, error: outcome.error }])),
  };
}

/** Names inside a ZIP must differ: a repeated name gets " (2)", " (3)" before its extension. */
export function uniqueFileNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count === 1) return name;
    const dot = name.lastIndexOf(".");
    return dot > 0 ? `${name.slice(0, dot)} (${count})${name.slice(dot)}` : `${name} (${count})`;
  });
}

/** One ZIP of the pins (stored, not compressed: JPEGs do not shrink). */
export function zipPins(pins: readonly Pick<DownloadedPin, "fileName" | "bytes">[]): Uint8Array {
  const names = uniqueFileNames(pins.map((pin) => pin.fileName));
  const files: Zippable = {};
  pins.forEach((pin, i) => {
    files[names[i]] = [pin.bytes, { level: 0 }];
  });
  return zipSync(files);
}

/** Saves bytes as a file in the browser (a download under `fileName`). */
export function saveFile(bytes: Uint8Array, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** The browser's way of fetching a rendered pin (same origin; the session cookie authorises it). */
export async function fetchPinBytes(url: string): Promise<Uint8Array> {
  // Our own media is fetched from this origin, whatever host the server wrote into the URL.
  const parsed = new URL(url, window.location.href);
  const target = parsed.pathname.startsWith("/media/") ? parsed.pathname + parsed.search : url;
  const response = await fetch(target, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`The pin image could not be fetched (${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}
