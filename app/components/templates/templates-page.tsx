import * as Dialog from "@radix-ui/react-dialog";
import { useNavigate, useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { Template } from "../../../contracts/content/template.ts";
import type { UserCredentials } from "../../../contracts/accounts/user.ts";
import { useAuth } from "../../lib/auth.tsx";
import { LoginPrompt } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { LoadMoreButton, Spinner } from "../spinner.tsx";
import { starterTemplateDesign } from "./new-template.ts";
import { CategoryFilter, ManageCategories } from "./template-categories.tsx";
import { TemplateCard } from "./template-card.tsx";
import {
  addNewTemplate,
  addTemplateCopy,
  COPY_HAS_NO_CATEGORIES,
  deleteTemplate,
  fetchFavoriteTemplates,
  fetchSharedTemplates,
  fetchStandardTemplates,
  fetchTemplateCategories,
  fetchUserTemplates,
  reasonOf,
  toggleTemplateFavorite,
  type TemplateCategory,
  type TemplatePage,
} from "./template-requests.ts";

export type TemplateTab = "standard" | "mine" | "shared" | "favourites";

const TABS: { id: TemplateTab; label: string; empty: string; failed: string }[] = [
  { id: "standard", label: "Standard", empty: "No standard templates here yet.", failed: "Unable to get standard templates" },
  {
    id: "mine",
    label: "My templates",
    empty: "You have no templates yet. Start one with New template, or duplicate a standard one.",
    failed: "Unable to get user templates",
  },
  { id: "shared", label: "Shared", empty: "Nobody has shared a template yet.", failed: "Unable to get shared templates" },
  { id: "favourites", label: "Favourites", empty: "Tap the heart on a template to keep it here.", failed: "Unable to get favourite templates" },
];

const isTab = (value: string | null): value is TemplateTab => TABS.some((tab) => tab.id === value);

/** Whether the user may change a template: their own, or a standard one when they are an admin. */
export function mayEditTemplate(template: Template, user: UserCredentials): boolean {
  return template.isStandardTemplate ? user.role === "admin" : template.isOwn;
}

/** /templates and /template-builder: the template gallery (spec section 2). */
export function TemplatesPage() {
  const { user } = useAuth();
  if (!user) {
    return (
      <main className="page page--narrow templates-page">
        <h1>Templates</h1>
        <LoginPrompt action="browse and design templates" />
      </main>
    );
  }
  return <TemplateGallery user={user} />;
}

interface ListState {
  status: "loading" | "ready" | "error";
  templates: Template[];
  lastTemplateId: string | null;
  hasMore: boolean;
  loadingMore: boolean;
}

const LOADING: ListState = { status: "loading", templates: [], lastTemplateId: null, hasMore: false, loadingMore: false };

function fetchList(tab: TemplateTab, category: string | null, after?: string | null): Promise<TemplatePage> {
  const whole = (templates: Template[]): TemplatePage => ({ templates, lastTemplateId: null, hasMore: false });
  switch (tab) {
    case "standard":
      return fetchStandardTemplates(category).then(whole);
    case "mine":
      return fetchUserTemplates(after);
    case "shared":
      return fetchSharedTemplates(after);
    case "favourites":
      return fetchFavoriteTemplates().then(whole);
  }
}

function TemplateGallery({ user }: { user: UserCredentials }) {
  const { toast } = useToast();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [tab, setTab] = useState<TemplateTab>(() => {
    const asked = searchParams.get("tab");
    return isTab(asked) ? asked : "standard";
  });
  const [category, setCategory] = useState<string | null>(null);
  const [categories, setCategories] = useState<TemplateCategory[]>([]);
  const [list, setList] = useState<ListState>(LOADING);
  const [busy, setBusy] = useState<{ id: string; what: "favorite" | "duplicate" } | null>(null);
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Template | null>(null);
  const [deleting, setDeleting] = useState(false);
  const request = useRef(0);
  const tabInfo = TABS.find((candidate) => candidate.id === tab)!;

  useEffect(() => {
    fetchTemplateCategories().then(setCategories, () => toast({ title: "Unable to get templatecategories", kind: "error" }));
  }, [toast]);

  const load = useCallback(() => {
    const id = ++request.current;
    setList(LOADING);
    fetchList(tab, category).then(
      (page) => id === request.current && setList({ status: "ready", ...page, loadingMore: false }),
      () => id === request.current && setList({ ...LOADING, status: "error" }),
    );
  }, [tab, category]);

  useEffect(load, [load]);

  async function loadMore() {
    const id = request.current;
    setList((state) => ({ ...state, loadingMore: true }));
    try {
      const page = await fetchList(tab, category, list.lastTemplateId);
      if (id !== request.current) return;
      setList((state) => ({
        status: "ready",
        templates: [...state.templates, ...page.templates],
        lastTemplateId: page.lastTemplateId,
        hasMore: page.hasMore,
        loadingMore: false,
      }));
    } catch {
      if (id !== request.current) return;
      setList((state) => ({ ...state, loadingMore: false }));
      toast({ title: tabInfo.failed, kind: "error" });
    }
  }

  async function createTemplate() {
    setCreating(true);
    try {
      const template = await addNewTemplate(starterTemplateDesign());
      navigate(`/template-builder/${template.templateId}`);
    } catch (error) {
      setCreating(false);
      toast({ title: "Unable to create the template", description: reasonOf(error), kind: "error" });
    }
  }

  const patch = (templateId: string, changes: Partial<Template>) =>
    setList((state) => ({ ...state, templates: state.templates.map((t) => (t.templateId === templateId ? { ...t, ...changes } : t)) }));

  const actions = {
    async onToggleFavorite(template: Template) {
      setBusy({ id: template.templateId, what: "favorite" });
      try {
        const result = await toggleTemplateFavorite(template.templateId);
        if (tab === "favourites" && !result.isFavorite) {
          setList((state) => ({ ...state, templates: state.templates.filter((t) => t.templateId !== template.templateId) }));
        } else {
          patch(template.templateId, { isFavorite: result.isFavorite, favoriteCount: result.favoriteCount });
        }
        toast({ title: result.isFavorite ? "Added to your favourites" : "Removed from your favourites", kind: "success" });
      } catch (error) {
        toast({ title: "Unable to change the favourite", description: reasonOf(error), kind: "error" });
      } finally {
        setBusy(null);
      }
    },
    async onDuplicate(template: Template) {
      setBusy({ id: template.templateId, what: "duplicate" });
      try {
        const copy = await addTemplateCopy(template);
        toast({ title: `"${copy.title}" created`, description: COPY_HAS_NO_CATEGORIES, kind: "success" });
        navigate(`/template-builder/${copy.templateId}`);
      } catch (error) {
        setBusy(null);
        toast({ title: "Unable to duplicate the template", description: reasonOf(error), kind: "error" });
      }
    },
    onDelete(template: Template) {
      setToDelete(template);
    },
  };

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteTemplate(toDelete.templateId);
      setList((state) => ({ ...state, templates: state.templates.filter((t) => t.templateId !== toDelete.templateId) }));
      toast({ title: `"${toDelete.title}" deleted`, kind: "success" });
      setToDelete(null);
    } catch (error) {
      toast({ title: "Unable to delete the template", description: reasonOf(error), kind: "error" });
    } finally {
      setDeleting(false);
    }
  }

  const wanted = category?.toLowerCase();
  const shown =
    tab === "standard" || !wanted
      ? list.templates
      : list.templates.filter((template) => (template.categories ?? []).some((name) => name.toLowerCase() === wanted));

  return (
    <main className="page templates-page">
      <header className="templates-page__header">
        <div>
          <h1>Templates</h1>
          <p className="muted">Pick a design for your pins, or make your own.</p>
        </div>
        <button type="button" className="button button--primary" onClick={() => void createTemplate()} disabled={creating}>
          {creating ? <Spinner /> : <span aria-hidden="true">+</span>}
          New template
        </button>
      </header>

      <TemplateTabs tab={tab} onChange={setTab} />

      <div className="templates-page__filters">
        <CategoryFilter categories={categories} selected={category} onSelect={setCategory} />
        <ManageCategories
          categories={categories}
          onAdded={(added) => setCategories((all) => [...all, added])}
          onDeleted={(gone) => {
            setCategories((all) => all.filter((c) => c.id !== gone.id));
            if (category?.toLowerCase() === gone.name.toLowerCase()) setCategory(null);
          }}
        />
      </div>

      <section id="templates-panel" role="tabpanel" aria-labelledby={`templates-tab-${tab}`} className="templates-panel">
        {list.status === "loading" ? (
          <div className="loading">
            <Spinner size="large" label="Loading templates" />
            <span aria-hidden="true">Loading templates…</span>
          </div>
        ) : list.status === "error" ? (
          <div className="notice notice--error templates-panel__error" role="alert">
            {tabInfo.failed}
            <button type="button" className="button button--ghost" onClick={load}>
              Try again
            </button>
          </div>
        ) : shown.length === 0 ? (
          <p className="templates-panel__empty muted">{category && list.templates.length > 0 ? `No templates in "${category}" here.` : tabInfo.empty}</p>
        ) : (
          <ul className="template-grid" aria-label={`${tabInfo.label} templates`}>
            {shown.map((template) => {
              const editable = mayEditTemplate(template, user);
              return (
                <TemplateCard
                  key={template.templateId}
                  template={template}
                  editable={editable}
                  deletable={editable && !template.isStandardTemplate}
                  showFavoriteCount={template.isShared}
                  busy={busy?.id === template.templateId ? busy.what : null}
                  actions={actions}
                />
              );
            })}
          </ul>
        )}
        {list.status === "ready" && list.hasMore ? (
          <p className="templates-panel__more">
            <LoadMoreButton loading={list.loadingMore} onClick={() => void loadMore()} />
          </p>
        ) : null}
      </section>

      <Dialog.Root open={toDelete !== null} onOpenChange={(open) => !open && !deleting && setToDelete(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">Delete this template?</Dialog.Title>
            <Dialog.Description className="dialog__text">"{toDelete?.title}" will be deleted for good.</Dialog.Description>
            <div className="dialog__actions">
              <Dialog.Close asChild>
                <button type="button" className="button button--ghost" disabled={deleting}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="button" className="button button--danger" onClick={() => void confirmDelete()} disabled={deleting}>
                {deleting ? <Spinner /> : null}
                Delete template
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </main>
  );
}

/** The four lists as accessible tabs: arrow keys, Home and End move between them. */
function TemplateTabs({ tab, onChange }: { tab: TemplateTab; onChange(tab: TemplateTab): void }) {
  const list = useRef<HTMLDivElement>(null);
  function onKeyDown(event: KeyboardEvent) {
    const index = TABS.findIndex((candidate) => candidate.id === tab);
    const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = TABS[(target + TABS.length) % TABS.length];
    onChange(next.id);
    list.current?.querySelector<HTMLButtonElement>(`#templates-tab-${next.id}`)?.focus();
  }
  return (
    <div className="tabs" role="tablist" aria-label="Template lists" ref={list} onKeyDown={onKeyDown}>
      {TABS.map((candidate) => (
        <button
          key={candidate.id}
          id={`templates-tab-${candidate.id}`}
          type="button"
          role="tab"
          className="tabs__tab"
          aria-selected={candidate.id === tab}
          aria-controls="templates-panel"
          tabIndex={candidate.id === tab ? 0 : -1}
          onClick={() => onChange(candidate.id)}
        >
          {candidate.label}
        </button>
      ))}
    </div>
  );
}
