import type { QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import { mergePins, queueCursor } from "../../lib/pinterest/queue.ts";
import { failureOf, useApiCache, useApiQuery } from "../../lib/query.ts";
import { useToast } from "../shell/toast.tsx";
import { failureText } from "./use-pinterest.tsx";

export type PagedState = "loading" | "ready" | "more" | "failed";

/** A paged listing as it is cached: the pins of every page read so far, and where the next page starts. */
export interface PagedList<T> {
  items: T[];
  totalCount: number;
  next: string | null;
  /** How many pages `items` holds. */
  pages: number;
}

const NONE: never[] = [];

/**
 * A paged pin listing (the queue, repeating pins), cached under `key` as one value: the read is the first
 * page, and "Load more" adds the page after the last pin's id to that value, a pin listed twice keeping its
 * fresh copy. A refresh (after a change) reads the first page again, as reloading always did; coming back to
 * the window reads it again only while one page is shown, so the pages the user asked for stay. A failed read
 * is shown in place (`loadError`); a failed further page is a toast titled `moreError`.
 */
export function usePagedList<T extends { id: string }>(
  key: QueryKey,
  fetchPage: (lastId: string | null) => Promise<{ items: T[]; totalCount: number }>,
  moreError: string,
) {
  const toast = useToast();
  const cache = useApiCache();
  const [loadingMore, setLoadingMore] = useState(false);
  const query = useApiQuery<PagedList<T>>(
    key,
    async () => {
      const answer = await fetchPage(null);
      return { items: answer.items, totalCount: answer.totalCount, next: queueCursor(answer.items.length, answer.items, answer.totalCount), pages: 1 };
    },
    { refetchOnWindowFocus: (read) => (read.state.data?.pages ?? 0) <= 1 },
  );

  /** Changes the cached listing in place (after a change whose answer says the new state). */
  const update = (change: (list: PagedList<T>) => PagedList<T>) => cache.set<PagedList<T>>(key, (current) => current && change(current));

  async function loadMore() {
    const next = query.data?.next;
    if (!next) return;
    setLoadingMore(true);
    try {
      const answer = await fetchPage(next);
      update((current) => {
        const items = mergePins(current.items, answer.items);
        return { items, totalCount: answer.totalCount, next: queueCursor(items.length, answer.items, answer.totalCount), pages: current.pages + 1 };
      });
    } catch (error) {
      toast({ title: moreError, description: failureText(error), kind: "error" });
    }
    setLoadingMore(false);
  }

  const failure = failureOf(query);
  const list = query.data;
  const state: PagedState = failure ? "failed" : !list ? "loading" : loadingMore ? "more" : "ready";
  return {
    items: list?.items ?? (NONE as T[]),
    totalCount: list?.totalCount ?? 0,
    next: list?.next ?? null,
    state,
    loadError: failure ? failureText(failure) : "",
    reload: () => void query.refetch(),
    loadMore,
    update,
  };
}
