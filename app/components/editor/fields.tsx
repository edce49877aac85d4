import { useId, useState, type ReactNode } from "react";
import { COLOR_ROLES, type Color, type Fill, type Gradient } from "../../../contracts/content/template.ts";

/**
 * The small labelled controls of the editor's panels. Each reports a new value
 * with a merge key, so typing into one field is one undo step.
 */

export type Change<T> = (value: T, mergeKey: string) => void;

export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step = 1,
  optional = false,
  disabled,
  field,
}: {
  label: string;
  value: number | undefined;
  onChange: Change<number | undefined>;
  min: number;
  max: number;
  step?: number;
  /** Empty means "not set" (undefined). */
  optional?: boolean;
  disabled?: boolean;
  /** The merge key of this field. */
  field: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? (value === undefined ? "" : String(value));
  return (
    <div className="prop">
      <label className="prop__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="prop__input"
        type="number"
        inputMode="decimal"
        value={shown}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        onFocus={() => setDraft(shown)}
        onBlur={() => setDraft(null)}
        onChange={(event) => {
          const text = event.target.value;
          setDraft(text);
          if (text.trim() === "") {
            if (optional) onChange(undefined, field);
            return;
          }
          const number = Number(text);
          if (Number.isFinite(number) && number >= min && number <= max) onChange(number, field);
        }}
      />
    </div>
  );
}

export function TextInputField({
  label,
  value,
  onChange,
  field,
  multiline = false,
  maxLength,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: Change<string>;
  field: string;
  multiline?: boolean;
  maxLength: number;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="prop prop--wide">
      <label className="prop__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          className="prop__input prop__input--text"
          rows={3}
          value={value}
          maxLength={maxLength}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value, field)}
        />
      ) : (
        <input
          id={id}
          className="prop__input prop__input--text"
          value={value}
          maxLength={maxLength}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value, field)}
        />
      )}
    </div>
  );
}

export function ChoiceField<T extends string | number>({
  label,
  value,
  options,
  onChange,
  wide = false,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
  wide?: boolean;
}) {
  const id = useId();
  return (
    <div className={wide ? "prop prop--wide" : "prop"}>
      <label className="prop__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="prop__input"
        value={String(value)}
        onChange={(event) => {
          const chosen = options.find((option) => String(option.value) === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CheckboxField({ label, checked, onChange }: { label: string; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <label className="prop prop--wide prop--check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

const ROLE_LABELS: Record<(typeof COLOR_ROLES)[number], string> = {
  pin: "Pin colour",
  "pin-dark": "Pin colour, dark",
  "pin-light": "Pin colour, light",
  auto: "Auto (black or white)",
};

const isRole = (value: string): value is (typeof COLOR_ROLES)[number] => (COLOR_ROLES as readonly string[]).includes(value);

/** #rgb and #rrggbbaa as the #rrggbb a colour input needs. */
function sixDigits(hex: string): string {
  const digits = hex.slice(1);
  if (digits.length === 3) return `#${[...digits].map((d) => d + d).join("")}`.toLowerCase();
  return `#${digits.slice(0, 6)}`.toLowerCase();
}

/** A colour: a role the post decides (pin, pin-dark, pin-light, auto for text) or a custom colour. */
export function ColorField({
  label,
  value,
  onChange,
  field,
  allowAuto = false,
}: {
  label: string;
  value: Color;
  onChange: Change<Color>;
  field: string;
  allowAuto?: boolean;
}) {
  const id = useId();
  const roles = COLOR_ROLES.filter((role) => allowAuto || role !== "auto" || value === "auto");
  const custom = !isRole(value);
  return (
    <fieldset className="prop prop--wide prop-group">
      <legend className="prop__label">{label}</legend>
      <div className="prop-group__row">
        <select
          id={id}
          className="prop__input"
          aria-label={`${label}: kind`}
          value={custom ? "custom" : value}
          onChange={(event) => onChange(event.target.value === "custom" ? (custom ? value : "#1d2226") : (event.target.value as Color), field)}
        >
          {roles.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
          <option value="custom">Custom colour</option>
        </select>
        {custom ? (
          <input
            type="color"
            className="prop__color"
            aria-label={`${label}: custom colour`}
            value={sixDigits(value)}
            // An alpha channel (#rrggbbaa) is kept when the colour changes.
            onChange={(event) => onChange(event.target.value + (value.length === 9 ? value.slice(7) : ""), field)}
          />
        ) : null}
      </div>
    </fieldset>
  );
}

const isGradient = (fill: Fill): fill is Gradient => typeof fill === "object";

/** A fill: one colour, or a linear gradient from one colour to another at an angle. */
export function FillField({ label, value, onChange, field }: { label: string; value: Fill; onChange: Change<Fill>; field: string }) {
  const gradient = isGradient(value);
  return (
    <div className="prop prop--wide prop-group" role="group" aria-label={label}>
      <ChoiceField
        label={`${label} type`}
        value={gradient ? "gradient" : "color"}
        options={[
          { value: "color", label: "Colour" },
          { value: "gradient", label: "Gradient" },
        ]}
        onChange={(kind) => {
          if (kind === "gradient" && !gradient) onChange({ from: value, to: "pin-dark", angle: 180 }, `${field}:kind`);
          if (kind === "color" && gradient) onChange(value.from, `${field}:kind`);
        }}
      />
      {gradient ? (
        <>
          <ColorField label={`${label} from`} value={value.from} field={`${field}:from`} onChange={(from, key) => onChange({ ...value, from }, key)} />
          <ColorField label={`${label} to`} value={value.to} field={`${field}:to`} onChange={(to, key) => onChange({ ...value, to }, key)} />
          <NumberField
            label={`${label} angle (°)`}
            value={value.angle}
            min={0}
            max={360}
            field={`${field}:angle`}
            onChange={(angle, key) => angle !== undefined && onChange({ ...value, angle }, key)}
          />
        </>
      ) : (
        <ColorField label={`${label} colour`} value={value} field={field} onChange={onChange} />
      )}
    </div>
  );
}

export function PropSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="prop-section" aria-label={title}>
      <h3 className="prop-section__title">{title}</h3>
      <div className="prop-section__grid">{children}</div>
    </section>
  );
}
