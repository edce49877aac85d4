import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState, type FormEvent } from "react";
import { Spinner } from "../spinner.tsx";

/** Asks for a name (a new profile, a draft, a rename); Enter saves, Escape cancels. Each opening starts from `initial`. */
export function NameDialog({
  open,
  title,
  label,
  initial,
  submitLabel,
  maxLength,
  emptyMessage = "Please enter a name",
  placeholder,
  hint,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  maxLength: number;
  /** What an empty field is told. */
  emptyMessage?: string;
  placeholder?: string;
  /** A line under the field saying what to enter. */
  hint?: string;
  onCancel(): void;
  /** Resolves when done (the dialog then closes); rejects to keep it open. */
  onSubmit(name: string): Promise<void>;
}) {
  const id = useId();
  const [name, setName] = useState(initial);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Opening the dialog starts it afresh, set during the render that opens it (not in an effect after it).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setName(initial);
      setError(null);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(emptyMessage);
      return;
    }
    setPending(true);
    try {
      await onSubmit(trimmed);
    } catch {
      // The caller has told the user why; the dialog stays open to try again.
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !pending && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <form onSubmit={submit} noValidate>
            <div className={error ? "field field--invalid" : "field"}>
              <label className="field__label" htmlFor={id}>
                {label}
              </label>
              <input
                id={id}
                className="field__input"
                value={name}
                maxLength={maxLength}
                placeholder={placeholder}
                aria-describedby={hint ? `${id}-hint` : undefined}
                // biome-ignore lint/a11y/noAutofocus: the dialog the user just opened asks for this one name: focus starts in it.
                autoFocus
                onChange={(event) => setName(event.target.value)}
              />
              {hint ? (
                <p className="field__hint" id={`${id}-hint`}>
                  {hint}
                </p>
              ) : null}
              {error ? (
                <p className="field__error" role="alert">
                  {error}
                </p>
              ) : null}
            </div>
            <div className="dialog__actions">
              <Dialog.Close asChild>
                <button type="button" className="button button--ghost" disabled={pending}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="button button--primary" disabled={pending}>
                {pending ? <Spinner /> : null}
                {submitLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
