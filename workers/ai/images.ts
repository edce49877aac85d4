import { CREDIT_COSTS } from "../../contracts/billing/credits.ts";
import type { MediaItem } from "../../contracts/content/library.ts";
import type { Env } from "../env.ts";
import { ProviderError } from "../integrations/http.ts";
import { generateImage } from "../integrations/openai.ts";
import type { User } from "../services/accounts/accounts.ts";
import { consumeCredits, requireCredits } from "../services/billing/credits.ts";
import { deleteMedia, uploadMedia } from "../services/content/media-library.ts";
import { ServiceError } from "../services/core/errors.ts";
import { AI_BUSY, AI_UNAVAILABLE } from "./copywriter.ts";

/**
 * AI pictures for pins (spec section 9 prices them at 12 credits; issue 40 point 15): OpenAI's image model draws
 * what the user asked for, in the pin's portrait shape; the picture is checked and kept like an upload (the media
 * library, where it stays until the user deletes it); then, and only then, the 12 credits are charged, once per
 * reference. A failure charges nothing and keeps nothing.
 */
export const AI_IMAGE_REFUSED = "The AI would not draw this picture. Describe it differently and try again.";
const IMAGE_TIMEOUT_MS = 90_000;

/** What the image model is asked: the user's words, and what a pin's picture needs. */
export function imagePrompt(prompt: string): string {
  return `${prompt.trim()}\n\nA vertical photograph for a Pinterest pin: no text, letters, logos or watermarks in the picture.`;
}

export async function generatePinImage(env: Env, user: User, prompt: string, chargeReference: string): Promise<MediaItem> {
  await requireCredits(env, user.id, CREDIT_COSTS.aiImage);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await generateImage(env, { model: env.OPENAI_IMAGE_MODEL, prompt: imagePrompt(prompt), size: "1024x1536", timeoutMs: IMAGE_TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.status === 429) throw new ServiceError(503, AI_BUSY);
    if (error.status === 400) throw new ServiceError(400, AI_IMAGE_REFUSED, "prompt");
    console.warn("OpenAI image unavailable", error.message);
    throw new ServiceError(502, AI_UNAVAILABLE);
  }
  // Checked as any upload is (an image we can read, within the size limit), then kept in the library.
  const slug =
    prompt
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "picture";
  const item = await uploadMedia(env, user, new File([bytes], `ai-${slug}.png`, { type: "image/png" }), "image");
  try {
    await consumeCredits(env, user.id, { category: "aiImage", amount: CREDIT_COSTS.aiImage, reason: "AI picture", reference: chargeReference });
  } catch (error) {
    // Not paid (the credits went elsewhere meanwhile): nothing is kept.
    await deleteMedia(env, user, item.id);
    throw error;
  }
  return item;
}
