import { Spinner } from "./spinner.tsx";

/** What a section shows until its data is there: the failure with "Try again", or a spinner with what is loading. */
export function LoadStatus({ failed, onRetry, loading }: { failed: string | null; onRetry(): void; loading: string }) {
  if (failed) {
    return (
      <div role="alert">
        <p>{failed}</p>
        <button type="button" className="button button--ghost" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <div className="loading" role="status">
      <Spinner />
      <span>{loading}</span>
    </div>
  );
}
