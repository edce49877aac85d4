import type { RenderTemplateImageBody } from "../../contracts/render.ts";
import { ApiError, apiJson } from "./api-client.ts";

export interface RenderedPinImage {
  url: string;
  fileName: string;
  width: number;
  height: number;
}

/**
 * Renders a post's pin on the server (1000 x 1500 JPEG, stored in the user's
 * media). A 500 from rendering is tried once more (spec section 8).
 */
export async function renderTemplateImage(post: RenderTemplateImageBody["post"]): Promise<RenderedPinImage> {
  const call = () => apiJson<RenderedPinImage>("/highMemLimitApi/scraping/renderTemplateImage", { json: { post } });
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 500) return call();
    throw error;
  }
}
