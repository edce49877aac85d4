import { useCallback, useState, type FormEvent } from "react";
import type * as v from "valibot";
import { ApiError } from "../../lib/api-client.ts";
import { type FieldErrors, validateInput, withoutPrefix } from "../../lib/forms.ts";

export type { FieldErrors };

const NETWORK_PROBLEM = "We could not reach Pinboard Studio. Please check your connection and try again.";

/** The message a failed call should show: the server's, or one for a network failure. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return NETWORK_PROBLEM;
  return error instanceof Error && error.message ? error.message : "Something went wrong. Please try again.";
}

/**
 * State and submit handling shared by the account forms: client-side
 * validation with the contract's schema, field errors (from the schema or from
 * the server's `field`), a general error, a pending flag, and focus moved to
 * the first field at fault.
 */
export function useAccountForm<S extends v.GenericSchema>({
  schema,
  labels,
  fieldPrefix = "",
}: {
  schema: S;
  /** The form's fields and their labels; a server error on another field is shown as a general error. */
  labels: Record<string, string>;
  /** Stripped from the schema's and the server's field paths ("updates." for POST /api/user). */
  fieldPrefix?: string;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = useCallback(
    (read: (data: FormData) => unknown, send: (output: v.InferOutput<S>) => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (pending) return;
      const form = event.currentTarget;
      setGeneral(null);
      const checked = validateInput(schema, read(new FormData(form)), labels, fieldPrefix);
      if (checked.errors) {
        const fields = Object.keys(checked.errors).filter((field) => field in labels);
        setErrors(checked.errors);
        // A problem with a value the user cannot edit here (a link's token) is a general one.
        if (fields.length === 0) setGeneral(Object.values(checked.errors)[0] ?? null);
        focusField(form, fields[0]);
        return;
      }
      setErrors({});
      setPending(true);
      try {
        await send(checked.output);
      } catch (error) {
        const field = error instanceof ApiError && error.field ? withoutPrefix(error.field, fieldPrefix) : null;
        if (field && field in labels) {
          setErrors({ [field]: problemMessage(error) });
          focusField(form, field);
        } else {
          setGeneral(problemMessage(error));
        }
      } finally {
        setPending(false);
      }
    },
    [schema, labels, fieldPrefix, pending],
  );

  /** Clears a field's error as soon as the user edits it. */
  const onInput = useCallback((event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (name) setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
  }, []);

  return { errors, general, setGeneral, pending, onSubmit, onInput };
}

function focusField(form: HTMLFormElement, field: string | undefined) {
  const element = field ? form.elements.namedItem(field) : null;
  if (element instanceof HTMLElement) element.focus();
}

/** A form value as text ("" when absent). */
export function text(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
}
