import { Link } from "@remix-run/react";
import type { Template } from "../../../contracts/content/template.ts";
import { Spinner } from "../spinner.tsx";
import { PinPreview } from "./pin-preview.tsx";

export interface TemplateCardActions {
  onToggleFavorite(template: Template): void;
  onDuplicate(template: Template): void;
  onDelete(template: Template): void;
}

/** One template in the gallery: its live preview, title, favourite toggle and actions. */
export function TemplateCard({
  template,
  editable,
  deletable,
  showFavoriteCount,
  busy,
  actions,
}: {
  template: Template;
  /** The user may change it (their own; a standard one for admins). */
  editable: boolean;
  deletable: boolean;
  showFavoriteCount: boolean;
  /** What is under way for this card: a favourite toggle or a duplicate. */
  busy: "favorite" | "duplicate" | null;
  actions: TemplateCardActions;
}) {
  const editorPath = `/template-builder/${encodeURIComponent(template.templateId)}`;
  const favorite = template.isFavorite === true;
  return (
    <li className="template-card">
      {/* The preview opens the editor too; keyboard users have the Edit/Open button, so it is not a tab stop. */}
      <Link className="template-card__preview" to={editorPath} tabIndex={-1} aria-label={template.title}>
        <PinPreview design={template} alt={template.title} />
      </Link>
      <div className="template-card__body">
        <h3 className="template-card__title" title={template.title}>
          {template.title}
        </h3>
        <button
          type="button"
          className="favorite-toggle"
          aria-pressed={favorite}
          aria-label={`Favourite ${template.title}`}
          disabled={busy === "favorite"}
          onClick={() => actions.onToggleFavorite(template)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
            <path
              d="M12 21s-7.5-4.6-9.6-9.2C.9 8.5 2.9 4.5 6.6 4.5c2.1 0 3.6 1.2 5.4 3.2 1.8-2 3.3-3.2 5.4-3.2 3.7 0 5.7 4 4.2 7.3C19.5 16.4 12 21 12 21z"
              fill={favorite ? "currentColor" : "none"}
              stroke="currentColor"
              strokeWidth="2"
            />
          </svg>
          {showFavoriteCount ? <span className="favorite-toggle__count">{template.favoriteCount ?? 0}</span> : null}
        </button>
      </div>
      <div className="template-card__actions">
        <Link className="chip-button" to={editorPath} aria-label={`${editable ? "Edit" : "Open"} ${template.title}`}>
          {editable ? "Edit" : "Open"}
        </Link>
        <button
          type="button"
          className="chip-button"
          aria-label={`Duplicate ${template.title}`}
          disabled={busy === "duplicate"}
          onClick={() => actions.onDuplicate(template)}
        >
          {busy === "duplicate" ? <Spinner /> : null}
          Duplicate
        </button>
        {deletable ? (
          <button type="button" className="chip-button chip-button--danger" aria-label={`Delete ${template.title}`} onClick={() => actions.onDelete(template)}>
            Delete
          </button>
        ) : null}
      </div>
    </li>
  );
}
