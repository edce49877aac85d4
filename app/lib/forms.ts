import * as v from "valibot";

/**
 * The one way a form in the browser checks what was typed: against the contract's valibot schema, the same one the
 * server's API parses the request with (contracts/), so a form never accepts what the server will refuse (decision 089).
 */

/** The first message per field, keyed by the field's path in the input ("numberOfPinsPerDay", "updates.firstName"). */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * Checks a form's input against the contract's schema (the one the server uses)
 * and answers the parsed output, or the first message per field. A schema's
 * terse "firstName is required" reads "Please enter your first name." here.
 */
export function validateInput<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  labels: Record<string, string> = {},
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

export function withoutPrefix(field: string, prefix: string) {
  return prefix && field.startsWith(prefix) ? field.slice(prefix.length) : field;
}

function readable(message: string, field: string, labels: Record<string, string>) {
  const label = labels[field];
  if (label && /^\S+ is required$/.test(message)) return `Please enter your ${label.toLowerCase()}.`;
  return message;
}

/** The first message of a check that failed (for a form with one field, or one place for its message). */
export function firstError(errors: FieldErrors): string {
  return Object.values(errors).find(Boolean) ?? "Please check what you entered.";
}
