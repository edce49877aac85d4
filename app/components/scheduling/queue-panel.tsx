import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState } from "react";
import {
  DELETED_ALL_PINS_MESSAGE,
  RESET_TIMES_FAILED_MESSAGE,
  UPDATED_PINS_MESSAGE,
  type QueueView,
  type ScheduledPin,
} from "../../../contracts/pinterest/scheduling-api.ts";
import { mapLimit } from "../../lib/generator/tasks.ts";
import { isWaiting, STATUS_LABELS, swapWithNeighbour } from "../../lib/pinterest/queue.ts";
import {
  deleteAllScheduledPins,
  deleteScheduledPin,
  getScheduledPins,
  resetScheduledTimes,
  updateScheduledPin,
  updateScheduledPins,
  type PinUpdateBody,
} from "../../lib/pinterest/scheduling-api.ts";
import { formatInZone, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { useApiCache } from "../../lib/query.ts";
import { Spinner } from "../spinner.tsx";
import { useToast } from "../shell/toast.tsx";
import { PinEditDialog } from "./pin-edit-dialog.tsx";
import { failureText, type Pinterest } from "./use-pinterest.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { schedulingKeys } from "./reads.ts";
import { usePagedList } from "./use-paged-list.ts";

const VIEWS: { value: QueueView; label: string }[] = [
  { value: "pending", label: "Upcoming" },
  { value: "posted", label: "Posted" },
  { value: "failed", label: "Failed" },
  { value: "all", label: "All" },
];

type Confirm = { kind: "one"; pin: ScheduledPin } | { kind: "selected"; ids: string[] } | { kind: "all" };

export interface DayFilter {
  key: string;
  label: string;
  pins: ScheduledPin[];
}

/**
 * The queue of the active profile: its pins with thumbnail, title, board,
 * time (in the profile's time zone) and status; edit, delete, move up or
 * down (which swaps times), bulk actions and paging. A day chosen in the
 * calendar narrows the list to that day. After a change the profile's pin
 * lists (queue, calendar, repeating pins) are read again; the actions stay
 * busy until the queue's fresh answer is in.
 */
export function QueuePanel({
  username,
  zone,
  pinterest,
  day,
  onClearDay,
}: {
  username: string;
  zone: string;
  pinterest: Pinterest;
  day: DayFilter | null;
  onClearDay(): void;
}) {
  const id = useId();
  const toast = useToast();
  const cache = useApiCache();
  const [view, setView] = useState<QueueView>("pending");
  const {
    items: pins,
    totalCount,
    next,
    state,
    loadError,
    reload,
    loadMore,
  } = usePagedList(
    schedulingKeys.queue(username, view),
    async (lastPinId) => {
      const answer = await getScheduledPins(username, { status: view, ...(lastPinId ? { lastPinId } : {}) });
      return { items: answer.scheduledPins, totalCount: answer.totalCount };
    },
    "Unable to load more pins",
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<ScheduledPin | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [working, setWorking] = useState<string | null>(null);

  // Another view or day starts with nothing selected (the panel is remounted for another profile).
  const selectionOf = `${view} ${day?.key ?? ""}`;
  const [selectedIn, setSelectedIn] = useState(selectionOf);
  if (selectedIn !== selectionOf) {
    setSelectedIn(selectionOf);
    setSelected(new Set());
  }

  /** The queue changed: every pin list of the profile is read again; resolves once the queue is. */
  function changed(): Promise<void> {
    void cache.refresh(schedulingKeys.calendar(username));
    void cache.refresh(schedulingKeys.repeating(username));
    return cache.refresh(schedulingKeys.queue(username));
  }

  const shown = day ? day.pins : pins;
  const chosen = shown.filter((pin) => selected.has(pin.id));
  const allChosen = shown.length > 0 && chosen.length === shown.length;

  async function run(label: string, task: () => Promise<void>) {
    setWorking(label);
    try {
      await task();
    } finally {
      setWorking(null);
    }
  }

  const move = (pin: ScheduledPin, direction: -1 | 1) =>
    run("Moving the pin", async () => {
      const swaps = swapWithNeighbour(shown, pin.id, direction);
      if (!swaps) return;
      try {
        await updateScheduledPins(username, swaps);
        toast({ title: UPDATED_PINS_MESSAGE, kind: "success" });
        await changed();
      } catch (error) {
        toast({ title: "Unable to move the pin", description: failureText(error), kind: "error" });
      }
    });

  async function saveEdit(update: PinUpdateBody) {
    await updateScheduledPin(update);
    setEditing(null);
    toast({ title: UPDATED_PINS_MESSAGE, kind: "success" });
    void changed();
  }

  const confirmed = (what: Confirm) =>
    run("Deleting", async () => {
      setConfirm(null);
      if (what.kind === "all") {
        try {
          await deleteAllScheduledPins(username);
          toast({ title: DELETED_ALL_PINS_MESSAGE, kind: "success" });
        } catch (error) {
          toast({ title: "Unable to delete the scheduled pins", description: failureText(error), kind: "error" });
        }
      } else {
        const ids = what.kind === "one" ? [what.pin.id] : what.ids;
        const failures: string[] = [];
        await mapLimit(ids, 4, async (pinId) => {
          try {
            await deleteScheduledPin(pinId);
          } catch (error) {
            failures.push(failureText(error));
          }
        });
        const deleted = ids.length - failures.length;
        if (deleted > 0) toast({ title: deleted === 1 ? "Pin deleted" : `${deleted} pins deleted`, kind: "success" });
        if (failures.length > 0)
          toast({ title: `${failures.length} ${failures.length === 1 ? "pin" : "pins"} could not be deleted`, description: failures[0], kind: "error" });
      }
      setSelected(new Set());
      await changed();
    });

  const resetTimes = () =>
    run("Resetting times", async () => {
      try {
        await resetScheduledTimes(username);
        toast({ title: UPDATED_PINS_MESSAGE, kind: "success" });
        await changed();
      } catch {
        toast({ title: RESET_TIMES_FAILED_MESSAGE, kind: "error" });
      }
    });

  const heading = day ? `Pins on ${day.label}` : "Queue";
  return (
    <section className="card queue-panel" aria-labelledby={`${id}-title`} aria-busy={state === "loading" || working !== null}>
      <div className="queue-panel__head">
        <h2 id={`${id}-title`}>{heading}</h2>
        {day ? (
          <button type="button" className="chip-button" onClick={onClearDay}>
            Show the whole queue
          </button>
        ) : (
          <span className="queue-panel__view">
            <label htmlFor={`${id}-view`}>Show</label>
            <select id={`${id}-view`} className="field__input field__select" value={view} onChange={(event) => setView(event.target.value as QueueView)}>
              {VIEWS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </span>
        )}
      </div>
      <p className="muted small">
        {day ? `${shown.length} ${shown.length === 1 ? "pin" : "pins"}` : `${totalCount} ${totalCount === 1 ? "pin" : "pins"}`} · times in {timeZoneLabel(zone)}
      </p>

      <div className="queue-panel__bulk" role="toolbar" aria-label="Queue actions">
        <label className="check">
          <input
            type="checkbox"
            checked={allChosen}
            disabled={shown.length === 0}
            onChange={() => setSelected(allChosen ? new Set() : new Set(shown.map((pin) => pin.id)))}
          />
          Select all
        </label>
        <button
          type="button"
          className="chip-button chip-button--danger"
          disabled={working !== null || chosen.length === 0}
          onClick={() => setConfirm({ kind: "selected", ids: chosen.map((pin) => pin.id) })}
        >
          Delete selected{chosen.length > 0 ? ` (${chosen.length})` : ""}
        </button>
        <button type="button" className="chip-button" disabled={working !== null} onClick={() => void resetTimes()}>
          Reset times
        </button>
        <button type="button" className="chip-button chip-button--danger" disabled={working !== null} onClick={() => setConfirm({ kind: "all" })}>
          Delete all
        </button>
        {working ? <Spinner label={working} /> : null}
      </div>

      {state === "loading" && !day ? (
        <p className="loading">
          <Spinner label="Loading the queue" /> Loading the queue…
        </p>
      ) : state === "failed" && !day ? (
        <p className="notice notice--error" role="alert">
          Unable to load the scheduled pins: {loadError}{" "}
          <button type="button" className="link-button" onClick={reload}>
            Try again
          </button>
        </p>
      ) : shown.length === 0 ? (
        <p className="queue-panel__empty muted">
          {day ? "No pins on this day." : view === "pending" ? "Nothing is scheduled. Schedule pins from the generator." : "No pins here."}
        </p>
      ) : (
        <ol className="queue-list" aria-label={heading}>
          {shown.map((pin, index) => (
            <QueueItem
              key={pin.id}
              pin={pin}
              zone={zone}
              selected={selected.has(pin.id)}
              disabled={working !== null}
              canMoveUp={swapWithNeighbour(shown, pin.id, -1) !== null}
              canMoveDown={swapWithNeighbour(shown, pin.id, 1) !== null}
              number={index + 1}
              onSelect={(on) =>
                setSelected((current) => {
                  const nextSet = new Set(current);
                  if (on) nextSet.add(pin.id);
                  else nextSet.delete(pin.id);
                  return nextSet;
                })
              }
              onEdit={() => setEditing(pin)}
              onMove={(direction) => void move(pin, direction)}
              onDelete={() => setConfirm({ kind: "one", pin })}
            />
          ))}
        </ol>
      )}
      {!day && next ? (
        <button type="button" className="button button--ghost queue-panel__more" disabled={state === "more"} onClick={() => void loadMore()}>
          {state === "more" ? <Spinner label="Loading" /> : null} Load more
        </button>
      ) : null}

      <PinEditDialog pin={editing} zone={zone} pinterest={pinterest} onCancel={() => setEditing(null)} onSave={saveEdit} />

      <Dialog.Root open={confirm !== null} onOpenChange={(open) => !open && setConfirm(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">
              {confirm?.kind === "all"
                ? "Delete all scheduled pins?"
                : confirm?.kind === "selected"
                  ? `Delete ${confirm.ids.length} pins?`
                  : "Delete this pin?"}
            </Dialog.Title>
            <Dialog.Description className="dialog__text">
              {confirm?.kind === "all"
                ? `Every pin waiting in ${username}'s queue is removed and will not be posted.`
                : "Deleted pins are not posted. Credits already used are not returned."}
            </Dialog.Description>
            <DialogActions>
              <button type="button" className="button button--danger" onClick={() => confirm && void confirmed(confirm)}>
                Delete
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}

function QueueItem({
  pin,
  zone,
  number,
  selected,
  disabled,
  canMoveUp,
  canMoveDown,
  onSelect,
  onEdit,
  onMove,
  onDelete,
}: {
  pin: ScheduledPin;
  zone: string;
  number: number;
  selected: boolean;
  disabled: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onSelect(on: boolean): void;
  onEdit(): void;
  onMove(direction: -1 | 1): void;
  onDelete(): void;
}) {
  const name = pin.title || `Pin ${number}`;
  const thumbnail = pin.mediaType === "video" ? pin.videoThumbnail || pin.imageURL : pin.imageURL || pin.mediaURL;
  const when = pin.status === "posted" && pin.postedAt ? Date.parse(pin.postedAt) : pin.scheduledTimeUTCTimestamp;
  const waiting = isWaiting(pin.status);
  const badge =
    pin.status === "posted"
      ? "badge badge--success"
      : pin.status === "failed"
        ? "badge badge--danger"
        : pin.status === "paused"
          ? "badge badge--warning"
          : "badge badge--neutral";
  return (
    <li className={`queue-item${selected ? " queue-item--selected" : ""}`} data-pin-id={pin.id} aria-label={name}>
      <input
        className="queue-item__check"
        type="checkbox"
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        aria-label={`Select ${name}`}
      />
      {thumbnail ? (
        <img className="queue-item__thumb" src={thumbnail} alt="" loading="lazy" width={56} height={84} />
      ) : (
        <span className="queue-item__thumb" aria-hidden="true" />
      )}
      <div className="queue-item__body">
        <h3 className="queue-item__title">{name}</h3>
        <p className="queue-item__meta">
          <span>{pin.boardName || pin.boardId}</span>
          <span aria-hidden="true"> · </span>
          <time dateTime={new Date(when).toISOString()}>{formatInZone(when, zone)}</time>
        </p>
        <p className="queue-item__status">
          <span className={badge}>{STATUS_LABELS[pin.status]}</span>
          {pin.type === "SpecificDate" ? <span className="muted small"> fixed time</span> : null}
          {pin.pinterestUrl ? (
            <>
              {" "}
              <a href={pin.pinterestUrl} target="_blank" rel="noreferrer" className="small">
                View on Pinterest
              </a>
            </>
          ) : null}
        </p>
        {pin.error ? (
          <p className={pin.status === "failed" ? "queue-item__error" : "queue-item__note"} role={pin.status === "failed" ? "alert" : undefined}>
            {pin.error}
          </p>
        ) : null}
      </div>
      <div className="queue-item__actions">
        {waiting ? (
          <>
            <button type="button" className="chip-button" disabled={disabled} onClick={onEdit} aria-label={`Edit ${name}`}>
              Edit
            </button>
            <button type="button" className="chip-button" disabled={disabled || !canMoveUp} onClick={() => onMove(-1)} aria-label={`Move ${name} up`}>
              <span aria-hidden="true">↑</span> Up
            </button>
            <button type="button" className="chip-button" disabled={disabled || !canMoveDown} onClick={() => onMove(1)} aria-label={`Move ${name} down`}>
              <span aria-hidden="true">↓</span> Down
            </button>
          </>
        ) : null}
        {pin.status !== "posting" && pin.status !== "posted" ? (
          <button type="button" className="chip-button chip-button--danger" disabled={disabled} onClick={onDelete} aria-label={`Delete ${name}`}>
            Delete
          </button>
        ) : null}
      </div>
    </li>
  );
}
