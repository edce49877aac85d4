import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState, type FormEvent } from "react";
import { REPEAT_INTERVAL_DAYS, UPDATED_PINS_MESSAGE, type RepeatingPin } from "../../../contracts/pinterest/scheduling-api.ts";
import { deleteRepeatingPin, getRepeatingPins, updateRepeatingPin } from "../../lib/pinterest/scheduling-api.ts";
import { formatInZone, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { Spinner } from "../spinner.tsx";
import { useToast } from "../shell/toast.tsx";
import { failureText } from "./use-pinterest.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { schedulingKeys } from "./reads.ts";
import { usePagedList } from "./use-paged-list.ts";

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/**
 * The repeating pins of the active profile: each posts again every so many
 * days. Shows thumbnail, title, board, interval and the next post (in the
 * profile's time zone); the interval can change and a repeating pin can be
 * deleted (the pins it already scheduled stay in the queue). Both change
 * the cached list in place; a change to the queue reads it again.
 */
export function RepeatingPanel({ username, zone }: { username: string; zone: string }) {
  const id = useId();
  const toast = useToast();
  const {
    items: pins,
    totalCount,
    next,
    state,
    loadError,
    reload,
    loadMore,
    update,
  } = usePagedList(
    schedulingKeys.repeating(username),
    async (lastId) => {
      const answer = await getRepeatingPins(username, lastId ?? undefined);
      return { items: answer.repeatingPins, totalCount: answer.totalCount };
    },
    "Unable to load more repeating pins",
  );
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<RepeatingPin | null>(null);
  const [working, setWorking] = useState(false);

  async function saveInterval(pin: RepeatingPin, intervalInDays: number) {
    const answer = await updateRepeatingPin({ id: pin.id, intervalInDays });
    update((list) => ({ ...list, items: list.items.map((p) => (p.id === pin.id ? answer.pin : p)) }));
    setEditing(null);
    toast({ title: UPDATED_PINS_MESSAGE, kind: "success" });
  }

  async function confirmDelete(pin: RepeatingPin) {
    setDeleting(null);
    setWorking(true);
    try {
      await deleteRepeatingPin(pin.id);
      update((list) => ({ ...list, items: list.items.filter((p) => p.id !== pin.id), totalCount: Math.max(0, list.totalCount - 1) }));
      toast({ title: "Repeating pin deleted", kind: "success" });
    } catch (error) {
      toast({ title: "Unable to delete the repeating pin", description: failureText(error), kind: "error" });
    } finally {
      setWorking(false);
    }
  }

  return (
    <section className="card queue-panel repeating-panel" aria-labelledby={`${id}-title`} aria-busy={state === "loading" || working}>
      <div className="queue-panel__head">
        <h2 id={`${id}-title`}>Repeating pins</h2>
        {working ? <Spinner label="Deleting" /> : null}
      </div>
      <p className="muted small">
        {totalCount} {totalCount === 1 ? "repeating pin" : "repeating pins"} · times in {timeZoneLabel(zone)}
      </p>
      {state === "loading" ? (
        <p className="loading">
          <Spinner label="Loading the repeating pins" /> Loading the repeating pins…
        </p>
      ) : state === "failed" ? (
        <p className="notice notice--error" role="alert">
          Unable to load the repeating pins: {loadError}{" "}
          <button type="button" className="link-button" onClick={reload}>
            Try again
          </button>
        </p>
      ) : pins.length === 0 ? (
        <p className="queue-panel__empty muted">No repeating pins. Tick “Repeat every N days” when you schedule pins to post them again and again.</p>
      ) : (
        <ol className="queue-list" aria-label="Repeating pins">
          {pins.map((pin, index) => (
            <RepeatingItem
              key={pin.id}
              pin={pin}
              zone={zone}
              number={index + 1}
              editing={editing === pin.id}
              disabled={working}
              onEdit={() => setEditing(pin.id)}
              onCancel={() => setEditing(null)}
              onSave={(interval) => saveInterval(pin, interval)}
              onDelete={() => setDeleting(pin)}
            />
          ))}
        </ol>
      )}
      {next && state !== "loading" && state !== "failed" ? (
        <button type="button" className="button button--ghost queue-panel__more" disabled={state === "more"} onClick={() => void loadMore()}>
          {state === "more" ? <Spinner label="Loading" /> : null} Load more
        </button>
      ) : null}

      <Dialog.Root open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">Delete this repeating pin?</Dialog.Title>
            <Dialog.Description className="dialog__text">It will not be scheduled again. Pins already in the queue stay there.</Dialog.Description>
            <DialogActions>
              <button type="button" className="button button--danger" onClick={() => deleting && void confirmDelete(deleting)}>
                Delete
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}

function RepeatingItem({
  pin,
  zone,
  number,
  editing,
  disabled,
  onEdit,
  onCancel,
  onSave,
  onDelete,
}: {
  pin: RepeatingPin;
  zone: string;
  number: number;
  editing: boolean;
  disabled: boolean;
  onEdit(): void;
  onCancel(): void;
  onSave(intervalInDays: number): Promise<void>;
  onDelete(): void;
}) {
  const name = pin.title || `Repeating pin ${number}`;
  const thumbnail = pin.mediaType === "video" ? pin.videoThumbnail || pin.imageURL : pin.imageURL || pin.mediaURL;

  return (
    <li className="queue-item repeating-item" data-pin-id={pin.id} aria-label={name}>
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
          <span>Every {days(pin.intervalInDays)}</span>
        </p>
        <p className="queue-item__meta">
          Next: <time dateTime={new Date(pin.nextPinDateUTCTimestamp).toISOString()}>{formatInZone(pin.nextPinDateUTCTimestamp, zone)}</time>
        </p>
        {/* Mounted when Edit is pressed, and again if the interval changes meanwhile: it starts from the pin's interval. */}
        {editing ? <IntervalForm key={pin.intervalInDays} intervalInDays={pin.intervalInDays} onCancel={onCancel} onSave={onSave} /> : null}
      </div>
      <div className="queue-item__actions">
        {!editing ? (
          <button type="button" className="chip-button" disabled={disabled} onClick={onEdit} aria-label={`Change the interval of ${name}`}>
            Change interval
          </button>
        ) : null}
        <button type="button" className="chip-button chip-button--danger" disabled={disabled} onClick={onDelete} aria-label={`Delete repeating pin ${name}`}>
          Delete
        </button>
      </div>
    </li>
  );
}

/** Changing a repeating pin's interval, checked before it is sent. */
function IntervalForm({ intervalInDays, onCancel, onSave }: { intervalInDays: number; onCancel(): void; onSave(intervalInDays: number): Promise<void> }) {
  const id = useId();
  const [value, setValue] = useState(String(intervalInDays));
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < REPEAT_INTERVAL_DAYS.min || n > REPEAT_INTERVAL_DAYS.max) {
      setError(`Enter whole days from ${REPEAT_INTERVAL_DAYS.min} to ${REPEAT_INTERVAL_DAYS.max}`);
      return;
    }
    setSaving(true);
    try {
      await onSave(n);
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="repeating-item__form" onSubmit={(event) => void submit(event)} noValidate>
      <div className={error ? "field field--invalid" : "field"}>
        <label className="field__label" htmlFor={`${id}-days`}>
          Repeat every (days)
        </label>
        <input
          id={`${id}-days`}
          className="field__input"
          type="number"
          inputMode="numeric"
          min={REPEAT_INTERVAL_DAYS.min}
          max={REPEAT_INTERVAL_DAYS.max}
          step={1}
          value={value}
          // biome-ignore lint/a11y/noAutofocus: the field appears because the user pressed Edit: focus moves into it.
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => event.key === "Escape" && onCancel()}
        />
        {error ? (
          <p className="field__error" id={`${id}-error`} role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="repeating-item__form-actions">
        <button type="submit" className="chip-button" disabled={saving}>
          {saving ? <Spinner label="Saving" /> : null} Save interval
        </button>
        <button type="button" className="chip-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
