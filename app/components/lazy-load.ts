/**
 * The time limit of lazily loaded code (spec section 4: lazy screen loading times out after 120 seconds),
 * apart from the components (lazy-part.tsx) so that tests and plain modules can use it.
 */

/** Spec section 4: lazy screen loading times out after 120 seconds. */
export const LAZY_LOAD_TIMEOUT_MS = 120_000;

/** What a part of the page says when its code could not be loaded (offline, a timed-out or replaced chunk). */
export const LAZY_LOAD_FAILED = "This part of the page did not load. Please check your connection and reload the page.";

/** A lazily loaded module that failed to arrive, or did not arrive within the time limit. */
export class LazyLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LazyLoadError";
  }
}

/** `loading`, failing with a LazyLoadError when it fails or is not there after `ms` milliseconds. */
export function withLoadTimeout<T>(loading: Promise<T>, ms = LAZY_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LazyLoadError(`Loading took longer than ${ms / 1000} seconds`)), ms);
    loading.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new LazyLoadError("Loading failed", { cause: error }));
      },
    );
  });
}
