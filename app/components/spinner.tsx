/** A small spinning ring; with a label it also tells screen readers what is happening. */
export function Spinner({ label, size = "small" }: { label?: string; size?: "small" | "large" }) {
  return (
    <span className={`spinner spinner--${size}`} role={label ? "status" : undefined}>
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}
