import type { RenderedPin, RenderTemplateImageBody } from "../../contracts/content/render.ts";
import { ApiError, apiJson } from "./api-client.ts";
import { creditsMayHaveChanged } from "./credit-events.ts";

export type RenderedPinImage = Pick<RenderedPin, "url" | "fileName" | "width" | "height"> & Partial<RenderedPin>;

/**
 * Renders a post's pin on the server (1000 x 1500 JPEG, stored in the user's
 * media). A download is charged one image credit by the server; a render for
 * scheduling is paid when the pin is scheduled. A 500 from rendering is tried
 * once more (spec section 8), under the same reference, so it is never
 * charged twice.
 */
export async function renderTemplateImage(body: RenderTemplateImageBody): Promise<RenderedPinImage> {
  const call = () => apiJson<RenderedPinImage>("/highMemLimitApi/scraping/renderTemplateImage", { json: body });
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 500) return call();
    throw error;
  } finally {
    // A download is charged (or refused for want of credits): the balance shown is read again.
    if ((body.purpose ?? "download") === "download") creditsMayHaveChanged();
  }
}

/** A stable idempotency key for a render: `prefix:` + the SHA-256 of what is rendered. */
export async function renderReference(prefix: string, post: RenderTemplateImageBody["post"]): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(post))));
  return `${prefix}:${Array.from(digest.slice(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}
