import { Link } from "@remix-run/react";
import { useId, useState, type FormEvent } from "react";
import type { AdminStandardCategory, AdminStandardTemplate, AdminStandardTemplates } from "../../../contracts/admin/admin-templates.ts";
import { ApiError } from "../../lib/api-client.ts";
import { readFailure, useApiCache, useApiQuery } from "../../lib/query.ts";
import { serverMessage, toastedCall } from "../billing/billing-api.ts";
import { LoadStatus } from "../load-status.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { starterTemplateDesign } from "../templates/new-template.ts";
import {
  createStandardCategory,
  createStandardTemplate,
  listStandardTemplates,
  moved,
  publishStandardTemplate,
  reorderStandardCategories,
  reorderStandardTemplates,
} from "./standard-templates-api.ts";

const inCategory = (template: AdminStandardTemplate, category: string) => template.categories.some((name) => name.toLowerCase() === category.toLowerCase());

/**
 * The admin page's "Standard templates" section (issue 20, decision 053):
 * create a standard template (unpublished, then designed in the template
 * editor), publish and unpublish, reorder the templates of a category and the
 * categories themselves, add a category. The server checks the admin role on
 * every call and audits each change.
 */
export function StandardTemplatesSection() {
  const key = ["admin", "standardTemplates"];
  const query = useApiQuery<AdminStandardTemplates>(key, () => listStandardTemplates());
  const cache = useApiCache();
  const data = query.data ?? null;
  const failed = readFailure(query, "We could not load the standard templates.");
  // After each change the list is read again: the server orders it and counts each category's templates.
  const changed = () => void cache.refresh(key);

  return (
    <section className="card admin-section" aria-labelledby="standard-templates-title">
      <h2 id="standard-templates-title">Standard templates</h2>
      {failed || !data ? (
        <LoadStatus failed={failed} onRetry={() => void query.refetch()} loading="Loading the standard templates…" />
      ) : (
        <>
          <NewTemplateForm categories={data.categories} onCreated={changed} />
          <TemplateList data={data} onChanged={changed} />
          <CategoryList categories={data.categories} onChanged={changed} />
        </>
      )}
    </section>
  );
}

function NewTemplateForm({ categories, onCreated }: { categories: AdminStandardCategory[]; onCreated(): void }) {
  const toast = useToast();
  const id = useId();
  const [title, setTitle] = useState("");
  const [category, setCategory] = useState(categories[0]?.name ?? "");
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<AdminStandardTemplate | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    try {
      const { template } = await createStandardTemplate({ ...starterTemplateDesign(), title: title.trim(), categories: category ? [category] : [] });
      setCreated(template);
      setTitle("");
      toast({ kind: "success", title: `"${template.title}" created`, description: "It is not published yet: design it in the editor, then publish it." });
      onCreated();
    } catch (error) {
      setProblem(serverMessage(error) ?? "The template was not created. Please try again.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="content-admin__form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>New standard template</h3>
      <div className="code-batch-form__grid">
        <label htmlFor={`${id}-name`}>
          Title
          <input id={`${id}-name`} value={title} onChange={(event) => setTitle(event.target.value)} required maxLength={100} />
        </label>
        <label htmlFor={`${id}-category`}>
          Category
          <select id={`${id}-category`} value={category} onChange={(event) => setCategory(event.target.value)}>
            <option value="">No category</option>
            {categories.map((candidate) => (
              <option key={candidate.id} value={candidate.name}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {problem ? (
        <p role="alert" className="notice notice--error">
          {problem}
        </p>
      ) : null}
      <div className="content-admin__actions">
        <button type="submit" className="button button--primary" disabled={saving || !title.trim()}>
          {saving ? <Spinner /> : null}
          {saving ? "Creating…" : "Create template"}
        </button>
        {created ? (
          <Link className="button button--ghost" to={`/template-builder/${created.templateId}`}>
            Design “{created.title}” in the editor
          </Link>
        ) : null}
      </div>
    </form>
  );
}

function TemplateList({ data, onChanged }: { data: AdminStandardTemplates; onChanged(): void }) {
  const toast = useToast();
  const id = useId();
  const [category, setCategory] = useState(data.categories[0]?.name ?? "");
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);

  const shown = category ? data.templates.filter((template) => inCategory(template, category)) : data.templates;

  async function setPublished(template: AdminStandardTemplate, published: boolean) {
    setBusy(template.templateId);
    await toastedCall(
      toast,
      () => publishStandardTemplate(template.templateId, published),
      () => ({
        title: published ? `"${template.title}" is published` : `"${template.title}" is unpublished`,
        description: published ? "Users see it now." : "Users no longer see it.",
      }),
      published ? "The template was not published" : "The template was not unpublished",
    );
    setBusy(null);
    setConfirm(null);
    onChanged();
  }

  async function move(index: number, step: -1 | 1) {
    const order = moved(shown, index, step);
    setBusy(`move-${shown[index]!.templateId}`);
    await toastedCall(
      toast,
      () =>
        reorderStandardTemplates(
          category,
          order.map((template) => template.templateId),
        ),
      () => ({ title: `Moved "${shown[index]!.title}" ${step < 0 ? "up" : "down"}` }),
      "The order was not changed",
    );
    setBusy(null);
    onChanged();
  }

  return (
    <div>
      <h3 id={`${id}-heading`}>Templates</h3>
      <div className="standard-templates__filters">
        <label htmlFor={`${id}-filter`}>
          Show
          <select id={`${id}-filter`} value={category} onChange={(event) => setCategory(event.target.value)}>
            <option value="">All standard templates</option>
            {data.categories.map((candidate) => (
              <option key={candidate.id} value={candidate.name}>
                {candidate.name} ({candidate.templateCount})
              </option>
            ))}
          </select>
        </label>
        <p className="muted small">
          {category ? "Use the arrows to change the order users see in this category." : "Choose a category to change the order of its templates."}
        </p>
      </div>
      {shown.length === 0 ? (
        <p className="muted">No standard template in this category.</p>
      ) : (
        <ol className="standard-templates__list" aria-labelledby={`${id}-heading`}>
          {shown.map((template, index) => (
            <li key={template.templateId} className="standard-templates__item">
              <div>
                <strong>{template.title}</strong>{" "}
                <span className={template.isPublished ? "badge badge--live" : "badge"}>{template.isPublished ? "Published" : "Not published"}</span>
                <span className="muted small admin-section__who">{template.categories.length ? template.categories.join(", ") : "No category"}</span>
              </div>
              <div className="content-admin__actions">
                {category ? (
                  <span className="standard-templates__order" role="group" aria-label={`Order of ${template.title}`}>
                    <button type="button" className="button button--ghost" disabled={busy !== null || index === 0} onClick={() => move(index, -1)}>
                      Up<span className="visually-hidden"> {template.title}</span>
                    </button>
                    <button
                      type="button"
                      className="button button--ghost"
                      disabled={busy !== null || index === shown.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      Down<span className="visually-hidden"> {template.title}</span>
                    </button>
                  </span>
                ) : null}
                <Link className="button button--ghost" to={`/template-builder/${template.templateId}`}>
                  Edit<span className="visually-hidden"> {template.title}</span>
                </Link>
                {!template.isPublished ? (
                  <button type="button" className="button button--primary" disabled={busy !== null} onClick={() => setPublished(template, true)}>
                    Publish<span className="visually-hidden"> {template.title}</span>
                  </button>
                ) : confirm === template.templateId ? (
                  <>
                    <button type="button" className="button button--danger" disabled={busy !== null} onClick={() => setPublished(template, false)}>
                      Hide from users<span className="visually-hidden"> {template.title}</span>
                    </button>
                    <button type="button" className="button button--ghost" onClick={() => setConfirm(null)}>
                      Keep it published
                    </button>
                  </>
                ) : (
                  <button type="button" className="button button--ghost" onClick={() => setConfirm(template.templateId)}>
                    Unpublish<span className="visually-hidden"> {template.title}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function CategoryList({ categories, onChanged }: { categories: AdminStandardCategory[]; onChanged(): void }) {
  const toast = useToast();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);

  async function move(index: number, step: -1 | 1) {
    setBusy(true);
    await toastedCall(
      toast,
      () => reorderStandardCategories(moved(categories, index, step).map((category) => category.id)),
      () => ({ title: `Moved "${categories[index]!.name}" ${step < 0 ? "up" : "down"}` }),
      "The order was not changed",
    );
    setBusy(false);
    onChanged();
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const { category } = await createStandardCategory(name.trim());
      toast({ kind: "success", title: `Category "${category.name}" added`, description: "Every user sees it." });
      setName("");
      onChanged();
    } catch (error) {
      setProblem({
        message: serverMessage(error) ?? "The category was not added. Please try again.",
        field: error instanceof ApiError ? error.field : undefined,
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <h3 id={`${id}-heading`}>Categories</h3>
      <p className="muted small">Users see the categories in this order.</p>
      <ol className="standard-categories__list" aria-labelledby={`${id}-heading`}>
        {categories.map((category, index) => (
          <li key={category.id} className="standard-categories__item">
            <span>
              {category.name}{" "}
              <span className="muted small">
                ({category.templateCount} {category.templateCount === 1 ? "template" : "templates"})
              </span>
            </span>
            <span className="standard-templates__order" role="group" aria-label={`Order of ${category.name}`}>
              <button type="button" className="button button--ghost" disabled={busy || index === 0} onClick={() => move(index, -1)}>
                Up<span className="visually-hidden"> {category.name}</span>
              </button>
              <button type="button" className="button button--ghost" disabled={busy || index === categories.length - 1} onClick={() => move(index, 1)}>
                Down<span className="visually-hidden"> {category.name}</span>
              </button>
            </span>
          </li>
        ))}
      </ol>
      <form className="content-admin__form" onSubmit={add} aria-labelledby={`${id}-new`}>
        <h4 id={`${id}-new`}>New category</h4>
        <label htmlFor={`${id}-name`}>
          Name
          <input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            maxLength={40}
            aria-invalid={problem?.field === "name" ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
        </label>
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="notice notice--error">
            {problem.message}
          </p>
        ) : null}
        <div className="content-admin__actions">
          <button type="submit" className="button button--primary" disabled={busy || !name.trim()}>
            Add category
          </button>
        </div>
      </form>
    </div>
  );
}
