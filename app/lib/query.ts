/**
 * The browser's one data layer for signed-in pages (decision 089): TanStack Query over `apiJson`.
 *
 * - Every cache key starts with the signed-in user's id, so one user's answers are never shown to another
 *   in the same tab; a full logout empties the cache.
 * - Stale answers are guarded here once: an answer is kept under the key it was asked for, and a component
 *   shows only the key it asks for now (a slow answer to an older search never replaces a newer one).
 * - A call that failed on the way (no answer, or 502, 503 or 504) is tried once more before the page says
 *   so; an answer that says no (400, 403, 404, 409, 429, 500) is shown at once.
 * - Changes update the cache they touch (`useApiCache().set`) or mark it for a fresh read (`.refresh`).
 *
 * No provider is needed: hooks take the client from here, so the pages that never read signed-in data
 * (/ and /pricing, issue 17's budget) never load the library. The server renders every query as loading
 * and never fetches: it gets a client per call, never shared between requests.
 */

import { type QueryKey, QueryClient, type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import { type ToastOptions, useToast } from "../components/shell/toast.tsx";
import { ApiError, LOGGED_OUT_EVENT, serverMessage } from "./api-client.ts";
import { useAuth } from "./auth.tsx";

/** How long an answer counts as fresh: a page visited again within it is shown from the cache without a call. */
export const FRESH_MS = 30_000;

function retryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 502 || error.status === 503 || error.status === 504;
  // fetch's own failure (offline, connection reset) is a TypeError; anything else is a bug, not the network.
  return error instanceof TypeError;
}

function createClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: FRESH_MS,
        retry: (failures, error) => failures < 1 && retryable(error),
        retryDelay: 500,
        refetchOnWindowFocus: true,
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/** The tab's client (created on first use); on the server, a new one per call. */
export function queryClient(): QueryClient {
  if (typeof window === "undefined") return createClient();
  if (!browserClient) {
    const client = createClient();
    window.addEventListener(LOGGED_OUT_EVENT, () => {
      loggedOut = true;
      client.clear();
    });
    browserClient = client;
  }
  return browserClient;
}

const SIGNED_OUT = "signed-out";

/**
 * Set by a full logout (its tokens and session are gone at once; the root's user only with the next page), and
 * cleared once a page renders signed out: meanwhile the page still on screen reads nothing more, which could
 * only answer 401 or 404.
 */
let loggedOut = false;

function useScope(): string {
  const scope = useAuth().user?.userId ?? SIGNED_OUT;
  if (scope === SIGNED_OUT) loggedOut = false;
  return scope;
}

export type ApiQueryOptions<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, "queryKey" | "queryFn"> & {
  /** Also read for a visitor who is not signed in (public pages: /referral, /users/{handle}). */
  public?: boolean;
};

/**
 * Reads `read()` under `key` for the signed-in user. `read` gets an AbortSignal that fires when nobody
 * waits for the answer any more. Answers TanStack's result: `data`, `error`, `isPending`, `refetch`…
 *
 * Without `public`, nothing is read while nobody is signed in, nor after a full logout by the page still on
 * screen as its user logs out or deletes the account. A read that a link's token allows (a reviewer's queue)
 * or that visitors make says `public`.
 */
export function useApiQuery<T>(key: QueryKey, read: (signal: AbortSignal) => Promise<T>, options: ApiQueryOptions<T> = {}) {
  const scope = useScope();
  const client = useMemo(queryClient, []);
  const { public: forVisitors = false, enabled = true, ...rest } = options;
  const allowed = forVisitors || (scope !== SIGNED_OUT && !loggedOut);
  return useQuery<T, Error, T, QueryKey>(
    {
      ...rest,
      enabled: allowed ? enabled : false,
      queryKey: [scope, ...key],
      queryFn: ({ signal }) => read(signal),
    },
    client,
  );
}

export interface ApiCache {
  /** Replaces what is cached under `key` (for the signed-in user); `update` gets undefined when nothing is. */
  set<T>(key: QueryKey, update: (current: T | undefined) => T | undefined): void;
  /** Reads `key` (and every key that starts with it) again where it is shown, and on the next visit elsewhere. */
  refresh(key: QueryKey): Promise<void>;
  /** What is cached under `key` now, if anything. */
  get<T>(key: QueryKey): T | undefined;
}

/** The signed-in user's cache, to update after a change. */
export function useApiCache(): ApiCache {
  const scope = useScope();
  const client = useMemo(queryClient, []);
  const set = useCallback(
    <T>(key: QueryKey, update: (current: T | undefined) => T | undefined) => {
      client.setQueryData<T>([scope, ...key], update);
    },
    [client, scope],
  );
  const refresh = useCallback((key: QueryKey) => client.invalidateQueries({ queryKey: [scope, ...key] }), [client, scope]);
  const get = useCallback(<T>(key: QueryKey) => client.getQueryData<T>([scope, ...key]), [client, scope]);
  return useMemo(() => ({ set, refresh, get }), [set, refresh, get]);
}

/** A read's failure once it is given up on: null while there is none, and while the read is tried again. */
export function failureOf(query: { error: Error | null; isFetching: boolean }): Error | null {
  return query.error && !query.isFetching ? query.error : null;
}

/** A read's failure to show in place (LoadStatus): the server's words, or `fallback`; null while it is tried again. */
export function readFailure(query: { error: Error | null; isFetching: boolean }, fallback: string): string | null {
  const failure = failureOf(query);
  return failure ? (serverMessage(failure) ?? fallback) : null;
}

/**
 * A toast each time a read fails for good (not while it is tried again), where a page tells a failure that way
 * rather than in place: a read has no event handler of its own to say so from, and TanStack Query v5 has no
 * per-query onError. `describe` says what the toast shows, or null for none. With `whenEmpty`, only a read that
 * has nothing to show instead is told.
 */
export function useFailureToast(
  query: { data?: unknown; error: Error | null; isFetching: boolean },
  describe: (error: Error) => ToastOptions | null,
  { whenEmpty = false }: { whenEmpty?: boolean } = {},
) {
  const toast = useToast();
  const failure = whenEmpty && query.data !== undefined ? null : failureOf(query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failure; `describe` is a new function each render and only words it.
  useEffect(() => {
    const shown = failure ? describe(failure) : null;
    if (shown) toast(shown);
  }, [failure, toast]);
}
