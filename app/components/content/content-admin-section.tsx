import { useId, useState, type FormEvent } from "react";
import type { AdminContent, ContentKind } from "../../../contracts/content/content.ts";
import { ApiError } from "../../lib/api-client.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { serverMessage, toastedCall } from "../billing/billing-api.ts";
import { useToast } from "../shell/toast.tsx";
import { LoadStatus } from "../load-status.tsx";
import { Spinner } from "../spinner.tsx";
import { createContent, deleteContent, listContent, previewContent, publishContent, slugify, updateContent, type ContentDraft } from "./content-api.ts";
import { ContentBody, isoDate, publishedDate } from "./content-view.tsx";

const EMPTY: ContentDraft = { kind: "post", slug: "", title: "", description: "", body: "", coverImage: "", coverAlt: "", author: "The Pinboard Studio team" };

const draftOf = (entry: AdminContent): ContentDraft => ({
  kind: entry.kind,
  slug: entry.slug,
  title: entry.title,
  description: entry.description,
  body: entry.body,
  coverImage: entry.coverImage ?? "",
  coverAlt: entry.coverAlt ?? "",
  author: entry.author,
});

const pathOf = (entry: Pick<AdminContent, "kind" | "slug">) => `${entry.kind === "post" ? "/blog/" : "/page/"}${entry.slug}`;
const kindName = (kind: ContentKind) => (kind === "post" ? "blog post" : "page");

/** When something last changed, in the admin's own time zone. */
const localDateTime = (ms: number) =>
  new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" }).format(ms);

type Editing = { id: string | null; draft: ContentDraft; slugTouched: boolean };

/**
 * The admin page's "Blog posts and pages" section (issue 17, decision 039):
 * write, preview (the server's renderer, shown as the public page shows it),
 * publish, unpublish and delete. The server checks the admin role on every call.
 */
export function ContentAdminSection() {
  const toast = useToast();
  const key = ["admin", "content"];
  const query = useApiQuery(key, () => listContent());
  const cache = useApiCache();
  const entries = query.data?.entries ?? null;
  const failed = readFailure(query, "We could not load the posts and pages.");
  const [editing, setEditing] = useState<Editing | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  // After each change, done or not, the list is read again: the server orders it and says each entry's state.
  const load = () => void cache.refresh(key);

  async function setLive(entry: AdminContent, published: boolean) {
    setBusy(entry.id);
    await toastedCall(
      toast,
      () => publishContent(entry.id, published),
      () => ({ title: published ? `Published at ${pathOf(entry)}` : `“${entry.title}” is a draft again` }),
      published ? "The post was not published" : "The post was not unpublished",
    );
    setBusy(null);
    load();
  }

  async function remove(entry: AdminContent) {
    setBusy(entry.id);
    if (
      (await toastedCall(
        toast,
        () => deleteContent(entry.id),
        () => ({ title: `Deleted “${entry.title}”` }),
        "Nothing was deleted",
      )) &&
      editing?.id === entry.id
    )
      setEditing(null);
    setBusy(null);
    setConfirmDelete(null);
    load();
  }

  return (
    <section className="card admin-section" aria-labelledby="content-admin-title">
      <h2 id="content-admin-title">Blog posts and pages</h2>
      <div className="content-admin__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => setEditing({ id: null, draft: { ...EMPTY, kind: "post" }, slugTouched: false })}
        >
          New blog post
        </button>
        <button type="button" className="button button--ghost" onClick={() => setEditing({ id: null, draft: { ...EMPTY, kind: "page" }, slugTouched: false })}>
          New page
        </button>
      </div>
      {editing ? (
        <ContentEditor
          key={editing.id ?? `new-${editing.draft.kind}`}
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={(entry) => {
            setEditing({ id: entry.id, draft: draftOf(entry), slugTouched: true });
            load();
          }}
        />
      ) : null}
      {failed || !entries ? (
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading posts and pages…" />
      ) : entries.length === 0 ? (
        <p className="muted">No posts or pages yet.</p>
      ) : (
        <ul className="content-admin__list" aria-label="Posts and pages">
          {entries.map((entry) => (
            <li key={entry.id} className="content-admin__item">
              <div>
                <strong>{entry.title}</strong>{" "}
                <span className={entry.status === "published" ? "badge badge--live" : "badge"}>{entry.status === "published" ? "Published" : "Draft"}</span>
                <span className="muted small" style={{ display: "block" }}>
                  {entry.kind === "post" ? "Blog post" : "Page"} · {pathOf(entry)} · changed {localDateTime(entry.updatedAt)}
                </span>
              </div>
              <div className="content-admin__actions">
                {entry.status === "published" ? (
                  <a className="button button--ghost" href={pathOf(entry)}>
                    View<span className="visually-hidden"> {entry.title}</span>
                  </a>
                ) : null}
                <button type="button" className="button button--ghost" onClick={() => setEditing({ id: entry.id, draft: draftOf(entry), slugTouched: true })}>
                  Edit<span className="visually-hidden"> {entry.title}</span>
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={busy === entry.id}
                  onClick={() => setLive(entry, entry.status !== "published")}
                >
                  {entry.status === "published" ? "Unpublish" : "Publish"}
                  <span className="visually-hidden"> {entry.title}</span>
                </button>
                {confirmDelete === entry.id ? (
                  <>
                    <button type="button" className="button button--danger" disabled={busy === entry.id} onClick={() => remove(entry)}>
                      Delete for good<span className="visually-hidden"> {entry.title}</span>
                    </button>
                    <button type="button" className="button button--ghost" onClick={() => setConfirmDelete(null)}>
                      Keep it
                    </button>
                  </>
                ) : (
                  <button type="button" className="button button--ghost" onClick={() => setConfirmDelete(entry.id)}>
                    Delete<span className="visually-hidden"> {entry.title}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ContentEditor({ editing, onClose, onSaved }: { editing: Editing; onClose: () => void; onSaved: (entry: AdminContent) => void }) {
  const toast = useToast();
  const id = useId();
  const [draft, setDraft] = useState(editing.draft);
  const [slugTouched, setSlugTouched] = useState(editing.slugTouched);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);
  const [preview, setPreview] = useState<{ html: string } | "loading" | null>(null);

  const set = (field: keyof ContentDraft) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setDraft((current) => ({ ...current, [field]: value, ...(field === "title" && !slugTouched ? { slug: slugify(value) } : {}) }));
    if (field === "slug") setSlugTouched(true);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    try {
      const { entry } = editing.id ? await updateContent(editing.id, draft) : await createContent(draft);
      toast({ kind: "success", title: editing.id ? "Changes saved" : `Draft saved: publish it when it is ready` });
      onSaved(entry);
    } catch (error) {
      setProblem({ message: serverMessage(error) ?? "The post was not saved. Please try again.", field: error instanceof ApiError ? error.field : undefined });
    } finally {
      setSaving(false);
    }
  }

  async function showPreview() {
    setPreview("loading");
    try {
      setPreview(await previewContent(draft.body));
    } catch (error) {
      setPreview(null);
      setProblem({
        message: serverMessage(error) ?? "The preview could not be made. Please try again.",
        field: error instanceof ApiError ? error.field : undefined,
      });
    }
  }

  const field = (name: keyof ContentDraft) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: set(name),
    "aria-invalid": problem?.field === name ? true : undefined,
    "aria-describedby": problem?.field === name ? `${id}-problem` : undefined,
  });

  return (
    <form className="content-admin__form" onSubmit={save} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{editing.id ? `Edit ${kindName(draft.kind)}` : `New ${kindName(draft.kind)}`}</h3>
      <label htmlFor={`${id}-title-input`}>
        Title
        <input {...field("title")} id={`${id}-title-input`} required maxLength={200} />
      </label>
      <label htmlFor={`${id}-slug`}>
        Address ({draft.kind === "post" ? "/blog/" : "/page/"}…)
        <input {...field("slug")} required maxLength={120} pattern="[a-z0-9]+(-[a-z0-9]+)*" />
      </label>
      <label htmlFor={`${id}-description`}>
        Description (search engines and link previews show it)
        <input {...field("description")} required maxLength={320} />
      </label>
      <label htmlFor={`${id}-author`}>
        Author
        <input {...field("author")} required maxLength={100} />
      </label>
      <label htmlFor={`${id}-coverImage`}>
        Cover picture address (optional)
        <input {...field("coverImage")} type="text" inputMode="url" maxLength={1000} />
      </label>
      <label htmlFor={`${id}-coverAlt`}>
        Cover picture description, for people who cannot see it
        <input {...field("coverAlt")} maxLength={300} />
      </label>
      <label htmlFor={`${id}-body`}>
        Text (Markdown)
        <textarea {...field("body")} required />
      </label>
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="notice notice--error">
          {problem.message}
        </p>
      ) : null}
      <div className="content-admin__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? <Spinner /> : null}
          {editing.id ? "Save changes" : "Save draft"}
        </button>
        <button type="button" className="button button--ghost" onClick={showPreview} disabled={preview === "loading"}>
          Preview
        </button>
        <button type="button" className="button button--ghost" onClick={onClose}>
          Close editor
        </button>
      </div>
      {preview === "loading" ? (
        <p className="loading" role="status">
          <Spinner /> Making the preview…
        </p>
      ) : preview ? (
        // biome-ignore lint/a11y/useAriaPropsSupportedByRole: kept as it was: a role for this admin-only preview box would add a landmark to the page.
        <div className="content-admin__preview" aria-label="Preview">
          <article className="article">
            <p className="muted small">Preview: this is how it will look once published.</p>
            <h1>{draft.title || "Untitled"}</h1>
            {draft.kind === "post" ? (
              <p className="article__meta">
                <time dateTime={isoDate(Date.now())}>{publishedDate(Date.now())}</time> · {draft.author}
              </p>
            ) : null}
            <ContentBody html={preview.html} />
          </article>
        </div>
      ) : null}
    </form>
  );
}
