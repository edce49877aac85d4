import type { ReactNode } from "react";
import { LazyPart } from "../lazy-part.tsx";
import { useHydrated } from "./use-hydrated.ts";

/**
 * Children that only run in the browser, usually a lazily loaded part of the
 * page: after hydration they render inside a LazyPart (a Suspense boundary that
 * also answers a load that failed or took over 120 seconds); before it (on
 * the server and while hydrating) `fallback` stands in, and also while their
 * code loads. Rendered on the server, a boundary around a lazy part would
 * still be waiting for that code when hydration reaches it, and React would
 * fail to hydrate it (error 421). `quiet`: a failed load shows nothing.
 */
export function AfterHydration({ fallback = null, quiet = false, children }: { fallback?: ReactNode; quiet?: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return hydrated ? (
    <LazyPart fallback={fallback} quiet={quiet}>
      {children}
    </LazyPart>
  ) : (
    fallback
  );
}
