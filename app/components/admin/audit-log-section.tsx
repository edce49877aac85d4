import { useState, type FormEvent } from "react";
import type { AuditLogPage } from "../../../contracts/admin/admin-users.ts";
import { serverMessage } from "../../lib/api-client.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { LoadStatus } from "../load-status.tsx";
import { auditLogKey, getAuditLog, keyInWords, localTime, valueInWords } from "./admin-api.ts";

/** What admins act on, as the audit log names them (other sections add theirs). */
const TARGET_KINDS = [
  ["", "Everything"],
  ["user", "Accounts"],
  ["redeem-batch", "Redeem code batches"],
  ["template", "Standard templates"],
  ["content", "Blog posts and pages"],
  ["payout", "Affiliate payouts"],
] as const;

function Change({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <p className="small">
      <strong>{label}:</strong>{" "}
      {typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value as Record<string, unknown>)
            .map(([key, item]) => `${keyInWords(key)}: ${valueInWords(item)}`)
            .join("; ")
        : valueInWords(value)}
    </p>
  );
}

/**
 * The admin page's "Audit log" section (issue 20, decision 051): every admin action, newest first, a page
 * at a time, for one kind of target or one target; times in the reader's time zone. Older pages are added
 * to the cached answer, so a fresh read (after an admin action) starts again from the newest page.
 */
export function AuditLogSection() {
  const [kind, setKind] = useState("");
  const [target, setTarget] = useState("");
  const [filter, setFilter] = useState<{ targetKind?: string; targetId?: string }>({});
  const key = auditLogKey(filter);
  const query = useApiQuery<AuditLogPage>(key, () => getAuditLog(filter));
  const cache = useApiCache();
  const [moreFailed, setMoreFailed] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const entries = query.data?.entries ?? null;
  const nextBefore = query.data?.nextBefore ?? null;
  const failed = readFailure(query, "We could not load the audit log.") ?? moreFailed;

  function retry() {
    setMoreFailed(null);
    void query.refetch();
  }

  async function loadMore() {
    if (nextBefore === null) return;
    setMore(true);
    try {
      const page = await getAuditLog({ ...filter, before: nextBefore });
      cache.set<AuditLogPage>(key, (shown) => ({ entries: [...(shown?.entries ?? []), ...page.entries], nextBefore: page.nextBefore }));
    } catch (error) {
      setMoreFailed(serverMessage(error) ?? "We could not load older entries.");
    } finally {
      setMore(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setMoreFailed(null);
    setFilter({ targetKind: kind || undefined, targetId: target.trim() || undefined });
  }

  return (
    <section className="card admin-section" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <form className="admin-audit__filter" onSubmit={submit} aria-label="Filter the audit log">
        <div className="field">
          <label className="field__label" htmlFor="audit-kind">
            What was changed
          </label>
          <select id="audit-kind" className="field__input field__select" value={kind} onChange={(event) => setKind(event.target.value)}>
            {TARGET_KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="audit-target">
            Target id (optional)
          </label>
          <input id="audit-target" className="field__input" type="text" maxLength={200} value={target} onChange={(event) => setTarget(event.target.value)} />
        </div>
        <button type="submit" className="button button--primary">
          Show
        </button>
      </form>
      {failed || !entries ? (
        <LoadStatus failed={failed} onRetry={retry} loading="Loading the audit log…" />
      ) : entries.length === 0 ? (
        <p className="muted" role="status">
          No admin action recorded{filter.targetKind || filter.targetId ? " for this filter" : " yet"}.
        </p>
      ) : (
        <>
          <ol className="admin-audit" aria-label="Admin actions, newest first">
            {entries.map((entry) => (
              <li key={entry.id} className="admin-audit__entry">
                <p className="admin-audit__summary">
                  <strong>{entry.summary}</strong>
                </p>
                <p className="muted small">
                  {localTime(entry.createdAt)} · by {entry.adminEmail} · {entry.targetKind} {entry.targetId}
                </p>
                <Change label="Before" value={entry.before} />
                <Change label="After" value={entry.after} />
              </li>
            ))}
          </ol>
          {nextBefore !== null && (
            <button type="button" className="button button--ghost" disabled={more} onClick={loadMore}>
              {more ? "Loading…" : "Show older entries"}
            </button>
          )}
        </>
      )}
    </section>
  );
}
