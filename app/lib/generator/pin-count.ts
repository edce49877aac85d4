import type { DesignSettings } from "../../../contracts/content/design-settings.ts";
import { MAX_POSTS } from "../../../contracts/content/post.ts";

type CountSettings = Pick<DesignSettings, "pinsPerSource" | "useOneOfEachTemplate" | "useOneOfEachImage">;

/**
 * How many pins one post makes with these settings (the rule of
 * generatePosts): one per template of the pool, one per picture (unknown
 * until the post is read: null), or the pins-per-post setting.
 */
export function pinsPerPost(settings: CountSettings, poolSize: number): number | null {
  if (settings.useOneOfEachImage) return null;
  if (settings.useOneOfEachTemplate) return Math.max(1, poolSize);
  return settings.pinsPerSource;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What a generate button makes, in words: "Generate 15 pins from 3 posts". */
export function generateLabel(postCount: number, settings: CountSettings, poolSize: number): string {
  const posts = plural(postCount, "post", "posts");
  const each = pinsPerPost(settings, poolSize);
  if (each === null) return `Generate pins from ${posts} (one for each picture)`;
  const pins = Math.min(postCount * each, MAX_POSTS);
  return `Generate ${plural(pins, "pin", "pins")} from ${posts}`;
}
