import type { Post } from "../../../contracts/content/post.ts";
import { draftPosts } from "../../lib/generator/drafts.ts";

/**
 * The grid of this tab, kept in session storage so that /singlePin can show
 * one of its posts without a round trip (and after a reload of that page).
 */
const KEY = "pinboard:generator-grid";

export interface StoredGrid {
  posts: Post[];
  draft: { draftId: string; name: string } | null;
}

export function storeGridPosts(posts: Post[], draft: StoredGrid["draft"]) {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify({ posts, draft }));
  } catch {
    // Storage full or unavailable: /singlePin falls back to the drafts.
  }
}

export function storedGrid(): StoredGrid | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { posts?: unknown[]; draft?: StoredGrid["draft"] };
    return { posts: draftPosts(parsed.posts ?? []), draft: parsed.draft ?? null };
  } catch {
    return null;
  }
}
