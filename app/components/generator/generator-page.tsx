import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useEffect, useRef, useState } from "react";
import type { Post } from "../../../contracts/content/post.ts";
import { useAuth } from "../../lib/auth.tsx";
import { createDraft, fetchLatestDraft, reasonOf, updateDraft, type Draft } from "../../lib/generator/api.ts";
import { useApiCache, useApiQuery, useFailureToast } from "../../lib/query.ts";
import { AUTOSAVE_NAME, draftPosts, isLoadableDraft, localDateTimeName } from "../../lib/generator/drafts.ts";
import { EmailVerificationScreen } from "../auth/email-verification.tsx";
import { ScheduleDialog } from "../scheduling/schedule-dialog.tsx";
import { usePinterest } from "../scheduling/use-pinterest.tsx";
import { type BulkScheduleResult, dayAndTime, type ScheduleTarget, scheduleSummary, spreadOverBoards } from "../../lib/pinterest/bulk-schedule.ts";
import type { BoardChoice } from "../scheduling/board-fields.tsx";
import { CreditsPanel } from "../shell/credits-meter.tsx";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { DesignDrawer } from "./design-drawer.tsx";
import { settingsFrom, useDesignProfiles } from "./design-profiles.tsx";
import { DraftsDialog, loadDraftPosts, useAutosave } from "./drafts.tsx";
import { generatorKeys } from "./generator-keys.ts";
import { NameDialog } from "./name-dialog.tsx";
import { downloadManyPins, downloadOnePin } from "./pin-downloads.ts";
import { scheduleGridPosts } from "./pin-scheduling.ts";
import { PostCard, type PostCardActions } from "./post-card.tsx";
import { PostEditor } from "./post-editor.tsx";
import { previewEngineStarts, warmPreviews } from "../templates/preview-queue.ts";
import { SourceForm } from "./source-form.tsx";
import { storeGridPosts } from "./grid-storage.ts";
import { useGenerator, type Busy } from "./use-generator.ts";
import { useVideoPins, VideoPinDialog, VideoPinsSection, videoTemplatesOf } from "./video-pins.tsx";
import type { Template } from "../../../contracts/content/template.ts";
import type { GenerationPlan } from "../../lib/products/chosen-products.ts";
import { productsForGeneratorDone, takeProductsForGenerator } from "../../lib/products/handover.ts";
import { DialogActions } from "../dialog-actions.tsx";

/** Performance mark for each preview that has appeared (the benchmark counts them). */
export const PREVIEW_READY_MARK = "generator:preview-ready";
/** How many of the templates to generate with get their fonts fetched ahead of the first generation. */
const WARM_TEMPLATES = 40;

/**
 * /generate (spec section 2): the design settings drawer, a menu bar and the
 * grid of posts. Logged-out visitors get a sign-in prompt; a user whose
 * e-mail is not verified gets the verification screen. The active design
 * settings and the latest draft are read through the data layer; each is
 * taken into the page once, when it has arrived (the user edits from there).
 */
export function GeneratorPage() {
  const { user } = useAuth();
  if (!user) {
    return <SignInPage title="Pin generator" action="generate pins" />;
  }
  if (!user.isEmailVerified) {
    return (
      <main className="page page--narrow account-page">
        <EmailVerificationScreen email={user.email} />
      </main>
    );
  }
  return <Generator />;
}

function Generator() {
  const toast = useToast();
  /** The grid's revision when it was last saved as a draft or loaded from one: later changes are unsaved. */
  const savedRevision = useRef(0);
  const generator = useGenerator(toast, { onReplace: (previous) => void keepReplaced(previous) });
  const { settings, setSettings, posts, selected, setSelected, busy, setBusy } = generator;
  const cache = useApiCache();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [draftsOpen, setDraftsOpen] = useState(false);
  const [naming, setNaming] = useState(false);
  const [currentDraft, setCurrentDraft] = useState<{ draftId: string; name: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<ReadonlySet<string> | null>(null);
  const pinterest = usePinterest();
  /** The posts the board picker is open for. */
  const [toSchedule, setToSchedule] = useState<string[] | null>(null);
  /** Posts the 48-hour rule refused, with where they were to go: "Post it anyway" sends them there again. */
  const [duplicates, setDuplicates] = useState<ReadonlyMap<string, ScheduleTarget>>(new Map());
  /** When each pin scheduled from this page posts ("Thu 10 Dec at 09:00"), shown on its card. */
  const [scheduledAt, setScheduledAt] = useState<ReadonlyMap<string, string>>(new Map());
  /** The post the video pin dialog is open for, and the video templates it offers. */
  const [videoFor, setVideoFor] = useState<string | null>(null);
  const [videoTemplates, setVideoTemplates] = useState<Template[]>([]);
  const videoPins = useVideoPins(toast);
  const readyCount = useRef(0);
  const drawerClose = useRef<HTMLButtonElement>(null);
  /** Products handed over by /products: generated once design settings have loaded. */
  const [products, setProducts] = useState<GenerationPlan | null>(null);
  /** Whether products were handed over (no draft is offered then); null until session storage has been read. */
  const [arrivedWithProducts, setArrivedWithProducts] = useState<boolean | null>(null);

  // Session storage exists only in the browser: it is read after the first render, which matches the server's.
  useEffect(() => {
    const plan = takeProductsForGenerator();
    setArrivedWithProducts(plan !== null);
    setProducts(plan);
  }, []);

  // On a phone the drawer is a slide-over: focus moves into it, Escape closes it.
  useEffect(() => {
    if (!drawerOpen) return;
    drawerClose.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setDrawerOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [drawerOpen]);
  const autosave = useAutosave(posts, generator.revision, true);

  // Design settings: the active profile's, taken into the page once they have arrived (an answer cached from an
  // earlier visit is taken only once it has been read again, if it was stale). Without them, the defaults.
  const profilesRead = useDesignProfiles();
  const [settingsLoading, setSettingsLoading] = useState(true);
  if (settingsLoading && !profilesRead.isPending && !profilesRead.isFetching) {
    setSettingsLoading(false);
    const active = profilesRead.data?.activeDesignSettings;
    if (active) setSettings(settingsFrom(active));
  }
  useFailureToast(profilesRead, (error) => ({ title: `Unable to load design settings: ${reasonOf(error)}`, kind: "error" }), { whenEmpty: true });

  // The latest draft, read afresh on each visit and offered once (undefined until then); not read again after that,
  // since Autosave soon makes the grid itself the latest draft.
  const [offer, setOffer] = useState<Draft | null | undefined>(undefined);
  const latestDraft = useApiQuery<Draft | null>(generatorKeys.latestDraft, () => fetchLatestDraft(), { enabled: offer === undefined, staleTime: 0 });
  if (offer === undefined && arrivedWithProducts !== null && !latestDraft.isFetching && (latestDraft.isSuccess || latestDraft.isError)) {
    const draft = latestDraft.isSuccess ? latestDraft.data : null;
    setOffer(draft && isLoadableDraft(draft) && !arrivedWithProducts ? draft : null);
  }
  useFailureToast(latestDraft, (error) => ({ title: "Unable to load drafts", description: reasonOf(error), kind: "error" }), { whenEmpty: true });

  // The preview engine (satori, the templates to generate with and their fonts) loads while the user is still typing a URL.
  const selections = settings.templateSelections.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: warms again only when the template selection changes, not with every other change of the settings.
  useEffect(() => {
    if (settingsLoading) return;
    const timer = setTimeout(() => {
      generator.templatesFor(settings).then(
        (templates) => warmPreviews(templates.slice(0, WARM_TEMPLATES)),
        () => warmPreviews([]),
      );
    }, 100);
    return () => clearTimeout(timer);
  }, [settingsLoading, selections]);

  // Browsers where the preview engine cannot start (no WebAssembly, workers blocked...) are sent to the basic generator (decision 055).
  const [engineFailed, setEngineFailed] = useState(false);
  useEffect(() => {
    let current = true;
    void previewEngineStarts().then((starts) => current && !starts && setEngineFailed(true));
    return () => {
      current = false;
    };
  }, []);

  // Products chosen on /products: pins from them at once, each product with the pins chosen there.
  useEffect(() => {
    if (settingsLoading || !products) return;
    const plan = products;
    setProducts(null);
    void (async () => {
      const label = plan.sources.length === 1 ? "Making pins from your product" : `Making pins from your ${plan.sources.length} products`;
      setBusy({ label });
      try {
        const count = await generator.addSources(plan.sources, "new", { pinCounts: plan.pinCounts, from: plan.from });
        toast({ title: count === 1 ? "1 pin generated" : `${count} pins generated`, kind: "success" });
      } catch (error) {
        toast({ title: "Unable to generate pins from your products", description: reasonOf(error), kind: "error" });
      } finally {
        setBusy(null);
        productsForGeneratorDone();
      }
    })();
  }, [settingsLoading, products, generator, setBusy, toast]);

  // The grid, for /singlePin in this tab.
  useEffect(() => {
    const timer = setTimeout(() => storeGridPosts(posts, currentDraft), 300);
    return () => clearTimeout(timer);
  }, [posts, currentDraft]);

  /**
   * A new generation is replacing pins: unless they are saved already, they
   * are kept as a draft of their own (Autosave would soon hold the new grid),
   * and the toast offers to put them back.
   */
  async function keepReplaced(previous: Post[]) {
    const count = previous.length;
    const undo = { label: "Undo", onAction: () => generator.restore(previous) };
    if (generator.revision === savedRevision.current && currentDraft) {
      toast({ title: `Your earlier ${count === 1 ? "pin stays" : "pins stay"} in the draft "${currentDraft.name}"`, kind: "info", action: undo });
      return;
    }
    const name = `Earlier pins ${localDateTimeName()}`;
    try {
      const { draft } = await createDraft(previous, name, localDateTimeName());
      void cache.refresh(generatorKeys.drafts);
      toast({
        title: `Your ${count} earlier ${count === 1 ? "pin was" : "pins were"} kept as the draft "${draft.name}"`,
        description: "Open Drafts to load them again, or undo now.",
        kind: "info",
        action: undo,
      });
    } catch (error) {
      toast({ title: "Unable to keep your earlier pins as a draft", description: `${reasonOf(error)} You can still undo now.`, kind: "error", action: undo });
    }
  }

  const loadDraft = useCallback(
    (draft: Draft, loaded: Post[]) => {
      savedRevision.current = generator.revision;
      generator.loadPosts(loaded);
      setCurrentDraft(draft.name === AUTOSAVE_NAME ? null : { draftId: draft.draftId, name: draft.name });
      setDraftsOpen(false);
      setOffer(null);
      toast({ title: `"${draft.name}" loaded`, description: `${loaded.length} ${loaded.length === 1 ? "pin" : "pins"}`, kind: "success" });
    },
    [generator, toast],
  );

  async function acceptOffer() {
    if (!offer) return;
    const inline = draftPosts(offer.posts ?? []);
    if (inline.length > 0) return loadDraft(offer, inline);
    const loaded = await loadDraftPosts(offer.draftId, toast);
    if (loaded) loadDraft(loaded.draft, loaded.posts);
    else setOffer(null);
  }

  async function saveDraft(name: string, asNew: boolean) {
    const date = localDateTimeName();
    if (currentDraft && !asNew) {
      try {
        const { draft } = await updateDraft(currentDraft.draftId, posts, name || localDateTimeName(), date);
        void cache.refresh(generatorKeys.drafts);
        savedRevision.current = generator.revision;
        setCurrentDraft({ draftId: draft.draftId, name: draft.name });
        toast({ title: `"${draft.name}" saved`, kind: "success" });
      } catch (error) {
        toast({ title: "Unable to update draft", description: reasonOf(error), kind: "error" });
        throw error;
      }
      return;
    }
    try {
      const { draft } = await createDraft(posts, name, date);
      void cache.refresh(generatorKeys.drafts);
      savedRevision.current = generator.revision;
      setCurrentDraft({ draftId: draft.draftId, name: draft.name });
      toast({ title: `Draft "${draft.name}" saved`, kind: "success" });
    } catch (error) {
      toast({ title: "Unable to create draft", description: reasonOf(error), kind: "error" });
      throw error;
    }
  }

  const withBusy = async (label: string, task: (progress: (done: number, total: number) => void) => Promise<void>) => {
    setBusy({ label, done: 0, total: 1 });
    try {
      await task((done, total) => setBusy({ label, done, total }));
    } finally {
      setBusy(null);
    }
  };

  const setFlags = generator.setPostFlags;
  const actions: PostCardActions = {
    onEdit: (post) => setEditing(post.id),
    onToggleLock: (post) => generator.toggleLock(post.id),
    onDuplicate: (post) => generator.duplicate(post.id),
    onDelete: (post) => setConfirmDelete(new Set([post.id])),
    onDownload: (post) => void downloadOnePin(post, { bypassResize: settings.bypassResize, setFlags, toast }),
    onSchedule: (post) => setToSchedule([post.id]),
    onMakeVideo: (post) => {
      setVideoFor(post.id);
      generator.standardTemplates().then(
        (templates) => setVideoTemplates(videoTemplatesOf(templates)),
        (error: unknown) => toast({ title: "Unable to get the templates", description: reasonOf(error), kind: "error" }),
      );
    },
    onPostAnyway: (post) => {
      const target = duplicates.get(post.id);
      if (target) void schedule([post.id], { ...target, allowDuplicate: true });
    },
    onSelect: (post, on) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(post.id);
        else next.delete(post.id);
        return next;
      }),
    onPreviewReady: () => {
      readyCount.current += 1;
      performance.mark(PREVIEW_READY_MARK, { detail: { count: readyCount.current } });
    },
  };

  // The edit dialog offers the templates of the pool, read on demand when a pin is edited before any generation
  // (after a draft was opened); templatesFor keeps them as the pool too.
  const poolRead = useApiQuery(generatorKeys.templatePool(settings.templateSelections), () => generator.templatesFor(settings), {
    enabled: editing !== null && generator.pool.length === 0,
  });
  const pool = generator.pool.length > 0 ? generator.pool : (poolRead.data ?? []);

  const chosen = posts.filter((post) => selected.has(post.id));
  const editingPost = posts.find((post) => post.id === editing) ?? null;
  const allSelected = posts.length > 0 && chosen.length === posts.length;
  const working = busy !== null;

  async function schedule(ids: string[], target: ScheduleTarget, moreBoards: BoardChoice[] = []) {
    setToSchedule(null);
    const wanted = new Set(ids);
    const forget = (current: ReadonlyMap<string, ScheduleTarget>) => new Map([...current].filter(([id]) => !wanted.has(id)));
    setDuplicates(forget);
    const label = `Scheduling ${ids.length} ${ids.length === 1 ? "pin" : "pins"}`;
    setBusy({ label, percent: 0 });
    // Pins of one link spread over the boards chosen (issue 40 point 1): the n-th of a link to the n-th board.
    const targets = [target, ...moreBoards.map((more) => ({ ...target, boardId: more.boardId, boardName: more.boardName, sectionId: more.sectionId }))];
    const groups = spreadOverBoards(
      posts.filter((post) => wanted.has(post.id)),
      targets.length,
    );
    const total: BulkScheduleResult = { total: 0, scheduled: 0, creditsCharged: 0, failed: [], times: [] };
    try {
      for (const [index, group] of groups.entries()) {
        if (group.length === 0) continue;
        const result = await scheduleGridPosts(group, targets[index], {
          bypassResize: settings.bypassResize,
          setFlags,
          onPercent: (percent) => setBusy({ label, percent: Math.round((index * 100 + percent) / groups.length) }),
        });
        total.total += result.total;
        total.scheduled += result.scheduled;
        total.creditsCharged += result.creditsCharged;
        total.failed.push(...result.failed);
        total.times.push(...result.times);
        // Each scheduled card says when it posts, in the profile's zone (issue 40 point 1).
        setScheduledAt((current) => new Map([...current, ...result.times.map((time) => [time.postId, dayAndTime(time.at, target.timeZone)] as const)]));
        const refused = result.failed.filter((failure) => failure.reason === "duplicate");
        if (refused.length > 0)
          setDuplicates((current) => new Map([...forget(current), ...refused.map((failure) => [failure.postId, targets[index]] as const)]));
      }
      const boards = targets.length > 1 ? `${target.boardName} and ${targets.length - 1} more ${targets.length === 2 ? "board" : "boards"}` : target.boardName;
      toast(scheduleSummary(total, { ...target, boardName: boards }));
    } finally {
      setBusy(null);
    }
  }

  async function regenerate(what: "templates" | "colors" | "images", only?: ReadonlySet<string>) {
    try {
      await generator.regenerate(what, only);
    } catch (error) {
      toast({ title: "Unable to get the templates", description: reasonOf(error), kind: "error" });
    }
  }

  return (
    <main className={`generator${drawerOpen ? " generator--drawer-open" : ""}`} aria-busy={working || settingsLoading}>
      <aside id="design-drawer" className="generator__drawer" aria-label="Design settings">
        <button
          ref={drawerClose}
          type="button"
          className="icon-button generator__drawer-close"
          aria-label="Close design settings"
          onClick={() => setDrawerOpen(false)}
        >
          <span aria-hidden="true">×</span>
        </button>
        {settingsLoading ? (
          <div className="loading">
            <Spinner size="large" label="Loading design settings" />
            <span aria-hidden="true">Loading design settings…</span>
          </div>
        ) : (
          <DesignDrawer
            settings={settings}
            onChange={(patch) => setSettings((current) => ({ ...current, ...patch }))}
            detectedImages={generator.detectedImages}
            standardTemplates={generator.standardTemplates}
            onApply={() => {
              generator.applyDesign();
              toast({ title: "Design applied to the unlocked pins", kind: "success" });
            }}
            canApply={posts.length > 0}
          />
        )}
      </aside>
      {drawerOpen ? <div className="generator__scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} /> : null}

      <div className="generator__main">
        <h1 className="visually-hidden">Pin generator</h1>
        {engineFailed ? (
          <p className="notice notice--error generator__engine-failed" role="alert">
            The live pin previews cannot start in this browser. <a href="/backupGenerator">Use the basic generator</a>, which draws your pins on our server.
          </p>
        ) : null}
        <div className="generator__menubar" role="toolbar" aria-label="Pins">
          <button
            type="button"
            className="button button--ghost generator__drawer-toggle"
            aria-controls="design-drawer"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            Design settings
          </button>
          <button type="button" className="chip-button" disabled={working || posts.length === 0} onClick={() => void regenerate("templates")}>
            Regenerate templates
          </button>
          <button type="button" className="chip-button" disabled={working || posts.length === 0} onClick={() => void regenerate("colors")}>
            Regenerate colours
          </button>
          <button type="button" className="chip-button" disabled={working || posts.length === 0} onClick={() => void regenerate("images")}>
            Regenerate images
          </button>
          <span className="generator__menubar-gap" />
          <button
            type="button"
            className="chip-button"
            disabled={working || posts.length === 0}
            onClick={() => (currentDraft ? void saveDraft(currentDraft.name, false).catch(() => undefined) : setNaming(true))}
          >
            Save draft
          </button>
          {currentDraft ? (
            <button type="button" className="chip-button" disabled={working || posts.length === 0} onClick={() => setNaming(true)}>
              Save as new draft
            </button>
          ) : null}
          <button type="button" className="chip-button" onClick={() => setDraftsOpen(true)}>
            Drafts
          </button>
          <span className="generator__autosave muted small" role="status">
            {autosave === "saving" ? "Autosaving…" : autosave === "saved" ? "Autosaved" : autosave === "failed" ? "Autosave failed" : ""}
          </span>
        </div>

        <CreditsPanel />
        <SourceForm generator={generator} disabled={working} />

        {offer ? (
          <div className="notice notice--info generator__offer" role="region" aria-label="Latest draft">
            <span>
              Continue where you left off? "{offer.name}" has {offer.postCount} {offer.postCount === 1 ? "pin" : "pins"}.
            </span>
            <span className="generator__offer-actions">
              <button type="button" className="button button--primary" onClick={() => void acceptOffer()}>
                Load draft
              </button>
              <button type="button" className="button button--ghost" onClick={() => setOffer(null)}>
                Dismiss
              </button>
            </span>
          </div>
        ) : null}

        {posts.length > 0 ? (
          <div className="generator__bulkbar" role="toolbar" aria-label="Selected pins">
            <label className="check">
              <input type="checkbox" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(posts.map((post) => post.id)))} />
              Select all
            </label>
            <span className="muted small" aria-live="polite">
              {chosen.length} of {posts.length} selected
            </span>
            <button
              type="button"
              className="chip-button"
              disabled={working || chosen.length === 0}
              onClick={() =>
                void withBusy("Downloading pins", (progress) =>
                  chosen.length === 1
                    ? downloadOnePin(chosen[0], { bypassResize: settings.bypassResize, setFlags, toast })
                    : downloadManyPins(chosen, { bypassResize: settings.bypassResize, setFlags, toast, onProgress: progress }),
                )
              }
            >
              Download selected
            </button>
            <button
              type="button"
              className="chip-button"
              disabled={working || chosen.length === 0}
              onClick={() => setToSchedule(chosen.map((post) => post.id))}
            >
              Schedule selected
            </button>
            <button type="button" className="chip-button" disabled={working || chosen.length === 0} onClick={() => void regenerate("templates", selected)}>
              Regenerate selected
            </button>
            <button
              type="button"
              className="chip-button chip-button--danger"
              disabled={working || chosen.length === 0}
              onClick={() => setConfirmDelete(new Set(selected))}
            >
              Delete selected
            </button>
          </div>
        ) : null}

        {busy ? <BusyBar busy={busy} /> : null}

        <VideoPinsSection videoPins={videoPins} pinterest={pinterest} toast={toast} disabled={working} />

        {posts.length === 0 ? (
          <div className="generator__empty">
            {busy ? null : (
              <>
                <h2>Your pins appear here</h2>
                <p className="muted">Paste a blog post URL above, find posts in a sitemap, read a feed or describe a product, then press Generate.</p>
              </>
            )}
          </div>
        ) : (
          <ul className="post-grid" aria-label="Generated pins">
            {posts.map((post, index) => (
              <PostCard
                key={post.id}
                post={post}
                index={index}
                selected={selected.has(post.id)}
                canPostAnyway={!working && duplicates.has(post.id) && Boolean(post.error)}
                scheduledAt={post.isScheduled ? scheduledAt.get(post.id) : undefined}
                actions={actions}
              />
            ))}
          </ul>
        )}
      </div>

      <Dialog.Root open={editingPost !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog dialog--wide post-dialog" aria-describedby={undefined}>
            <Dialog.Title className="dialog__title">Edit pin {editingPost ? posts.indexOf(editingPost) + 1 : ""}</Dialog.Title>
            {editingPost ? (
              <PostEditor
                post={editingPost}
                templates={pool}
                settings={settings}
                extraImages={settings.selectedUploadedImages}
                onChange={generator.updatePost}
              />
            ) : null}
            <DialogActions close="Done" closeKind="primary" />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>

      <ScheduleDialog
        open={toSchedule !== null}
        count={toSchedule?.length ?? 0}
        links={posts.filter((post) => toSchedule?.includes(post.id)).map((post) => post.url)}
        pinterest={pinterest}
        onCancel={() => setToSchedule(null)}
        onConfirm={(target, moreBoards) => toSchedule && void schedule(toSchedule, target, moreBoards)}
      />
      <VideoPinDialog
        post={posts.find((post) => post.id === videoFor) ?? null}
        templates={videoTemplates}
        onCancel={() => setVideoFor(null)}
        onCreate={videoPins.create}
      />
      {pinterest.reauthorizeDialog}
      <DraftsDialog open={draftsOpen} onClose={() => setDraftsOpen(false)} onLoad={loadDraft} />
      <NameDialog
        open={naming}
        title="Save draft"
        label="Draft name"
        initial={localDateTimeName()}
        submitLabel="Save draft"
        maxLength={100}
        onCancel={() => setNaming(false)}
        onSubmit={async (name) => {
          await saveDraft(name, true);
          setNaming(false);
        }}
      />
      <Dialog.Root open={confirmDelete !== null} onOpenChange={(open) => !open && setConfirmDelete(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" role="alertdialog">
            <Dialog.Title className="dialog__title">Delete {confirmDelete && confirmDelete.size > 1 ? `${confirmDelete.size} pins` : "this pin"}?</Dialog.Title>
            <Dialog.Description className="dialog__text">Deleted pins leave the grid. Pins saved in a draft stay in that draft.</Dialog.Description>
            <DialogActions>
              <button
                type="button"
                className="button button--danger"
                onClick={() => {
                  if (confirmDelete) generator.remove(confirmDelete);
                  setConfirmDelete(null);
                }}
              >
                Delete
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </main>
  );
}

function BusyBar({ busy }: { busy: Busy }) {
  const counted = busy.total !== undefined && busy.total > 0;
  const known = counted || busy.percent !== undefined;
  const percent = busy.percent ?? (counted ? Math.round(((busy.done ?? 0) / busy.total!) * 100) : undefined);
  return (
    <div className="progress generator__busy">
      <p className="progress__label" id="generator-busy-label">
        <Spinner label={busy.label} /> {busy.label}
        {busy.percent !== undefined ? ` (${busy.percent}%)` : counted ? ` (${busy.done} of ${busy.total})` : "…"}
      </p>
      <div className="progress__track" role="progressbar" aria-labelledby="generator-busy-label" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span className={known ? "progress__fill" : "progress__fill progress__fill--indeterminate"} style={{ width: known ? `${percent}%` : "30%" }} />
      </div>
    </div>
  );
}
