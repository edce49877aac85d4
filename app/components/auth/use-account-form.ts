import { useCallback, useState, type FormEvent } from "react";
import * as v from "valibot";
import { ApiError } from "../../lib/api-client.ts";

export type FieldErrors = Partial<Record<string, string>>;

const NETWORK_PROBLEM = "We could not reach Pinboard Studio. Please check your connection and try again.";

/** The message a failed call should show: the server's, or one for a network failure. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return NETWORK_PROBLEM;
  return error instanceof Error && error.message ? error.message : "Something went wrong. Please try again.";
}

/**
 * Checks a form's input against the contract's schema (the one the server uses)
 * and answers the parsed output, or the first message per field. A schema's
 * terse "firstName is required" reads "Please enter your first name." here.
 */
export function validateInput<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  labels: Record<string, string>,
  fieldPrefix = "",
): { output: v.InferOutput<S>; errors: null } | { output: null; errors: FieldErrors } {
  const result = v.safeParse(schema, input);
  if (result.success) return { output: result.output, errors: null };
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const field = withoutPrefix(v.getDotPath(issue) ?? "", fieldPrefix);
    errors[field] ??= readable(issue.message, field, labels);
  }
  return { output: null, errors };
}

function withoutPrefix(field: string, prefix: string) {
  return prefix && field.startsWith(prefix) ? field.slice(prefix.length) : field;
}

function readable(message: string, field: string, labels: Record<string, string>) {
  const label = labels[field];
  if (label && /^\S+ is required$/.test(message)) return `Please enter your ${label.toLowerCase()}.`;
  return message;
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
