import type * as v from "valibot";
import type { AltTextBody, RewriteTextBody } from "../../contracts/content/ai.ts";
import { CREDIT_COSTS } from "../../contracts/billing/credits.ts";
import type { Env } from "../env.ts";
import { ProviderError } from "../integrations/http.ts";
import { completeChat, openAIErrorCode } from "../integrations/openai.ts";
import { consumeCredits, requireCredits } from "../services/billing/credits.ts";
import { ServiceError } from "../services/core/errors.ts";
import { collectAnswers, fitToBounds, keywordPhrases, outOfBoundsMessage, type Collected } from "./bounds.ts";
import { altTextMessages, rewriteMessages } from "./prompts.ts";

/**
 * AI copy for pins (spec section 7, AI): rewrites of titles and descriptions
 * and alt text for images, always within the spec's bounds, charged only
 * once they are delivered. See docs/decisions/006-ai-copy.md.
 */
export type RewriteInput = v.InferOutput<typeof RewriteTextBody>;
export type AltTextInput = v.InferOutput<typeof AltTextBody>;

/** Calls per request for answers within bounds: the first and two more. */
export const MAX_ATTEMPTS = 3;

export const AI_UNAVAILABLE = "The AI service is unavailable, please try again.";
export const AI_BUSY = "The AI service is busy right now, please try again in a minute.";

const MAX_COMPLETION_TOKENS = { title: 80, description: 400, altText: 300 } as const;
const TEXT_TIMEOUT_MS = 20_000;
const VISION_TIMEOUT_MS = 30_000;

export interface RewriteOptions {
  /** Never two equal results (compared case- and whitespace-insensitively), and none equal to the text rewritten. */
  unique: boolean;
  /** Charge nothing (the ...Free route). */
  free: boolean;
  /** The ledger reference of the charge: one per request (idempotency.ts chargeReference). */
  chargeReference: string;
}

/** Rewrites a title or description into `numResults` texts within bounds, then charges 0.5 credit per text. */
export async function rewriteText(env: Env, userId: string, input: RewriteInput, options: RewriteOptions): Promise<string[]> {
  const keywords = keywordPhrases(input.keywords);
  const wanted = input.numResults;
  // Refused before OpenAI is asked when the month's credits cannot pay (402); charged once delivered.
  if (!options.free) await requireCredits(env, userId, wanted * CREDIT_COSTS.aiText);
  let collected: Collected = { accepted: [], rejected: {} };

  for (let attempt = 1; attempt <= MAX_ATTEMPTS && collected.accepted.length < wanted; attempt += 1) {
    const missing = wanted - collected.accepted.length;
    const messages = rewriteMessages({
      text: input.prompt,
      kind: input.kind,
      keywords,
      language: input.language,
      tone: input.tone,
      avoid: options.unique && attempt > 1 ? collected.accepted : undefined,
    });
    const answers = await ask(env, {
      model: env.OPENAI_MODEL,
      messages,
      n: missing,
      maxCompletionTokens: MAX_COMPLETION_TOKENS[input.kind],
      temperature: attempt === 1 ? 0.8 : 1,
      timeoutMs: TEXT_TIMEOUT_MS,
    });
    collected = collectAnswers(collected, answers, {
      kind: input.kind,
      wanted,
      unique: options.unique,
      avoid: options.unique ? [input.prompt] : [],
      source: input.prompt,
    });
  }

  if (collected.accepted.length < wanted) {
    console.warn("AI rewrite out of bounds after retries", { kind: input.kind, wanted, got: collected.accepted.length, rejected: collected.rejected });
    throw new ServiceError(502, outOfBoundsMessage(input.kind, collected.rejected));
  }
  if (!options.free) {
    await consumeCredits(env, userId, {
      category: "aiText",
      amount: wanted * CREDIT_COSTS.aiText,
      reason: input.kind === "title" ? "AI title rewrite" : "AI description rewrite",
      reference: options.chargeReference,
    });
  }
  return collected.accepted;
}

/** Alt text for an image (at most 500 characters), then charges 2 credits. On failure nothing is charged. */
export async function altTextForImage(env: Env, userId: string, input: AltTextInput, chargeReference: string): Promise<string> {
  const imageUrl = resolveImageUrl(input.imageURL, env.APP_URL);
  await requireCredits(env, userId, CREDIT_COSTS.aiAltText);
  const rejected: Collected["rejected"] = {};
  let altText: string | null = null;

  for (let attempt = 1; attempt <= MAX_ATTEMPTS && altText === null; attempt += 1) {
    const [answer = ""] = await ask(
      env,
      {
        model: env.OPENAI_VISION_MODEL,
        messages: altTextMessages(imageUrl, input.aiLanguage),
        n: 1,
        maxCompletionTokens: MAX_COMPLETION_TOKENS.altText,
        timeoutMs: VISION_TIMEOUT_MS,
      },
      { imageRefused: true },
    );
    const check = fitToBounds(answer, "altText");
    if (check.ok) altText = check.text;
    else rejected[check.reason] = (rejected[check.reason] ?? 0) + 1;
  }

  if (altText === null) {
    console.warn("AI alt text out of bounds after retries", { rejected });
    throw new ServiceError(502, outOfBoundsMessage("altText", rejected));
  }
  await consumeCredits(env, userId, { category: "aiAltText", amount: CREDIT_COSTS.aiAltText, reason: "AI alt text", reference: chargeReference });
  return altText;
}

/**
 * The image address OpenAI is given: an absolute http(s) URL, a data: image,
 * or a path on our own site (media library URLs) made absolute.
 */
export function resolveImageUrl(imageURL: string, appUrl: string): string {
  if (/^data:image\/[a-z0-9.+-]+;base64,/i.test(imageURL)) return imageURL;
  let url: URL;
  try {
    url = imageURL.startsWith("/") && !imageURL.startsWith("//") ? new URL(imageURL, appUrl) : new URL(imageURL);
  } catch {
    throw new ServiceError(400, "imageURL must be an http or https URL", "imageURL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ServiceError(400, "imageURL must be an http or https URL", "imageURL");
  return url.toString();
}

/** One chat completion, its failures turned into the answers the user sees. */
async function ask(env: Env, request: Parameters<typeof completeChat>[1], options: { imageRefused?: boolean } = {}): Promise<string[]> {
  try {
    return await completeChat(env, request);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.status === 429) {
      console.warn("OpenAI rate limit", error.message);
      throw new ServiceError(503, AI_BUSY);
    }
    if (options.imageRefused && error.status === 400 && /image/i.test(`${openAIErrorCode(error) ?? ""} ${error.message}`)) {
      throw new ServiceError(400, "The AI could not open this image. Check that imageURL is a public image address.", "imageURL");
    }
    // Our own configuration at fault (key, model, request shape) is an error to fix; an outage is a warning.
    if (error.retryable && !/not configured/.test(error.message)) console.warn("OpenAI unavailable", error.message);
    else console.error("OpenAI refused the request: check OPENAI_API_KEY and the models", error.message);
    throw new ServiceError(502, AI_UNAVAILABLE);
  }
}
