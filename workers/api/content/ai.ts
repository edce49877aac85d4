import type { Context } from "hono";
import { AltTextBody, RewriteTextBody, type AltTextResponse, type RewriteTextResponse } from "../../../contracts/content/ai.ts";
import { altTextForImage, rewriteText, type RewriteInput } from "../../ai/copywriter.ts";
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

/** AI copy under /highMemLimitApi: the rewrites that never repeat themselves. */
export const aiHighMem = router();

aiHighMem.post("/openAI/rewriteTextNoDuplicates", requireUser, valid("json", RewriteTextBody), async (c) => {
  return c.json(await rewrite(c, "rewriteTextNoDuplicates", c.req.valid("json"), { unique: true, free: false }));
});

aiHighMem.post("/openAI/rewriteTextNoDuplicatesFree", requireUser, valid("json", RewriteTextBody), async (c) => {
  await consumeRateLimits(c.env.DB, [[FREE_REWRITES_PER_USER, c.var.auth.user.id]]);
  return c.json(await rewrite(c, "rewriteTextNoDuplicatesFree", c.req.valid("json"), { unique: true, free: true }));
});
