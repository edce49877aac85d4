import type { Context } from "hono";
import { AltTextBody, GenerateImageBody, RewriteTextBody, type AltTextResponse, type RewriteTextResponse } from "../../../contracts/content/ai.ts";
import type { MediaItem } from "../../../contracts/content/library.ts";
import { altTextForImage, rewriteText, type RewriteInput } from "../../ai/copywriter.ts";
import { generatePinImage } from "../../ai/images.ts";
import { requireUser } from "../../auth/middleware.ts";
import { consumeRateLimits, type RateLimitRule } from "../../services/accounts/rate-limit.ts";
import { router, type AppBindings } from "../core/hono.ts";
import { once, valid } from "../core/validation.ts";

/** The free rewrites cost us money and the user nothing: bounded per user. */
export const FREE_REWRITES_PER_USER: RateLimitRule = { name: "ai-free:user", limit: 300, windowMs: 60 * 60_000 };

/**
 * One rewrite request under its idempotency key (`reference` or the
 * Idempotency-Key header): a replay answers the first texts without asking
 * the AI again or charging; the key with another body answers 409.
 */
function rewrite(c: Context<AppBindings>, operation: string, input: RewriteInput, options: { unique: boolean; free: boolean }) {
  return once(
    c,
    operation,
    input,
    async (chargeReference): Promise<RewriteTextResponse> => ({
      results: await rewriteText(c.env, c.var.auth.user.id, input, { ...options, chargeReference }),
    }),
  );
}

/** AI copy under /api (spec section 7, AI). */
export const ai = router();

ai.post("/openAI/rewriteText", requireUser, valid("json", RewriteTextBody), async (c) => {
  return c.json(await rewrite(c, "rewriteText", c.req.valid("json"), { unique: false, free: false }));
});

ai.post("/openAI/getAltTextFromImage", requireUser, valid("json", AltTextBody), async (c) => {
  const input = c.req.valid("json");
  return c.json(
    await once(
      c,
      "getAltTextFromImage",
      input,
      async (chargeReference): Promise<AltTextResponse> => ({
        altText: await altTextForImage(c.env, c.var.auth.user.id, input, chargeReference),
      }),
    ),
  );
});

/** AI pictures: each costs OpenAI real money, so they are bounded per user besides their credits. */
export const AI_IMAGES_PER_USER: RateLimitRule = { name: "ai-image:user", limit: 30, windowMs: 60 * 60_000 };

/** An AI picture for a pin (issue 40 point 15): 12 credits once per reference; the answer is its media library item. */
ai.post("/openAI/generateImage", requireUser, valid("json", GenerateImageBody), async (c) => {
  const input = c.req.valid("json");
  return c.json(
    await once(c, "generateImage", input, async (chargeReference): Promise<{ image: MediaItem }> => {
      await consumeRateLimits(c.env.DB, [[AI_IMAGES_PER_USER, c.var.auth.user.id]]);
      return { image: await generatePinImage(c.env, c.var.auth.user, input.prompt, chargeReference) };
    }),
  );
});

/** AI copy under /highMemLimitApi: the rewrites that never repeat themselves. */
export const aiHighMem = router();

aiHighMem.post("/openAI/rewriteTextNoDuplicates", requireUser, valid("json", RewriteTextBody), async (c) => {
  return c.json(await rewrite(c, "rewriteTextNoDuplicates", c.req.valid("json"), { unique: true, free: false }));
});

aiHighMem.post("/openAI/rewriteTextNoDuplicatesFree", requireUser, valid("json", RewriteTextBody), async (c) => {
  await consumeRateLimits(c.env.DB, [[FREE_REWRITES_PER_USER, c.var.auth.user.id]]);
  return c.json(await rewrite(c, "rewriteTextNoDuplicatesFree", c.req.valid("json"), { unique: true, free: true }));
});
