import { Suspense, type ReactNode } from "react";
import { useHydrated } from "./use-hydrated.ts";

/**
 * Children that only run in the browser, usually a lazily loaded part of the
 * page: after hydration they render inside a Suspense boundary; before it (on
 * the server and while hydrating) `fallback` stands in, and also while their
 * code loads. Rendered on the server, a boundary around a lazy part would
 * still be waiting for that code when hydration reaches it, and React would
 * fail to hydrate it (error 421).
 */
export function AfterHydration({ fallback = null, children }: { fallback?: ReactNode; children: ReactNode }) {
  const hydrated = useHydrated();
  return hydrated ? <Suspense fallback={fallback}>{children}</Suspense> : <>{fallback}</>;
}
