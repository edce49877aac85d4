import { AltTextBody, RewriteTextBody, type AltTextResponse, type RewriteTextResponse } from "../../contracts/ai.ts";
import { altTextForImage, rewriteText } from "../ai/copywriter.ts";
import { requireUser } from "../auth/middleware.ts";
import { consumeRateLimits, type RateLimitRule } from "../services/rate-limit.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/** The free rewrites cost us money and the user nothing: bounded per user. */
export const FREE_REWRITES_PER_USER: RateLimitRule = { name: "ai-free:user", limit: 300, windowMs: 60 * 60_000 };

/** AI copy under /api (spec section 7, AI). */
export const ai = router();

ai.post("/openAI/rewriteText", requireUser, valid("json", RewriteTextBody), async (c) => {
  const results = await rewriteText(c.env, c.var.auth.user.id, c.req.valid("json"), { unique: false, free: false });
  return c.json({ results } satisfies RewriteTextResponse);
});

ai.post("/openAI/getAltTextFromImage", requireUser, valid("json", AltTextBody), async (c) => {
  const altText = await altTextForImage(c.env, c.var.auth.user.id, c.req.valid("json"));
  return c.json({ altText } satisfies AltTextResponse);
});

/** AI copy under /highMemLimitApi: the rewrites that never repeat themselves. */
export const aiHighMem = router();

aiHighMem.post("/openAI/rewriteTextNoDuplicates", requireUser, valid("json", RewriteTextBody), async (c) => {
  const results = await rewriteText(c.env, c.var.auth.user.id, c.req.valid("json"), { unique: true, free: false });
  return c.json({ results } satisfies RewriteTextResponse);
});

aiHighMem.post("/openAI/rewriteTextNoDuplicatesFree", requireUser, valid("json", RewriteTextBody), async (c) => {
  const userId = c.var.auth.user.id;
  await consumeRateLimits(c.env.DB, [[FREE_REWRITES_PER_USER, userId]]);
  const results = await rewriteText(c.env, userId, c.req.valid("json"), { unique: true, free: true });
  return c.json({ results } satisfies RewriteTextResponse);
});
