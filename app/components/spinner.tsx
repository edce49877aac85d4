/** A small spinning ring; with a label it also tells screen readers what is happening. */
export function Spinner({ label, size = "small" }: { label?: string; size?: "small" | "large" }) {
  return (
    <span className={`spinner spinner--${size}`} role={label ? "status" : undefined}>
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}

/** "Load more" under a paged list: disabled, with a spinner, while the next page loads. */
export function LoadMoreButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  return (
    <button type="button" className="button button--ghost" disabled={loading} onClick={onClick}>
      {loading ? <Spinner /> : null}
      Load more
    </button>
  );
}
