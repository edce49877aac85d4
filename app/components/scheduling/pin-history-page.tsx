import { useState } from "react";
import { archiveFileName, HISTORY_ONLINE_MONTHS, monthStart, type PinHistoryArchives } from "../../../contracts/pinterest/history-archives.ts";
import type { PinPublicState } from "../../../contracts/pinterest/public-pins.ts";
import type { PinHistoryItem, PinHistoryState } from "../../../contracts/pinterest/scheduling-api.ts";
import { apiJson } from "../../lib/api-client.ts";
import { useAuth } from "../../lib/auth.tsx";
import { getPinHistory, nextPinHistoryCursor, type PinHistoryCursor } from "../../lib/pinterest/scheduling-api.ts";
import { formatInZone, GMT, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { failureOf, useApiCache, useApiQuery } from "../../lib/query.ts";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { schedulingKeys } from "./reads.ts";
import { failureText } from "./use-pinterest.tsx";

const STATE_LABELS: Record<PinHistoryState, string> = {
  downloaded: "Downloaded",
  scheduled: "Scheduled",
  awaiting: "Awaiting approval",
  posting: "Posting",
  paused: "Paused",
  posted: "Posted",
  failed: "Failed",
  deleted: "Deleted",
};
const STATE_BADGES: Record<PinHistoryState, string> = {
  downloaded: "badge badge--warning",
  scheduled: "badge badge--neutral",
  awaiting: "badge badge--warning",
  posting: "badge badge--neutral",
  paused: "badge badge--warning",
  posted: "badge badge--success",
  failed: "badge badge--danger",
  deleted: "badge badge--neutral",
};

/** The zone an entry's times are shown in: its profile's schedule's, else the browser's. */
function zoneOf(item: PinHistoryItem): string {
  return item.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? GMT.value;
}

/** /pin-history (spec section 2): posted, downloaded and scheduled pins, newest first, 30 at a time. */
export function PinHistoryPage() {
  const { user } = useAuth();
  if (!user) {
    return <SignInPage title="Pin history" action="see your pin history" />;
  }
  return <PinHistory />;
}

/** The entries read so far, as they are cached, and where the next page starts. */
interface HistoryPages {
  items: PinHistoryItem[];
  next: PinHistoryCursor | null;
  /** How many pages `items` holds. */
  pages: number;
}

/**
 * The history is one cached value: the read is its first page, and "Load more" adds the next page to it
 * (an entry already listed keeps its place). Coming back to the window reads it again only while one page is
 * shown, so the pages the user asked for stay.
 */
function PinHistory() {
  const cache = useApiCache();
  const key = schedulingKeys.pinHistory();
  const query = useApiQuery<HistoryPages>(
    key,
    async () => {
      const page = (await getPinHistory({ startAtDate: null })).pinHistory;
      return { items: page, next: nextPinHistoryCursor(page.length, page), pages: 1 };
    },
    { refetchOnWindowFocus: (read) => (read.state.data?.pages ?? 0) <= 1 },
  );
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState("");
  const failure = failureOf(query);
  const items = query.data?.items ?? [];
  const next = query.data?.next ?? null;
  const state: "loading" | "ready" | "more" | "failed" = failure ? "failed" : !query.data ? "loading" : loadingMore ? "more" : "ready";

  async function loadMore(cursor: PinHistoryCursor) {
    setMoreError("");
    setLoadingMore(true);
    try {
      const page = (await getPinHistory(cursor)).pinHistory;
      cache.set<HistoryPages>(key, (current) => {
        if (!current) return current;
        const merged = [...current.items, ...page.filter((item) => !current.items.some((known) => known.id === item.id))];
        return { items: merged, next: nextPinHistoryCursor(current.items.length + page.length, page), pages: current.pages + 1 };
      });
    } catch (error) {
      setMoreError(failureText(error));
    } finally {
      setLoadingMore(false);
    }
  }

  /** An entry changed by the user (made public or private): the cached history holds its new state. */
  const changed = (entry: PinHistoryItem) =>
    cache.set<HistoryPages>(key, (current) => current && { ...current, items: current.items.map((known) => (known.id === entry.id ? entry : known)) });

  return (
    <main className="page pin-history-page">
      <header className="scheduling-page__header">
        <h1>Pin history</h1>
        <p className="muted">Pins you posted, scheduled and downloaded: one entry per pin, with when it posts and the credits it used.</p>
      </header>
      {state === "loading" ? (
        <p className="loading">
          <Spinner label="Loading your pin history" /> Loading your pin history…
        </p>
      ) : state === "failed" ? (
        <p className="notice notice--error" role="alert">
          Unable to load your pin history: {failure ? failureText(failure) : ""}{" "}
          <button type="button" className="link-button" onClick={() => void query.refetch()}>
            Try again
          </button>
        </p>
      ) : items.length === 0 ? (
        <p className="muted">No pins yet. Pins you download, schedule or post appear here.</p>
      ) : (
        <ol className="history-list" aria-label="Pin history">
          {items.map((item) => (
            <HistoryItem key={item.id} item={item} onChange={changed} />
          ))}
        </ol>
      )}
      {state !== "loading" && state !== "failed" && moreError && next ? (
        <p className="field__error" role="alert">
          Unable to load more: {moreError}
        </p>
      ) : null}
      {next && state !== "loading" && state !== "failed" ? (
        <button type="button" className="button button--ghost history-more" disabled={state === "more"} onClick={() => void loadMore(next)}>
          {state === "more" ? <Spinner label="Loading" /> : null} Load more
        </button>
      ) : null}
      {state !== "loading" && state !== "failed" ? <HistoryArchives /> : null}
    </main>
  );
}

/** Months older than the 13 kept on this page, each a file to download (decision 084). Nothing is shown without any. */
function HistoryArchives() {
  const query = useApiQuery(schedulingKeys.pinHistoryArchives(), (signal) => apiJson<PinHistoryArchives>("/api/user/pinHistory/archives", { signal }));
  const archives = query.data?.archives ?? null;
  const failure = failureOf(query);
  if (failure) {
    return (
      <p className="field__error" role="alert">
        Unable to list your older months: {failureText(failure)}
      </p>
    );
  }
  if (!archives || archives.length === 0) return null;
  return (
    <section className="history-archives" aria-labelledby="history-archives-title">
      <h2 id="history-archives-title">Older months</h2>
      <p className="muted">
        This page shows the last {HISTORY_ONLINE_MONTHS} months. Older pins are kept as one file per month (JSON lines, compressed with gzip) that you can
        download.
      </p>
      <ul className="history-archives__list">
        {archives.map((archive) => (
          <li key={archive.month}>
            <a href={`/api/user/pinHistory/archives/${archive.month}`} download={archiveFileName(archive.month)}>
              {monthLabel(archive.month)}
            </a>{" "}
            <span className="muted">
              ({archive.entries} {archive.entries === 1 ? "pin" : "pins"}, {Math.max(1, Math.round(archive.bytes / 1024))} KB)
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "March 2025" for "2025-03". */
function monthLabel(month: string): string {
  return new Date(monthStart(month)).toLocaleDateString(undefined, { month: "long", year: "numeric", timeZone: "UTC" });
}

function HistoryItem({ item, onChange }: { item: PinHistoryItem; onChange(item: PinHistoryItem): void }) {
  const name = item.title || "Untitled pin";
  const zone = zoneOf(item);
  const label = STATE_LABELS[item.state];
  return (
    <li className="history-item" aria-label={`${label}: ${name}`}>
      {item.imageUrl ? (
        <img className="history-item__thumb" src={item.imageUrl} alt="" loading="lazy" width={64} height={96} />
      ) : (
        <span className="history-item__thumb" aria-hidden="true" />
      )}
      <div className="history-item__body">
        <h2 className="history-item__title">{name}</h2>
        <p className="history-item__meta">
          <span className={STATE_BADGES[item.state]}>{label}</span>
        </p>
        <dl className="history-item__times">
          {item.state === "downloaded" ? <Moment term="Downloaded" ms={item.createdAtUTCTimestamp} zone={zone} /> : null}
          {item.scheduledForUTCTimestamp !== null ? <Moment term="Scheduled for" ms={item.scheduledForUTCTimestamp} zone={zone} /> : null}
          {item.postedAtUTCTimestamp !== null ? <Moment term="Posted" ms={item.postedAtUTCTimestamp} zone={zone} /> : null}
        </dl>
        {item.error ? <p className="history-item__meta history-item__error">{item.error}</p> : null}
        {item.boardName || item.boardId || item.pinterestProfile ? (
          <p className="history-item__meta">
            {item.boardName || item.boardId ? <span>Board: {item.boardName || item.boardId}</span> : null}
            {item.pinterestProfile ? <span> · {item.pinterestProfile}</span> : null}
          </p>
        ) : null}
        <p className="history-item__meta">
          {item.pinterestUrl ? (
            <a href={item.pinterestUrl} target="_blank" rel="noreferrer">
              View on Pinterest
            </a>
          ) : item.url ? (
            <a href={item.url} target="_blank" rel="noreferrer" className="history-item__link">
              {item.url}
            </a>
          ) : null}
        </p>
        {item.imageUrl && item.mediaType === "image" ? <PublicSwitch item={item} onChange={onChange} /> : null}
      </div>
      <p className="history-item__credits">
        <strong>{formatCredits(item.credits)}</strong> {item.credits === 1 ? "credit" : "credits"}
      </p>
    </li>
  );
}

/** Makes a pin public (its page at /users/{handle}/{id}) or private again (decision 055). */
function PublicSwitch({ item, onChange }: { item: PinHistoryItem; onChange(item: PinHistoryItem): void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const change = async (isPublic: boolean) => {
    setBusy(true);
    try {
      const { pin } = await apiJson<{ pin: PinPublicState }>("/api/user/pinHistory/setPublic", { json: { id: item.id, isPublic } });
      onChange({ ...item, publicUrl: pin.publicUrl });
      toast({
        title: isPublic ? "Your pin is public" : "Your pin is private again",
        description: isPublic ? "Anyone with its link can see it." : "Its public page is gone.",
        kind: "success",
      });
    } catch (error) {
      toast({ title: isPublic ? "Unable to make the pin public" : "Unable to make the pin private", description: failureText(error), kind: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <p className="history-item__meta history-item__public">
      {item.publicUrl ? (
        <>
          <a href={item.publicUrl}>Public page</a>
          <button type="button" className="link-button" disabled={busy} onClick={() => void change(false)}>
            Make private
          </button>
        </>
      ) : (
        <button type="button" className="link-button" disabled={busy} onClick={() => void change(true)}>
          Make public
        </button>
      )}
    </p>
  );
}

/** One moment of an entry, in its zone: "Scheduled for  Tue, 24 Nov 2026, 19:05 GMT". */
function Moment({ term, ms, zone }: { term: string; ms: number; zone: string }) {
  return (
    <div className="history-item__time">
      <dt>{term}</dt>
      <dd>
        <time dateTime={new Date(ms).toISOString()}>
          {formatInZone(ms, zone)} {timeZoneLabel(zone)}
        </time>
      </dd>
    </div>
  );
}

function formatCredits(credits: number): string {
  return Number.isInteger(credits) ? String(credits) : credits.toFixed(1);
}
