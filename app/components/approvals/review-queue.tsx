import { useCallback, useId, useState } from "react";
import { MAX_REVIEW_COMMENT, type ReviewQueueResponse, type ReviewResult } from "../../../contracts/pinterest/approvals.ts";
import type { ScheduledPin } from "../../../contracts/pinterest/scheduling-api.ts";
import { fetchReviewQueue, sendReview } from "../../lib/approvals.ts";
import { failureOf, useApiCache, useApiQuery } from "../../lib/query.ts";
import { LoadStatus } from "../load-status.tsx";
import { failureText } from "../scheduling/use-pinterest.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { goesOutText } from "./when.ts";

type Decision = "approve" | "reject";

/** Where a review link's queue is cached (app/lib/query.ts): by its token, whoever is signed in. */
const reviewKey = (token: string) => ["approvals", "review", token];

/** What one review batch did, in words: "2 pins approved, 1 rejected". */
function batchSummary(results: ReviewResult[]): string {
  const approved = results.filter((r) => r.ok && r.decision === "approved").length;
  const rejected = results.filter((r) => r.ok && r.decision === "rejected").length;
  const parts = [
    approved > 0 ? `${approved} ${approved === 1 ? "pin" : "pins"} approved` : null,
    rejected > 0 ? `${rejected} ${rejected === 1 ? "pin" : "pins"} rejected` : null,
  ];
  return parts.filter(Boolean).join(", ");
}

/**
 * /post-approvals opened from a reviewer's signed link (decision 052): only the pins of one profile waiting
 * for approval, each approved or rejected with a comment, one by one or the selected ones together. The
 * queue is read through the data layer under its link's token; reviewed pins leave the cached answer.
 */
export function ReviewQueue({ token }: { token: string }) {
  const toast = useToast();
  const cache = useApiCache();
  // The link's token allows it: the reviewer need not be signed in.
  const query = useApiQuery<ReviewQueueResponse>(reviewKey(token), () => fetchReviewQueue(token), { public: true });
  const queue = query.data ?? null;
  const failure = failureOf(query);
  const failed = failure ? failureText(failure) : null;
  const [comments, setComments] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const decide = useCallback(
    async (ids: string[], decision: Decision) => {
      if (ids.length === 0) return;
      setBusy(true);
      try {
        const { results } = await sendReview(
          token,
          ids.map((pinId) => ({ pinId, decision, ...(comments[pinId]?.trim() ? { comment: comments[pinId].trim() } : {}) })),
        );
        const done = new Set(results.filter((r) => r.ok).map((r) => r.pinId));
        cache.set<ReviewQueueResponse>(reviewKey(token), (current) => current && { ...current, pins: current.pins.filter((pin) => !done.has(pin.id)) });
        setSelected((current) => new Set([...current].filter((id) => !done.has(id))));
        setErrors((current) => {
          const next = { ...current };
          for (const result of results) {
            if (result.ok) delete next[result.pinId];
            else next[result.pinId] = result.error;
          }
          return next;
        });
        const summary = batchSummary(results);
        const refused = results.filter((r) => !r.ok).length;
        if (summary)
          toast({ title: summary, description: refused > 0 ? `${refused} could not be reviewed: see the message on each.` : undefined, kind: "success" });
        else toast({ title: "Nothing was reviewed", description: "See the message on each pin.", kind: "error" });
      } catch (error) {
        toast({ title: "Unable to send your review", description: failureText(error), kind: "error" });
      } finally {
        setBusy(false);
      }
    },
    [token, comments, toast, cache],
  );

  if (!queue) {
    return (
      <main className="page approvals-page">
        <h1>Pins waiting for your approval</h1>
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading the pins waiting for you…" />
      </main>
    );
  }

  const allSelected = queue.pins.length > 0 && queue.pins.every((pin) => selected.has(pin.id));
  return (
    <main className="page approvals-page">
      <header>
        <h1>Pins waiting for your approval</h1>
        <p className="muted">
          {queue.ownerName} asks you to approve pins for the Pinterest profile <strong>{queue.pinterestProfileUsername}</strong> before they are posted. Times
          are in your time zone.
        </p>
      </header>
      {queue.pins.length === 0 ? (
        <p className="card" role="status">
          Nothing is waiting for your review right now.
        </p>
      ) : (
        <>
          <div className="approvals-bulk" role="group" aria-label="Review the selected pins">
            <label className="approvals-check">
              <input
                type="checkbox"
                checked={allSelected}
                onChange={(event) => setSelected(event.target.checked ? new Set(queue.pins.map((pin) => pin.id)) : new Set())}
              />
              Select all
            </label>
            <button
              type="button"
              className="button button--primary"
              disabled={busy || selected.size === 0}
              onClick={() => void decide([...selected], "approve")}
            >
              Approve selected ({selected.size})
            </button>
            <button type="button" className="button button--danger" disabled={busy || selected.size === 0} onClick={() => void decide([...selected], "reject")}>
              Reject selected ({selected.size})
            </button>
            {busy ? (
              <span role="status" className="approvals-busy">
                <Spinner /> Sending your review…
              </span>
            ) : null}
          </div>
          <ul className="approvals-pins">
            {queue.pins.map((pin) => (
              <ReviewItem
                key={pin.id}
                pin={pin}
                busy={busy}
                selected={selected.has(pin.id)}
                onSelect={(on) =>
                  setSelected((current) => {
                    const next = new Set(current);
                    if (on) next.add(pin.id);
                    else next.delete(pin.id);
                    return next;
                  })
                }
                comment={comments[pin.id] ?? ""}
                onComment={(text) => setComments((current) => ({ ...current, [pin.id]: text }))}
                error={errors[pin.id] ?? null}
                onDecide={(decision) => void decide([pin.id], decision)}
              />
            ))}
          </ul>
        </>
      )}
    </main>
  );
}

function ReviewItem(props: {
  pin: ScheduledPin;
  busy: boolean;
  selected: boolean;
  onSelect(on: boolean): void;
  comment: string;
  onComment(text: string): void;
  error: string | null;
  onDecide(decision: Decision): void;
}) {
  const { pin } = props;
  const id = useId();
  const title = pin.title || "Untitled pin";
  const image = pin.imageURL || pin.mediaURL || pin.videoThumbnail;
  return (
    <li className="card approvals-pin" aria-labelledby={`${id}-title`}>
      {image ? <img className="approvals-pin__image" src={image} alt={pin.altText || title} referrerPolicy="no-referrer" loading="lazy" /> : null}
      <div className="approvals-pin__body">
        <div className="approvals-pin__head">
          <input id={`${id}-select`} type="checkbox" checked={props.selected} onChange={(event) => props.onSelect(event.target.checked)} />
          <label htmlFor={`${id}-select`} className="visually-hidden">
            Select “{title}”
          </label>
          <h2 id={`${id}-title`} className="approvals-pin__title">
            {title}
          </h2>
        </div>
        {pin.description ? <p>{pin.description}</p> : null}
        <dl className="approvals-facts">
          <div>
            <dt>Board</dt>
            <dd>{pin.boardName || pin.boardId}</dd>
          </div>
          <div>
            <dt>Link</dt>
            <dd>
              {pin.url ? (
                <a href={pin.url} target="_blank" rel="noopener noreferrer">
                  {pin.url}
                </a>
              ) : (
                "No link"
              )}
            </dd>
          </div>
          <div>
            <dt>Goes out</dt>
            <dd>{goesOutText(pin.scheduledTimeUTCTimestamp)}</dd>
          </div>
        </dl>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-comment`}>
            Comment on “{title}” (optional)
          </label>
          <textarea
            id={`${id}-comment`}
            className="field__input"
            rows={2}
            maxLength={MAX_REVIEW_COMMENT}
            value={props.comment}
            onChange={(event) => props.onComment(event.target.value)}
          />
        </div>
        {props.error ? (
          <p className="field__error" role="alert">
            {props.error}
          </p>
        ) : null}
        <div className="approvals-pin__actions">
          <button type="button" className="button button--primary" disabled={props.busy} onClick={() => props.onDecide("approve")}>
            Approve<span className="visually-hidden"> “{title}”</span>
          </button>
          <button type="button" className="button button--danger" disabled={props.busy} onClick={() => props.onDecide("reject")}>
            Reject<span className="visually-hidden"> “{title}”</span>
          </button>
        </div>
      </div>
    </li>
  );
}
