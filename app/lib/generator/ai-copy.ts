import type { RewriteKind } from "../../../contracts/content/ai.ts";
import { MAX_AI_RESULTS } from "../../../contracts/content/ai.ts";
import type { DesignSettings } from "../../../contracts/content/design-settings.ts";
import type { Post } from "../../../contracts/content/post.ts";
import { fileNameFor } from "../../../workers/domain/generate.ts";
import type { Random } from "../../../workers/domain/random.ts";
import { chunks, mapLimit } from "./tasks.ts";

/**
 * AI copy for freshly generated posts (spec section 7, AI): title and
 * description rewrites when the design settings ask for them, and alt text
 * from the lead picture. Posts that share a text are rewritten in one call
 * asking for as many results as posts (no two alike); alt text is asked once
 * per picture. A failed call keeps the text the post had.
 */

export interface RewriteRequest {
  prompt: string;
  numResults: number;
  kind: RewriteKind;
  keywords: string;
  language: DesignSettings["aiLanguage"];
  tone: DesignSettings["aiTone"];
  reference: string;
}

export interface AiClient {
  /** noDuplicates: several results for one text, never two equal. */
  rewrite(request: RewriteRequest, noDuplicates: boolean): Promise<string[]>;
  altText(request: { imageURL: string; aiLanguage: DesignSettings["aiLanguage"]; reference: string }): Promise<string>;
}

export interface AiCopyResult {
  posts: Post[];
  /** Why calls failed (distinct messages); those posts kept their text. */
  failures: string[];
}

/** AI calls running at once. */
const AI_CONCURRENCY = 4;

type Job = () => Promise<void>;

/** The lead picture of a post, which its alt text describes. */
export function leadImage(post: Pick<Post, "selectedImages" | "allImages">): string | undefined {
  return post.selectedImages[0] ?? post.allImages[0];
}

export function needsAi(settings: DesignSettings): boolean {
  return (
    (settings.rewriteTitle && !settings.pinOverrides.title) ||
    (settings.rewriteDescription && !settings.pinOverrides.description) ||
    settings.generateAltTextWithAI
  );
}

export async function applyAiCopy(
  input: readonly Post[],
  settings: DesignSettings,
  client: AiClient,
  options: { random: Random; onProgress?: (done: number, total: number) => void },
): Promise<AiCopyResult> {
  const posts = input.map((post) => ({ ...post }));
  const failures = new Set<string>();
  const jobs: Job[] = [];
  const fail = (error: unknown) => failures.add(error instanceof Error && error.message ? error.message : "The AI could not answer");

  const rewriteJobs = (kind: RewriteKind, field: "title" | "description") => {
    const groups = new Map<string, Post[]>();
    for (const post of posts) {
      const text = post[field].trim();
      if (!text || post.isLocked) continue;
      groups.set(text, [...(groups.get(text) ?? []), post]);
    }
    for (const [text, group] of groups) {
      for (const batch of chunks(group, MAX_AI_RESULTS)) {
        jobs.push(async () => {
          const request: RewriteRequest = {
            prompt: text,
            numResults: batch.length,
            kind,
            keywords: settings.aiKeywords,
            language: settings.aiLanguage,
            tone: settings.aiTone,
            // One key per request: a new rewrite gets new texts, a retry of this one never pays twice.
            reference: `ai-${kind}-${crypto.randomUUID()}`,
          };
          try {
            const results = (await client.rewrite(request, batch.length > 1)).map((result) => result.trim()).filter(Boolean);
            batch.forEach((post, i) => {
              const rewritten = results[i];
              if (!rewritten) return;
              if (field === "title") {
                if (post.altText === post.title) post.altText = rewritten;
                post.fileName = fileNameFor(rewritten, options.random, post.fileName);
              }
              post[field] = rewritten;
            });
          } catch (error) {
            fail(error);
          }
        });
      }
    }
  };

  if (settings.rewriteTitle && !settings.pinOverrides.title) rewriteJobs("title", "title");
  if (settings.rewriteDescription && !settings.pinOverrides.description) rewriteJobs("description", "description");

  // Alt text after the rewrites are queued: each picture is described once, for every post showing it first.
  if (settings.generateAltTextWithAI) {
    const byImage = new Map<string, Post[]>();
    for (const post of posts) {
      const image = leadImage(post);
      if (!image || post.isLocked) continue;
      byImage.set(image, [...(byImage.get(image) ?? []), post]);
    }
    for (const [imageURL, group] of byImage) {
      jobs.push(async () => {
        try {
          const altText = (await client.altText({ imageURL, aiLanguage: settings.aiLanguage, reference: `ai-alt-${crypto.randomUUID()}` })).trim();
          if (altText) for (const post of group) post.altText = altText;
        } catch (error) {
          // Spec section 8: an alt-text failure keeps the existing text.
          fail(error);
        }
      });
    }
  }

  await mapLimit(jobs, AI_CONCURRENCY, (job) => job(), options.onProgress);
  return { posts, failures: [...failures] };
}
