import { KeywordResearchQuery, UseAsAiKeywordsBody, type KeywordResearch, type UseAsAiKeywordsAnswer } from "../../../contracts/growth/keywords.ts";
import { requestMeta, requireUser, signedInCaller } from "../../auth/middleware.ts";
import { useAsAiKeywords } from "../../services/content/design-settings.ts";
import { researchKeyword } from "../../services/growth/keyword-research.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Keyword research (issue 19, docs/decisions/045-keyword-research.md). */
export const keywordsApi = router();

/** A seed keyword and a region: suggested and related terms with their trend figures. Visitors get one try. */
keywordsApi.get("/keywords/research", valid("query", KeywordResearchQuery), async (c) => {
  const caller = await signedInCaller(c);
  if (caller instanceof Response) return caller;
  const answer = await researchKeyword(c.env, caller?.user ?? null, c.req.valid("query"), requestMeta(c));
  c.header("cache-control", "private, no-store");
  return c.json(answer satisfies KeywordResearch);
});

/** The chosen terms become the AI keywords of the active design settings profile, which /generate opens. */
keywordsApi.post("/keywords/useAsAiKeywords", requireUser, valid("json", UseAsAiKeywordsBody), async (c) => {
  const answer = await useAsAiKeywords(c.env, c.var.auth.user, c.req.valid("json").keywords);
  return c.json(answer satisfies UseAsAiKeywordsAnswer);
});
