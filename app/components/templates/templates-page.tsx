import * as Dialog from "@radix-ui/react-dialog";
import { useNavigate, useSearchParams } from "@remix-run/react";
import { useRef, useState, type KeyboardEvent } from "react";
import type { Template } from "../../../contracts/content/template.ts";
import type { UserCredentials } from "../../../contracts/accounts/user.ts";
import { useAuth } from "../../lib/auth.tsx";
import { type ApiCache, useApiCache, useApiQuery, useFailureToast } from "../../lib/query.ts";
import { LoginPrompt } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { LoadMoreButton, Spinner } from "../spinner.tsx";
import { starterTemplateDesign } from "./new-template.ts";
import { NameDialog } from "../generator/name-dialog.tsx";
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
  templateKeys,
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

/**
 * What a tab's list is cached as: the standard and favourite templates come whole (the same reads the
 * generator and the RSS feed form make), the user's own and the shared ones a page at a time.
 */
type TabList = Template[] | TemplatePage;

/** The key of a tab's list: only the standard templates are read by category, the others are filtered here. */
function listKey(tab: TemplateTab, category: string | null) {
  switch (tab) {
    case "standard":
      return templateKeys.standard(category);
    case "mine":
      return templateKeys.mine;
    case "shared":
      return templateKeys.shared;
    case "favourites":
      return templateKeys.favourites;
  }
}

function fetchList(tab: TemplateTab, category: string | null): Promise<TabList> {
  switch (tab) {
    case "standard":
      return fetchStandardTemplates(category);
    case "mine":
      return fetchUserTemplates();
    case "shared":
      return fetchSharedTemplates();
    case "favourites":
      return fetchFavoriteTemplates();
  }
}

const pageOf = (list: TabList): TemplatePage => (Array.isArray(list) ? { templates: list, lastTemplateId: null, hasMore: false } : list);

/** The same list with `change` made to its templates, in the shape it is cached in. */
function changeTemplates(list: TabList | undefined, change: (templates: Template[]) => Template[]): TabList | undefined {
  if (!list) return list;
  return Array.isArray(list) ? change(list) : { ...list, templates: change(list.templates) };
}

/** Every list a tab shows (the standard templates of each category). */
const TAB_LISTS = {
  standard: templateKeys.standardLists,
  mine: templateKeys.mine,
  shared: templateKeys.shared,
  favourites: templateKeys.favourites,
} as const satisfies Record<TemplateTab, readonly string[]>;

/** After a change to a template shown in the tab `except`, the other tabs' lists are read again when next shown. */
function refreshOtherLists(cache: ApiCache, except: TemplateTab) {
  for (const other of TABS) if (other.id !== except) void cache.refresh(TAB_LISTS[other.id]);
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
  const [busy, setBusy] = useState<{ id: string; what: "favorite" | "duplicate" } | null>(null);
  /** The tab whose next page is being read. */
  const [loadingMore, setLoadingMore] = useState<TemplateTab | null>(null);
  const [creating, setCreating] = useState(false);
  /** The New template dialog (its name) is open. */
  const [naming, setNaming] = useState(false);
  const [toDelete, setToDelete] = useState<Template | null>(null);
  const [deleting, setDeleting] = useState(false);
  const tabInfo = TABS.find((candidate) => candidate.id === tab)!;
  const cache = useApiCache();

  const categoriesRead = useApiQuery<TemplateCategory[]>(templateKeys.categories, () => fetchTemplateCategories());
  const categories = categoriesRead.data ?? [];
  useFailureToast(categoriesRead, () => ({ title: "Unable to get templatecategories", kind: "error" }), { whenEmpty: true });

  const key = listKey(tab, category);
  // A list read a page at a time is not read again when the window regains focus: that would drop the pages the user asked for.
  const listRead = useApiQuery<TabList>(key, () => fetchList(tab, category), { refetchOnWindowFocus: tab === "standard" || tab === "favourites" });
  const list = listRead.data ? pageOf(listRead.data) : null;
  const listFailed = !list && listRead.error !== null && !listRead.isFetching;

  async function loadMore() {
    if (!list?.lastTemplateId) return;
    const pageKey = key;
    const failed = tabInfo.failed;
    setLoadingMore(tab);
    try {
      const page = tab === "shared" ? await fetchSharedTemplates(list.lastTemplateId) : await fetchUserTemplates(list.lastTemplateId);
      cache.set<TabList>(pageKey, (current) =>
        current && !Array.isArray(current)
          ? { templates: [...current.templates, ...page.templates], lastTemplateId: page.lastTemplateId, hasMore: page.hasMore }
          : current,
      );
    } catch {
      toast({ title: failed, kind: "error" });
    } finally {
      setLoadingMore(null);
    }
  }

  /** A new template asks for its name first (issue 40 point 12), then opens in the editor. */
  async function createTemplate(title: string) {
    setCreating(true);
    try {
      const template = await addNewTemplate({ ...starterTemplateDesign(), title });
      void cache.refresh(templateKeys.mine);
      setNaming(false);
      navigate(`/template-builder/${template.templateId}`);
    } catch (error) {
      setCreating(false);
      toast({ title: "Unable to create the template", description: reasonOf(error), kind: "error" });
      throw error;
    }
  }

  /** Changes the templates of the list shown; the other tabs' lists are read again when next shown. */
  const changeShown = (change: (templates: Template[]) => Template[]) => {
    cache.set<TabList>(key, (current) => changeTemplates(current, change));
    refreshOtherLists(cache, tab);
  };

  const actions = {
    async onToggleFavorite(template: Template) {
      setBusy({ id: template.templateId, what: "favorite" });
      try {
        const result = await toggleTemplateFavorite(template.templateId);
        if (tab === "favourites" && !result.isFavorite) {
          changeShown((templates) => templates.filter((t) => t.templateId !== template.templateId));
        } else {
          const changes = { isFavorite: result.isFavorite, favoriteCount: result.favoriteCount };
          changeShown((templates) => templates.map((t) => (t.templateId === template.templateId ? { ...t, ...changes } : t)));
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
        void cache.refresh(templateKeys.mine);
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
      const gone = toDelete.templateId;
      changeShown((templates) => templates.filter((t) => t.templateId !== gone));
      void cache.refresh(templateKeys.one(gone));
      toast({ title: `"${toDelete.title}" deleted`, kind: "success" });
      setToDelete(null);
    } catch (error) {
      toast({ title: "Unable to delete the template", description: reasonOf(error), kind: "error" });
    } finally {
      setDeleting(false);
    }
  }

  const wanted = category?.toLowerCase();
  const templates = list?.templates ?? [];
  const shown =
    tab === "standard" || !wanted ? templates : templates.filter((template) => (template.categories ?? []).some((name) => name.toLowerCase() === wanted));

  return (
    <main className="page templates-page">
      <header className="templates-page__header">
        <div>
          <h1>Templates</h1>
          <p className="muted">Pick a design for your pins, or make your own.</p>
        </div>
        <button type="button" className="button button--primary" onClick={() => setNaming(true)} disabled={creating}>
          {creating ? <Spinner /> : <span aria-hidden="true">+</span>}
          New template
        </button>
      </header>

      <NameDialog
        open={naming}
        title="New template"
        label="Template name"
        initial=""
        placeholder="Summer recipes, bold title"
        hint="You can rename it later in the editor."
        submitLabel="Create template"
        maxLength={100}
        emptyMessage="Please name your template."
        onCancel={() => setNaming(false)}
        onSubmit={createTemplate}
      />

      <TemplateTabs tab={tab} onChange={setTab} />

      <div className="templates-page__filters">
        <CategoryFilter categories={categories} selected={category} onSelect={setCategory} />
        <ManageCategories
          categories={categories}
          onAdded={(added) => cache.set<TemplateCategory[]>(templateKeys.categories, (all) => [...(all ?? []), added])}
          onDeleted={(gone) => {
            cache.set<TemplateCategory[]>(templateKeys.categories, (all) => all?.filter((c) => c.id !== gone.id));
            if (category?.toLowerCase() === gone.name.toLowerCase()) setCategory(null);
          }}
        />
      </div>

      <section id="templates-panel" role="tabpanel" aria-labelledby={`templates-tab-${tab}`} className="templates-panel">
        {listFailed ? (
          <div className="notice notice--error templates-panel__error" role="alert">
            {tabInfo.failed}
            <button type="button" className="button button--ghost" onClick={() => void listRead.refetch()}>
              Try again
            </button>
          </div>
        ) : !list ? (
          <div className="loading">
            <Spinner size="large" label="Loading templates" />
            <span aria-hidden="true">Loading templates…</span>
          </div>
        ) : shown.length === 0 ? (
          <p className="templates-panel__empty muted">{category && templates.length > 0 ? `No templates in "${category}" here.` : tabInfo.empty}</p>
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
        {list?.hasMore ? (
          <p className="templates-panel__more">
            <LoadMoreButton loading={loadingMore === tab} onClick={() => void loadMore()} />
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
