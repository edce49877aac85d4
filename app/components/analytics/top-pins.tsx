import { useId, useState } from "react";
import { ANALYTICS_SORTS, type AnalyticsPin, type AnalyticsSort, type AnalyticsWindow, PIN_SOURCE_LABELS } from "../../../contracts/pinterest/analytics.ts";
import { analyticsKeys, formatCount, formatRate, getAnalyticsPins, SORT_LABELS } from "../../lib/pinterest/analytics.ts";
import { formatInZone, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { LoadStatus } from "../load-status.tsx";
import { failureText } from "../scheduling/use-pinterest.tsx";
import { LoadMoreButton } from "../spinner.tsx";

const PAGE_SIZE = 10;

/** The pins read so far for one sort, as cached, and where the next page starts. */
interface PinPages {
  pins: AnalyticsPin[];
  total: number;
  next: string | null;
}

/** The window's pins with their pictures and figures, best first by the chosen figure, 10 at a time. */
export function TopPins({ username, days, timeZone }: { username: string; days: AnalyticsWindow; timeZone: string }) {
  const id = useId();
  const cache = useApiCache();
  const [sortBy, setSortBy] = useState<AnalyticsSort>("impressions");
  const key = analyticsKeys.pins(username, days, sortBy);
  const query = useApiQuery<PinPages>(key, async (signal) => {
    const page = await getAnalyticsPins({ username, days, sortBy, limit: PAGE_SIZE }, signal);
    return { pins: page.pins, total: page.total, next: page.nextCursor };
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState("");
  const failed = readFailure(query, "Unable to load your pins.");

  async function loadMore(cursor: string) {
    setMoreError("");
    setLoadingMore(true);
    try {
      const page = await getAnalyticsPins({ username, days, sortBy, limit: PAGE_SIZE, cursor });
      cache.set<PinPages>(key, (current) =>
        current
          ? {
              pins: [...current.pins, ...page.pins.filter((pin) => !current.pins.some((known) => known.pinId === pin.pinId))],
              total: page.total,
              next: page.nextCursor,
            }
          : current,
      );
    } catch (error) {
      setMoreError(failureText(error));
    } finally {
      setLoadingMore(false);
    }
  }

  const data = query.data;
  return (
    <section className="card analytics-card" aria-labelledby={`${id}-title`}>
      <div className="analytics-card__head">
        <h2 id={`${id}-title`}>Top pins</h2>
        <div className="field analytics-sort">
          <label className="field__label" htmlFor={`${id}-sort`}>
            Sort by
          </label>
          <select id={`${id}-sort`} className="field__input field__select" value={sortBy} onChange={(event) => setSortBy(event.target.value as AnalyticsSort)}>
            {ANALYTICS_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {!data ? (
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading your pins…" />
      ) : data.pins.length === 0 ? (
        <p className="muted">No pins with figures in this period.</p>
      ) : (
        <>
          <p className="muted small" aria-live="polite">
            {formatCount(data.pins.length)} of {formatCount(data.total)} {data.total === 1 ? "pin" : "pins"}, by {SORT_LABELS[sortBy].toLowerCase()}. Times in{" "}
            {timeZoneLabel(timeZone)}.
          </p>
          <ol className="analytics-pins" aria-label={`Top pins by ${SORT_LABELS[sortBy].toLowerCase()}`}>
            {data.pins.map((pin) => (
              <PinRow key={pin.pinId} pin={pin} timeZone={timeZone} />
            ))}
          </ol>
          {moreError && data.next ? (
            <p className="field__error" role="alert">
              Unable to load more: {moreError}
            </p>
          ) : null}
          {data.next ? <LoadMoreButton loading={loadingMore} onClick={() => data.next && void loadMore(data.next)} /> : null}
        </>
      )}
    </section>
  );
}

function PinRow({ pin, timeZone }: { pin: AnalyticsPin; timeZone: string }) {
  const title = pin.title || "Untitled pin";
  return (
    <li className="analytics-pin">
      {pin.imageUrl ? (
        <img className="analytics-pin__image" src={pin.imageUrl} alt={title} loading="lazy" width={72} height={108} />
      ) : (
        <span className="analytics-pin__image" aria-hidden="true" />
      )}
      <div className="analytics-pin__body">
        <h3 className="analytics-pin__title">
          <a href={pin.pinterestUrl} target="_blank" rel="noreferrer">
            {title}
          </a>
        </h3>
        <p className="analytics-pin__meta">
          Posted{" "}
          <time dateTime={new Date(pin.postedAt).toISOString()}>
            {formatInZone(pin.postedAt, timeZone, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" })}
          </time>
          {pin.boardName ? ` to ${pin.boardName}` : ""}
        </p>
        <p className="analytics-pin__meta">
          {pin.templateTitle ? `${pin.templateTitle} · ` : ""}
          {PIN_SOURCE_LABELS[pin.source] ?? pin.source}
        </p>
        <dl className="analytics-pin__figures">
          <div>
            <dt>Impressions</dt>
            <dd>{formatCount(pin.impressions)}</dd>
          </div>
          <div>
            <dt>Saves</dt>
            <dd>{formatCount(pin.saves)}</dd>
          </div>
          <div>
            <dt>Outbound clicks</dt>
            <dd>{formatCount(pin.outboundClicks)}</dd>
          </div>
          <div>
            <dt>Engagement</dt>
            <dd>{formatRate(pin.engagementRate)}</dd>
          </div>
        </dl>
      </div>
    </li>
  );
}
