/**
 * Pure rules of the RSS feeds for Pinterest's auto-publish (issue 18,
 * docs/decisions/044): what a post's pin is drawn with, decided by the post
 * itself, so a post looks the same however often it is looked at.
 */

import { stableSeed } from "./random.ts";

/** Which of `count` colours a post's pin takes. */
export function colourIndexFor(key: string, count: number): number {
  return count <= 0 ? 0 : stableSeed(`colour:${key}`) % count;
}

/**
 * The posts of a source a feed takes on its first check: the newest
 * `firstCheckPosts`; the rest are noted as left out, never drawn or charged.
 * Later checks take every post not seen before.
 */
export function splitFirstCheck<T>(posts: readonly T[], firstCheck: boolean, firstCheckPosts: number): { take: T[]; leaveOut: T[] } {
  if (!firstCheck) return { take: [...posts], leaveOut: [] };
  return { take: posts.slice(0, firstCheckPosts), leaveOut: posts.slice(firstCheckPosts) };
}

/** Newest first by date (undated posts after the dated ones, in the order the source lists them). */
export function newestPostsFirst<T extends { date: number | null }>(posts: readonly T[]): T[] {
  if (posts.every((post) => post.date === null)) return [...posts];
  return posts
    .map((post, index) => ({ post, index }))
    .sort((a, b) => (b.post.date ?? -Infinity) - (a.post.date ?? -Infinity) || a.index - b.index)
    .map(({ post }) => post);
}
