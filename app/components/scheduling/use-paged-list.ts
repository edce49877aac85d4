import { useCallback, useEffect, useState } from "react";
import { mergePins, queueCursor } from "../../lib/pinterest/queue.ts";
import { useToast } from "../shell/toast.tsx";
import { failureText } from "./use-pinterest.tsx";

export type PagedState = "loading" | "ready" | "more" | "failed";

/**
 * A paged pin listing (the queue, repeating pins): the first page whenever
 * `fetchPage` or `revision` changes, more pages after the last pin's id, a
 * pin listed twice keeping its fresh copy. A failed first page is shown in
 * place (`loadError`); a failed further page is a toast titled `moreError`.
 */
export function usePagedList<T extends { id: string }>(
  fetchPage: (lastId: string | null) => Promise<{ items: T[]; totalCount: number }>,
  revision: number,
  moreError: string,
) {
  const toast = useToast();
  const [items, setItems] = useState<T[]>([]);
  const [totalCount, setTotalCount] = useState(0);
  const [next, setNext] = useState<string | null>(null);
  const [state, setState] = useState<PagedState>("loading");
  const [loadError, setLoadError] = useState("");

  const load = useCallback(async () => {
    setState("loading");
    try {
      const answer = await fetchPage(null);
      setItems(answer.items);
      setTotalCount(answer.totalCount);
      setNext(queueCursor(answer.items.length, answer.items, answer.totalCount));
      setState("ready");
    } catch (error) {
      setLoadError(failureText(error));
      setState("failed");
    }
  }, [fetchPage]);

  useEffect(() => {
    void load();
  }, [load, revision]);

  async function loadMore() {
    if (!next) return;
    setState("more");
    try {
      const answer = await fetchPage(next);
      const merged = mergePins(items, answer.items);
      setItems(merged);
      setTotalCount(answer.totalCount);
      setNext(queueCursor(merged.length, answer.items, answer.totalCount));
    } catch (error) {
      toast({ title: moreError, description: failureText(error), kind: "error" });
    }
    setState("ready");
  }

  return { items, setItems, totalCount, setTotalCount, next, state, loadError, load, loadMore };
}
