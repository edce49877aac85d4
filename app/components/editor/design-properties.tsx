import type { TemplateDesign } from "../../../contracts/content/template.ts";
import type { DesignChanges } from "../../lib/template-editor-state.ts";
import type { TemplateCategory } from "../templates/template-requests.ts";
import { FillField, PropSection, TextInputField } from "./fields.tsx";

/** The template itself: title, background and categories. */
export function DesignProperties({
  design,
  categories,
  onChange,
}: {
  design: TemplateDesign;
  categories: TemplateCategory[];
  onChange(changes: DesignChanges, mergeKey?: string): void;
}) {
  const chosen = design.categories ?? [];
  const has = (name: string) => chosen.some((c) => c.toLowerCase() === name.toLowerCase());
  // Categories of the design that are not in the list (e.g. deleted since) stay visible and can be removed.
  const names = [...categories.map((c) => c.name), ...chosen.filter((name) => !categories.some((c) => c.name.toLowerCase() === name.toLowerCase()))];
  return (
    <PropSection title="Template">
      <TextInputField
        label="Template title"
        value={design.title}
        maxLength={120}
        field="design:title"
        onChange={(title, mergeKey) => onChange({ title }, mergeKey)}
      />
      <FillField
        label="Background"
        value={design.background ?? "#ffffff"}
        field="design:background"
        onChange={(background, mergeKey) => onChange({ background }, mergeKey)}
      />
      <fieldset className="prop prop--wide prop-group">
        <legend className="prop__label">Categories</legend>
        {names.length === 0 ? <p className="muted small">No categories yet: add them on the templates page.</p> : null}
        <div className="category-checks">
          {names.map((name) => (
            <label key={name} className="category-check">
              <input
                type="checkbox"
                checked={has(name)}
                onChange={(event) =>
                  onChange({ categories: event.target.checked ? [...chosen, name].slice(0, 20) : chosen.filter((c) => c.toLowerCase() !== name.toLowerCase()) })
                }
              />
              {name}
            </label>
          ))}
        </div>
      </fieldset>
    </PropSection>
  );
}
