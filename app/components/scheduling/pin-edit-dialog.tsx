import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState, type FormEvent } from "react";
import { PINTEREST_PIN_LIMITS } from "../../../contracts/pinterest/pinterest.ts";
import { isWebUrl, type ScheduledPin } from "../../../contracts/pinterest/scheduling-api.ts";
import { ApiError } from "../../lib/api-client.ts";
import type { PinUpdateBody } from "../../lib/pinterest/scheduling-api.ts";
import { dateTimeFieldValue, instantOfDateTimeField, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { Spinner } from "../spinner.tsx";
import { BoardFields, type BoardChoice } from "./board-fields.tsx";
import type { Pinterest } from "./use-pinterest.tsx";

type Field = "title" | "description" | "url" | "board" | "time" | "form";

/**
 * Editing a waiting pin: its title, description, link, board and time (in the profile's time zone). The form
 * is mounted for each pin opened (keyed by it and the zone), so it starts from that pin's values.
 */
export function PinEditDialog({
  pin,
  zone,
  pinterest,
  onCancel,
  onSave,
}: {
  pin: ScheduledPin | null;
  zone: string;
  pinterest: Pinterest;
  onCancel(): void;
  /** Resolves when saved (the dialog closes); rejects with the server's answer to keep it open. */
  onSave(update: PinUpdateBody): Promise<void>;
}) {
  const [saving, setSaving] = useState(false);
  return (
    <Dialog.Root open={pin !== null} onOpenChange={(open) => !open && !saving && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide pin-edit-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">Edit scheduled pin</Dialog.Title>
          {pin ? (
            <PinEditForm key={`${pin.id} ${zone}`} pin={pin} zone={zone} pinterest={pinterest} saving={saving} onSaving={setSaving} onSave={onSave} />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PinEditForm({
  pin,
  zone,
  pinterest,
  saving,
  onSaving,
  onSave,
}: {
  pin: ScheduledPin;
  zone: string;
  pinterest: Pinterest;
  saving: boolean;
  onSaving(saving: boolean): void;
  onSave(update: PinUpdateBody): Promise<void>;
}) {
  const id = useId();
  const [title, setTitle] = useState(pin.title);
  const [description, setDescription] = useState(pin.description);
  const [url, setUrl] = useState(pin.url);
  const [board, setBoard] = useState<BoardChoice>({ boardId: pin.boardId, boardName: pin.boardName, sectionId: pin.sectionId });
  const [time, setTime] = useState(() => dateTimeFieldValue(pin.scheduledTimeUTCTimestamp, zone).slice(0, 16));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if ([...title].length > PINTEREST_PIN_LIMITS.title) found.title = `The title must be at most ${PINTEREST_PIN_LIMITS.title} characters`;
    if ([...description].length > PINTEREST_PIN_LIMITS.description)
      found.description = `The description must be at most ${PINTEREST_PIN_LIMITS.description} characters`;
    if (url.trim() && !isWebUrl(url.trim())) found.url = "The link must be a web address starting with http:// or https://";
    if (!board.boardId) found.board = "Choose a board";
    const original = dateTimeFieldValue(pin.scheduledTimeUTCTimestamp, zone).slice(0, 16);
    const timeChanged = time !== original;
    const instant = timeChanged ? instantOfDateTimeField(time, zone) : pin.scheduledTimeUTCTimestamp;
    if (instant === null) found.time = "Enter a date and time";
    else if (timeChanged && instant <= Date.now()) found.time = "Choose a time in the future";
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    const update: PinUpdateBody = {
      id: pin.id,
      title,
      description,
      url: url.trim(),
      boardId: board.boardId,
      boardName: board.boardName,
      sectionId: board.sectionId,
    };
    // A time the user picks is theirs: the pin no longer follows the queue's slots.
    if (timeChanged) Object.assign(update, { scheduledTime: instant, type: "SpecificDate" as const });
    onSaving(true);
    try {
      await onSave(update);
    } catch (error) {
      const field = error instanceof ApiError ? (error.field ?? "") : "";
      const message = error instanceof Error ? error.message : "Please try again.";
      const key: Field = /title/.test(field)
        ? "title"
        : /description/.test(field)
          ? "description"
          : /url/.test(field)
            ? "url"
            : /board/i.test(field)
              ? "board"
              : /scheduledTime/.test(field)
                ? "time"
                : "form";
      setErrors({ [key]: message });
    } finally {
      onSaving(false);
    }
  }

  const errorText = (field: Field) =>
    errors[field] ? (
      <p className="field__error" id={`${id}-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;
  const invalid = (field: Field) => ({
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `${id}-${field}-error` : undefined,
  });

  return (
    <form onSubmit={submit} noValidate>
      {errors.form ? (
        <p className="notice notice--error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <div className={errors.title ? "field field--invalid" : "field"}>
        <label className="field__label" htmlFor={`${id}-title`}>
          Title
        </label>
        <input id={`${id}-title`} className="field__input" value={title} onChange={(event) => setTitle(event.target.value)} {...invalid("title")} />
        <p className="field__hint">
          {[...title].length} / {PINTEREST_PIN_LIMITS.title}
        </p>
        {errorText("title")}
      </div>
      <div className={errors.description ? "field field--invalid" : "field"}>
        <label className="field__label" htmlFor={`${id}-description`}>
          Description
        </label>
        <textarea
          id={`${id}-description`}
          className="field__input"
          rows={4}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          {...invalid("description")}
        />
        <p className="field__hint">
          {[...description].length} / {PINTEREST_PIN_LIMITS.description}
        </p>
        {errorText("description")}
      </div>
      <div className={errors.url ? "field field--invalid" : "field"}>
        <label className="field__label" htmlFor={`${id}-url`}>
          Link
        </label>
        <input
          id={`${id}-url`}
          className="field__input"
          type="url"
          inputMode="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          {...invalid("url")}
        />
        {errorText("url")}
      </div>
      <BoardFields pinterest={pinterest} username={pin.pinterestProfileUsername} value={board} onChange={setBoard} allowCreate={false} error={errors.board} />
      <div className={errors.time ? "field field--invalid" : "field"}>
        <label className="field__label" htmlFor={`${id}-time`}>
          Time ({timeZoneLabel(zone)})
        </label>
        <input
          id={`${id}-time`}
          className="field__input"
          type="datetime-local"
          value={time}
          onChange={(event) => setTime(event.target.value)}
          {...invalid("time")}
        />
        {errorText("time")}
      </div>
      <div className="dialog__actions">
        <Dialog.Close asChild>
          <button type="button" className="button button--ghost" disabled={saving}>
            Cancel
          </button>
        </Dialog.Close>
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? <Spinner label="Saving" /> : null} Save
        </button>
      </div>
    </form>
  );
}
