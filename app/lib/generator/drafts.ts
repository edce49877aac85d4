import * as v from "valibot";
import { Post } from "../../../contracts/content/post.ts";

/** Drafts in the editor (spec section 4, Drafts). */

/** The one draft that autosave keeps per user. */
export { AUTOSAVE_DRAFT_NAME as AUTOSAVE_NAME } from "../../../contracts/content/library.ts";
/** How long the grid must be still before autosave writes it. */
export const AUTOSAVE_DELAY_MS = 3000;

/** The name an update without a name takes: the current local date-time, e.g. "2026-11-20 14:05". */
export function localDateTimeName(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

/** A draft loads into the editor only if it has at least one post. */
export function isLoadableDraft(draft: { posts?: unknown[]; postCount?: number } | null | undefined): boolean {
  if (!draft) return false;
  if (Array.isArray(draft.posts)) return draft.posts.length > 0;
  return (draft.postCount ?? 0) > 0;
}

/** The posts of a stored draft that are still valid posts (defaults filled in). */
export function draftPosts(posts: readonly unknown[]): Post[] {
  return posts.flatMap((post) => {
    const parsed = v.safeParse(Post, post);
    return parsed.success ? [parsed.output] : [];
  });
}
