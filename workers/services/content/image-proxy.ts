import { encodeJpeg, resizeRegion } from "../../render/pixel-module.ts";
import { decodedPicture, MAX_PICTURE_BYTES, pictureHeader, type PictureType } from "../../render/pictures.ts";
import { openSource, sourceErrors, type ScrapeEnv } from "../../scrape/fetch.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * Pictures for the browser's pin previews. satori, drawing a preview in the
 * page, must read each picture's bytes, and other sites rarely allow that
 * (CORS); so previews fetch them through here. The fetch is the scraper's,
 * through the guarded fetch (time, size, redirects, public addresses only) and, with
 * `width`, JPEGs come back downscaled so preview SVGs stay small. The decoded
 * picture is cached by the renderer's picture cache, so a later download of
 * the same pin decodes nothing again.
 */

const IMAGE_TYPES = ["image/jpeg", "image/jpg", "image/pjpeg", "image/png", "image/webp", "image/gif"];
const CONTENT_TYPES: Record<PictureType, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" };
export const MIN_PROXY_WIDTH = 64;
export const MAX_PROXY_WIDTH = 1600;

export interface ProxiedImage {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
  width: number;
  height: number;
}

async function fetchPicture(env: ScrapeEnv, url: string): Promise<Uint8Array<ArrayBuffer>> {
  const source = await openSource(env, url, { noun: "picture", what: "a picture", accept: IMAGE_TYPES, maxBytes: MAX_PICTURE_BYTES, acceptHeader: "image/*" });
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await source.response.arrayBuffer());
  } catch {
    throw source.failure() ?? sourceErrors.unreadable(source.noun);
  }
  const failure = source.failure();
  if (failure) throw failure;
  return bytes;
}

export async function proxiedImage(env: ScrapeEnv, url: string, width?: number): Promise<ProxiedImage> {
  if (!/^https?:\/\//i.test(url)) throw new ServiceError(400, "url must be a web address (http or https).", "url");
  const bytes = await fetchPicture(env, url);
  const header = pictureHeader(bytes);
  if (!header) throw new ServiceError(415, "That address is not a picture we can read (JPEG, PNG, WebP or GIF).", "url");
  // Only photos are downscaled: re-encoding a PNG, WebP or GIF as JPEG would lose its transparency.
  if (!width || header.type !== "jpeg" || header.width <= width) {
    return { bytes, contentType: CONTENT_TYPES[header.type], width: header.width, height: header.height };
  }
  const bitmap = await decodedPicture({ fetch: async () => bytes }, url);
  if (!bitmap) throw new ServiceError(415, "That address is not a picture we can read (JPEG, PNG, WebP or GIF).", "url");
  const height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
  const small = resizeRegion(bitmap, { x: 0, y: 0, width: bitmap.width, height: bitmap.height }, width, height);
  // The encoder's output lives in its own ArrayBuffer (copied out of WebAssembly memory).
  return { bytes: encodeJpeg(small.data, width, height, 82) as Uint8Array<ArrayBuffer>, contentType: "image/jpeg", width, height };
}

/**
 * A picture's width and height, read from its header (with the scraper's limits);
 * null when the address does not answer with a picture we can read.
 */
export async function pictureSize(env: ScrapeEnv, url: string): Promise<[number, number] | null> {
  try {
    const header = pictureHeader(await fetchPicture(env, url));
    return header && header.width > 0 && header.height > 0 ? [header.width, header.height] : null;
  } catch (error) {
    if (error instanceof ServiceError) return null;
    throw error;
  }
}
