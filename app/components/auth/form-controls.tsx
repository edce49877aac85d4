import { useId, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../../contracts/fields.ts";
import { Spinner } from "../spinner.tsx";
import { useHydrated } from "./use-hydrated.ts";

interface FieldFrame {
  label: string;
  name: string;
  /** The field's error, shown under it and announced with it. */
  error?: string;
  /** A rule or tip shown under the label. */
  hint?: ReactNode;
}

interface ControlProps {
  id: string;
  name: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** A labelled form control with its hint and error wired up for assistive technology. */
function Field({ label, name, error, hint, id, children }: FieldFrame & { id?: string; children: (control: ControlProps) => ReactNode }) {
  const autoId = useId();
  const controlId = id ?? `${autoId}${name}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  return (
    <div className={error ? "field field--invalid" : "field"}>
      <label className="field__label" htmlFor={controlId}>
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {children({
        id: controlId,
        name,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
      })}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({ label, name, error, hint, id, ...input }: FieldFrame & Omit<InputHTMLAttributes<HTMLInputElement>, "name">) {
  return (
    <Field label={label} name={name} error={error} hint={hint} id={id}>
      {(control) => <input className="field__input" {...input} {...control} />}
    </Field>
  );
}

export function TextAreaField({
  label,
  name,
  error,
  hint,
  id,
  className,
  ...textarea
}: FieldFrame & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name">) {
  return (
    <Field label={label} name={name} error={error} hint={hint} id={id}>
      {(control) => <textarea className={`field__input${className ? ` ${className}` : ""}`} {...textarea} {...control} />}
    </Field>
  );
}

/** A field for choosing a password, with the rules shown (contracts/fields.ts and the server's policy). */
export function NewPasswordField({ label = "Password", name = "password", error }: { label?: string; name?: string; error?: string }) {
  return (
    <TextField
      label={label}
      name={name}
      type="password"
      autoComplete="new-password"
      hint={`${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters. Avoid common passwords and your e-mail address.`}
      error={error}
    />
  );
}

export function SelectField({ label, name, error, hint, id, children, ...select }: FieldFrame & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name">) {
  return (
    <Field label={label} name={name} error={error} hint={hint} id={id}>
      {(control) => (
        <select className="field__input field__select" {...select} {...control}>
          {children}
        </select>
      )}
    </Field>
  );
}

/** A form's general error (the server's message, a rate limit, a network failure). */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div className="notice notice--error" role="alert">
      {children}
    </div>
  );
}

/** A success or progress message, announced politely. */
export function FormStatus({ children, kind = "success" }: { children: ReactNode; kind?: "success" | "info" }) {
  return (
    <div className={`notice notice--${kind}`} role="status">
      {children}
    </div>
  );
}

/**
 * A button that shows a spinner and is disabled while its work runs (and until
 * the page is hydrated, so nothing is submitted before the scripts run).
 */
export function PendingButton({
  pending,
  variant = "primary",
  disabled,
  children,
  type = "button",
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & { pending: boolean; variant?: "primary" | "ghost" | "danger" }) {
  const hydrated = useHydrated();
  return (
    <button
      {...button}
      type={type}
      className={`button button--${variant} ${button.className ?? ""}`.trim()}
      disabled={!hydrated || pending || disabled}
      aria-busy={pending || undefined}
    >
      {pending ? <Spinner /> : null}
      {children}
    </button>
  );
}

export function SubmitButton(props: Omit<Parameters<typeof PendingButton>[0], "type">) {
  return <PendingButton {...props} type="submit" />;
}
