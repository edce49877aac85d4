import { Component, lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { LAZY_LOAD_FAILED, LazyLoadError, withLoadTimeout } from "./lazy-load.ts";

/** React.lazy with the time limit: render it inside a LazyPart, which says so when it fails. */
// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own signature (ComponentType<any>): its props are the loaded component's.
export function lazyWithTimeout<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() => withLoadTimeout(load()));
}

class LoadFailureBoundary extends Component<{ failed: ReactNode; children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    // Only a failed load is answered here; any other error goes on to the route's error boundary.
    if (!(error instanceof LazyLoadError)) throw error;
    return this.props.failed;
  }
}

/** The message in place of a part that did not load, with a way to try again. */
export function LoadFailed() {
  return (
    <div role="alert" className="load-failed">
      <p>{LAZY_LOAD_FAILED}</p>
      <button type="button" className="button button--ghost" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </div>
  );
}

/**
 * Where a lazily loaded part of a page goes: `fallback` while its code loads,
 * and when the code fails to load or takes over 120 seconds, the LoadFailed
 * message (or nothing, `quiet`, for parts the visitor did not ask for: a
 * popup, the toasts, the navbar's credits).
 */
export function LazyPart({ fallback = null, quiet = false, children }: { fallback?: ReactNode; quiet?: boolean; children: ReactNode }) {
  return (
    <LoadFailureBoundary failed={quiet ? null : <LoadFailed />}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </LoadFailureBoundary>
  );
}
