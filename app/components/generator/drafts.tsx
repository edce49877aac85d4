import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useRef, useState } from "react";
import type { DraftsPage } from "../../../contracts/content/library.ts";
import type { Post } from "../../../contracts/content/post.ts";
import { createDraft, deleteDraft, fetchDraft, fetchDrafts, reasonOf, renameDraft, type Draft, type DraftSummary } from "../../lib/generator/api.ts";
import { AUTOSAVE_DELAY_MS, AUTOSAVE_NAME, draftPosts, isLoadableDraft, localDateTimeName } from "../../lib/generator/drafts.ts";
import { useApiCache, useApiQuery, useFailureToast } from "../../lib/query.ts";
import { useToast } from "../shell/toast.tsx";
import { LoadMoreButton, Spinner } from "../spinner.tsx";
import { generatorKeys } from "./generator-keys.ts";
import { NameDialog } from "./name-dialog.tsx";
import { DialogActions } from "../dialog-actions.tsx";

/**
 * Autosave (spec section 4): after the grid has been still for a moment, it is
 * saved as the user's one "Autosave" draft. Changes while a save is under way
 * are saved after it. The drafts read so far are read again where next shown.
 */
export function useAutosave(posts: Post[], revision: number, enabled: boolean) {
  const latest = useRef(posts);
  latest.current = posts;
  const saving = useRef<Promise<unknown> | null>(null);
  const [state, setState] = useState<"idle" | "saving" | "saved" | "failed">("idle");
  const cache = useApiCache();
  const refresh = useRef(cache.refresh);
  refresh.current = cache.refresh;

  useEffect(() => {
    if (!enabled || revision === 0 || latest.current.length === 0) return;
    const timer = setTimeout(async () => {
      await saving.current?.catch(() => undefined);
      setState("saving");
      saving.current = createDraft(latest.current, AUTOSAVE_NAME, localDateTimeName());
      try {
        await saving.current;
        void refresh.current(generatorKeys.drafts);
        setState("saved");
      } catch {
        setState("failed");
      }
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [revision, enabled]);

  return state;
}

function describe(draft: DraftSummary) {
  const when = new Date(draft.updatedAt);
  const date = Number.isNaN(when.getTime()) ? draft.date : when.toLocaleString();
  return `${draft.postCount} ${draft.postCount === 1 ? "pin" : "pins"} · ${date}`;
}

/** Loads a draft into the editor, if it has at least one post; answers its posts, or null after telling the user why not. */
export async function loadDraftPosts(draftId: string, toast: ReturnType<typeof useToast>): Promise<{ draft: Draft; posts: Post[] } | null> {
  let draft: Draft;
  try {
    draft = await fetchDraft(draftId);
  } catch (error) {
    toast({ title: "Unable to load drafts", description: reasonOf(error), kind: "error" });
    return null;
  }
  const posts = draftPosts(draft.posts ?? []);
  if (!isLoadableDraft({ posts })) {
    toast({ title: `"${draft.name}" has no pins to load`, kind: "info" });
    return null;
  }
  return { draft, posts };
}

/**
 * The user's drafts, newest first, paged: load, rename or delete one. The list is read when the dialog opens
 * (again only if it may have changed since), and the pages after the first are added to the same cached list.
 */
export function DraftsDialog({ open, onClose, onLoad }: { open: boolean; onClose(): void; onLoad(draft: Draft, posts: Post[]): void }) {
  const toast = useToast();
  const cache = useApiCache();
  // Not read again when the window regains focus: that would drop the pages the user asked for.
  const list = useApiQuery<DraftsPage>(generatorKeys.draftList, () => fetchDrafts(), { enabled: open, refetchOnWindowFocus: false });
  useFailureToast(list, (error) => ({ title: "Unable to get drafts", description: reasonOf(error), kind: "error" }), { whenEmpty: true });
  // A list that could not be read is shown empty, with the toast saying why.
  const drafts = list.data?.drafts ?? (list.isError && !list.isFetching ? [] : null);
  const hasMore = list.data?.hasMore ?? false;
  const [loadingMore, setLoadingMore] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<DraftSummary | null>(null);
  const change = (update: (drafts: DraftSummary[]) => DraftSummary[]) =>
    cache.set<DraftsPage>(generatorKeys.draftList, (current) => current && { ...current, drafts: update(current.drafts) });

  async function loadMore(after: string | undefined) {
    setLoadingMore(true);
    try {
      const page = await fetchDrafts(after);
      cache.set<DraftsPage>(generatorKeys.draftList, (current) => ({ drafts: [...(current?.drafts ?? []), ...page.drafts], hasMore: page.hasMore }));
    } catch (error) {
      toast({ title: "Unable to get drafts", description: reasonOf(error), kind: "error" });
    } finally {
      setLoadingMore(false);
    }
  }

  async function loadOne(draft: DraftSummary) {
    setBusyId(draft.draftId);
    const loaded = await loadDraftPosts(draft.draftId, toast);
    setBusyId(null);
    if (loaded) onLoad(loaded.draft, loaded.posts);
  }

  async function remove(draft: DraftSummary) {
    setBusyId(draft.draftId);
    try {
      await deleteDraft(draft.draftId);
      change((current) => current.filter((other) => other.draftId !== draft.draftId));
      void cache.refresh(generatorKeys.latestDraft);
      toast({ title: `"${draft.name}" deleted`, kind: "success" });
    } catch (error) {
      toast({ title: "Unable to delete draft", description: reasonOf(error), kind: "error" });
    } finally {
      setBusyId(null);
    }
  }

  async function rename(newName: string) {
    if (!renaming) return;
    try {
      const { draft } = await renameDraft(renaming.draftId, newName);
      change((current) => current.map((other) => (other.draftId === draft.draftId ? { ...other, ...draft } : other)));
      setRenaming(null);
    } catch (error) {
      toast({ title: "Unable to rename draft", description: reasonOf(error), kind: "error" });
      throw error;
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide drafts-dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">Drafts</Dialog.Title>
          {drafts === null ? (
            <div className="loading">
              <Spinner size="large" label="Loading drafts" />
            </div>
          ) : drafts.length === 0 ? (
            <p className="muted">No drafts yet: save the pins you are working on with Save draft.</p>
          ) : (
            <ul className="drafts-list" aria-label="Your drafts">
              {drafts.map((draft) => (
                <li key={draft.draftId} className="drafts-list__item">
                  <div className="drafts-list__text">
                    <span className="drafts-list__name">{draft.name}</span>
                    <span className="muted small">{describe(draft)}</span>
                  </div>
                  <div className="drafts-list__actions">
                    <button
                      type="button"
                      className="chip-button"
                      disabled={busyId !== null || draft.postCount === 0}
                      onClick={() => void loadOne(draft)}
                      aria-label={`Load ${draft.name}`}
                    >
                      {busyId === draft.draftId ? <Spinner /> : null}
                      Load
                    </button>
                    <button
                      type="button"
                      className="chip-button"
                      disabled={busyId !== null}
                      onClick={() => setRenaming(draft)}
                      aria-label={`Rename ${draft.name}`}
                    >
                      Rename
                    </button>
                    <button
                      type="button"
                      className="chip-button chip-button--danger"
                      disabled={busyId !== null}
                      onClick={() => void remove(draft)}
                      aria-label={`Delete ${draft.name}`}
                    >
                      Delete
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          {hasMore ? <LoadMoreButton loading={loadingMore} onClick={() => void loadMore(drafts?.at(-1)?.draftId)} /> : null}
          <DialogActions close="Close" />
          <NameDialog
            open={renaming !== null}
            title="Rename draft"
            label="Draft name"
            initial={renaming?.name ?? ""}
            submitLabel="Rename"
            maxLength={100}
            onCancel={() => setRenaming(null)}
            onSubmit={rename}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
