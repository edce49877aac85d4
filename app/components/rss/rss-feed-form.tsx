import { useId, useState } from "react";
import { AI_LANGUAGES, AI_TONES, type RgbaColor } from "../../../contracts/content/design-settings.ts";
import { defaultRssDesignSettings, MAX_RSS_TEMPLATES, type RssDesignSettings, type RssFeed, type RssSourceKind } from "../../../contracts/pinterest/rss.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { BUNDLED_FONTS } from "../../../workers/render/font-catalog.ts";
import { ApiError } from "../../lib/api-client.ts";
import { useApiQuery } from "../../lib/query.ts";
import { BoardFields, type BoardChoice } from "../scheduling/board-fields.tsx";
import { ProfileField } from "../scheduling/profile-select.tsx";
import { failureText, type Pinterest } from "../scheduling/use-pinterest.tsx";
import { Spinner } from "../spinner.tsx";
import { fetchFavoriteTemplates, fetchUserTemplates, templateKeys, type TemplatePage } from "../templates/template-requests.ts";

export interface RssFeedDraft {
  name: string;
  sourceUrl: string;
  sourceKind: RssSourceKind;
  pinterestProfileUsername: string;
  board: BoardChoice;
  designSettings: RssDesignSettings;
}

export function draftOf(feed: RssFeed | null, username: string): RssFeedDraft {
  if (!feed)
    return {
      name: "",
      sourceUrl: "",
      sourceKind: "feed",
      pinterestProfileUsername: username,
      board: { boardId: "", boardName: "", sectionId: null },
      designSettings: defaultRssDesignSettings(),
    };
  return {
    name: feed.name,
    sourceUrl: feed.sourceUrl,
    sourceKind: feed.sourceKind,
    pinterestProfileUsername: feed.pinterestProfileUsername,
    board: { boardId: feed.boardId, boardName: feed.boardName, sectionId: null },
    designSettings: feed.designSettings,
  };
}

const hex = ({ r, g, b }: RgbaColor) => `#${[r, g, b].map((n) => n.toString(16).padStart(2, "0")).join("")}`;
const rgba = (value: string): RgbaColor => ({
  r: parseInt(value.slice(1, 3), 16),
  g: parseInt(value.slice(3, 5), 16),
  b: parseInt(value.slice(5, 7), 16),
  a: 1,
});
const MAX_COLOURS = 6;

/**
 * The user's own and favourite templates, to choose from (standard templates are the default): the reads
 * the template gallery makes, under its keys.
 */
function useChoosableTemplates() {
  const own = useApiQuery<TemplatePage>(templateKeys.mine, () => fetchUserTemplates(), { refetchOnWindowFocus: false });
  const favourites = useApiQuery<Template[]>(templateKeys.favourites, () => fetchFavoriteTemplates());
  const failure = [own, favourites].find((read) => read.error && !read.isFetching)?.error;
  let templates: Template[] | null = null;
  if (own.data && favourites.data) {
    const seen = new Set<string>();
    templates = [...own.data.templates, ...favourites.data].filter((template) => !seen.has(template.templateId) && Boolean(seen.add(template.templateId)));
  }
  return { templates, failed: failure ? failureText(failure) : null };
}

/** Creating or editing a feed: source, board, design and AI rewrite. */
export function RssFeedForm({
  pinterest,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  pinterest: Pinterest;
  initial: RssFeedDraft;
  submitLabel: string;
  onSubmit(draft: RssFeedDraft): Promise<void>;
  onCancel(): void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [ownTemplates, setOwnTemplates] = useState(initial.designSettings.templateIds.length > 0);
  const choosable = useChoosableTemplates();
  const settings = draft.designSettings;
  const setSettings = (changes: Partial<RssDesignSettings>) =>
    setDraft((current) => ({ ...current, designSettings: { ...current.designSettings, ...changes } }));
  const fieldError = (field: string) => (error?.field === field || error?.field?.startsWith(`${field}.`) ? error.message : undefined);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!draft.board.boardId) {
      setError({ message: "Choose a board", field: "boardId" });
      return;
    }
    if (ownTemplates && settings.templateIds.length === 0) {
      setError({ message: "Choose at least one template, or use the standard templates.", field: "designSettings.templateIds" });
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSubmit({ ...draft, designSettings: { ...settings, templateIds: ownTemplates ? settings.templateIds : [] } });
    } catch (failure) {
      setError({ message: failureText(failure), field: failure instanceof ApiError ? failure.field : undefined });
    } finally {
      setPending(false);
    }
  }

  const profiles = pinterest.profiles;
  return (
    <form className="rss-form" onSubmit={(event) => void submit(event)} noValidate aria-busy={pending}>
      <fieldset className="rss-form__group">
        <legend>Your blog</legend>
        <div className={fieldError("sourceUrl") ? "field field--invalid" : "field"}>
          <label className="field__label" htmlFor={`${id}-source`}>
            Blog feed or sitemap address
          </label>
          <input
            id={`${id}-source`}
            className="field__input"
            type="url"
            inputMode="url"
            required
            placeholder="https://yourblog.com/feed"
            value={draft.sourceUrl}
            aria-invalid={fieldError("sourceUrl") ? true : undefined}
            aria-describedby={`${id}-source-hint${fieldError("sourceUrl") ? ` ${id}-source-error` : ""}`}
            onChange={(event) => setDraft({ ...draft, sourceUrl: event.target.value })}
          />
          <p className="field__hint" id={`${id}-source-hint`}>
            The RSS or Atom feed of your blog (often /feed or /rss.xml), or its sitemap.
          </p>
          {fieldError("sourceUrl") ? (
            <p className="field__error" id={`${id}-source-error`}>
              {fieldError("sourceUrl")}
            </p>
          ) : null}
        </div>
        <div className="rss-form__choices" role="radiogroup" aria-label="What the address is">
          {(
            [
              ["feed", "An RSS or Atom feed"],
              ["sitemap", "A sitemap"],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind} className="rss-form__choice">
              <input
                type="radio"
                name={`${id}-kind`}
                value={kind}
                checked={draft.sourceKind === kind}
                onChange={() => setDraft({ ...draft, sourceKind: kind })}
              />{" "}
              {label}
            </label>
          ))}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-name`}>
            Feed name <span className="muted small">(optional)</span>
          </label>
          <input
            id={`${id}-name`}
            className="field__input"
            maxLength={100}
            value={draft.name}
            placeholder="Your blog's name"
            onChange={(event) => setDraft({ ...draft, name: event.target.value })}
          />
        </div>
      </fieldset>

      <fieldset className="rss-form__group">
        <legend>Where Pinterest publishes</legend>
        {profiles.length > 1 ? (
          <ProfileField
            id={`${id}-profile`}
            profiles={profiles}
            value={draft.pinterestProfileUsername}
            onChange={(username) => setDraft({ ...draft, pinterestProfileUsername: username, board: { boardId: "", boardName: "", sectionId: null } })}
          />
        ) : (
          <p className="muted">Pinterest profile: {draft.pinterestProfileUsername}</p>
        )}
        <BoardFields
          pinterest={pinterest}
          username={draft.pinterestProfileUsername}
          value={draft.board}
          onChange={(board) => setDraft({ ...draft, board })}
          error={fieldError("boardId")}
        />
      </fieldset>

      <fieldset className="rss-form__group">
        <legend>Pin design</legend>
        <div className="rss-form__choices" role="radiogroup" aria-label="Templates">
          <label className="rss-form__choice">
            <input type="radio" name={`${id}-templates`} checked={!ownTemplates} onChange={() => setOwnTemplates(false)} /> Standard templates that fit each
            post
          </label>
          <label className="rss-form__choice">
            <input type="radio" name={`${id}-templates`} checked={ownTemplates} onChange={() => setOwnTemplates(true)} /> My own and favourite templates
          </label>
        </div>
        {ownTemplates ? (
          <div className="rss-form__templates" aria-live="polite">
            {choosable.failed ? (
              <p className="field__error" role="alert">
                Unable to load your templates: {choosable.failed}
              </p>
            ) : choosable.templates === null ? (
              <p className="field__hint">
                <Spinner label="Loading your templates" /> Loading your templates…
              </p>
            ) : choosable.templates.length === 0 ? (
              <p className="field__hint">
                You have no templates of your own or favourites yet. Design one in the template builder, or favourite a standard template.
              </p>
            ) : (
              <fieldset className="rss-form__template-list">
                <legend className="field__label">Templates the feed takes turns with (up to {MAX_RSS_TEMPLATES})</legend>
                {choosable.templates.map((template) => {
                  const checked = settings.templateIds.includes(template.templateId);
                  return (
                    <label key={template.templateId} className="rss-form__choice">
                      <input
                        type="checkbox"
                        checked={checked}
                        disabled={!checked && settings.templateIds.length >= MAX_RSS_TEMPLATES}
                        onChange={() =>
                          setSettings({
                            templateIds: checked
                              ? settings.templateIds.filter((t) => t !== template.templateId)
                              : [...settings.templateIds, template.templateId],
                          })
                        }
                      />{" "}
                      {template.title}
                    </label>
                  );
                })}
              </fieldset>
            )}
            {fieldError("designSettings.templateIds") ? <p className="field__error">{fieldError("designSettings.templateIds")}</p> : null}
          </div>
        ) : null}

        <fieldset className="rss-form__colours">
          <legend className="field__label">Pin colours (each post takes one)</legend>
          <div className="rss-form__colour-list">
            {settings.designColors.map((colour, index) => (
              <span key={index} className="rss-form__colour">
                <input
                  type="color"
                  aria-label={`Colour ${index + 1}`}
                  value={hex(colour)}
                  onChange={(event) => setSettings({ designColors: settings.designColors.map((c, i) => (i === index ? rgba(event.target.value) : c)) })}
                />
                {settings.designColors.length > 1 ? (
                  <button
                    type="button"
                    className="link-button small"
                    onClick={() => setSettings({ designColors: settings.designColors.filter((_, i) => i !== index) })}
                  >
                    Remove colour {index + 1}
                  </button>
                ) : null}
              </span>
            ))}
            {settings.designColors.length < MAX_COLOURS ? (
              <button
                type="button"
                className="chip-button"
                onClick={() => setSettings({ designColors: [...settings.designColors, { r: 242, g: 107, b: 91, a: 1 }] })}
              >
                Add a colour
              </button>
            ) : null}
          </div>
        </fieldset>

        <div className="field-row">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-font`}>
              Font
            </label>
            <select
              id={`${id}-font`}
              className="field__input field__select"
              value={settings.fontFamily}
              onChange={(event) => setSettings({ fontFamily: event.target.value })}
            >
              {BUNDLED_FONTS.map((font) => (
                <option key={font.family} value={font.family}>
                  {font.family}
                </option>
              ))}
            </select>
          </div>
          <label className="rss-form__choice rss-form__inline">
            <input type="checkbox" checked={settings.useUpperCaseFont} onChange={(event) => setSettings({ useUpperCaseFont: event.target.checked })} /> Titles
            in capitals
          </label>
        </div>
      </fieldset>

      <fieldset className="rss-form__group">
        <legend>Text</legend>
        <label className="rss-form__choice">
          <input type="checkbox" checked={settings.aiRewrite} onChange={(event) => setSettings({ aiRewrite: event.target.checked })} /> Rewrite each post's
          title and description with AI (0.5 credit each, besides 1 credit for the pin)
        </label>
        {settings.aiRewrite ? (
          <div className="field-row">
            <div className="field">
              <label className="field__label" htmlFor={`${id}-tone`}>
                Tone
              </label>
              <select
                id={`${id}-tone`}
                className="field__input field__select"
                value={settings.aiTone}
                onChange={(event) => setSettings({ aiTone: event.target.value as RssDesignSettings["aiTone"] })}
              >
                {AI_TONES.map((tone) => (
                  <option key={tone}>{tone}</option>
                ))}
              </select>
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${id}-language`}>
                Language
              </label>
              <select
                id={`${id}-language`}
                className="field__input field__select"
                value={settings.aiLanguage}
                onChange={(event) => setSettings({ aiLanguage: event.target.value as RssDesignSettings["aiLanguage"] })}
              >
                {AI_LANGUAGES.map((language) => (
                  <option key={language}>{language}</option>
                ))}
              </select>
            </div>
          </div>
        ) : null}
      </fieldset>

      {error && !["sourceUrl", "boardId"].includes(error.field ?? "") && !error.field?.startsWith("designSettings.templateIds") ? (
        <p className="notice notice--error" role="alert">
          {error.message}
        </p>
      ) : null}
      <div className="rss-form__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? <Spinner label="Saving" /> : null} {submitLabel}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
