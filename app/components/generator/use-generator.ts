import { useCallback, useMemo, useRef, useState } from "react";
import { defaultDesignSettings, type DesignSettings } from "../../../contracts/content/design-settings.ts";
import type { Post } from "../../../contracts/content/post.ts";
import { MAX_URLS_PER_BATCH, type Source } from "../../../contracts/content/scrape.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { preloadPreviewPictures } from "../templates/preview-queue.ts";
import { fetchStandardTemplates, templateKeys } from "../templates/template-requests.ts";
import { previewImageUrl } from "../../lib/generator/preview-images.ts";
import { applyAiCopy, needsAi } from "../../lib/generator/ai-copy.ts";
import { aiClient, fetchTemplateSet, reasonOf, scrapeWebsites } from "../../lib/generator/api.ts";
import {
  applyDesignToPosts,
  duplicatePost,
  fittingTemplates,
  imageCandidates,
  sourceOffer,
  editPost,
  generatePosts,
  regenerateColors,
  regenerateImages,
  regenerateTemplates,
  replacePosts,
  startGeneration,
  templatePool,
  type GenerationContext,
  type PostTextEdit,
} from "../../../workers/domain/generate.ts";
import type { Random } from "../../../workers/domain/random.ts";
import { chunks, mapLimit } from "../../lib/generator/tasks.ts";
import { useApiCache } from "../../lib/query.ts";
import type { Toaster } from "../shell/toast.tsx";
import { useTemplatesThatPerform } from "./templates-that-perform.tsx";

/** What the page is busy with; a progress bar shows done / total when known. */
export interface Busy {
  label: string;
  done?: number;
  total?: number;
  /** A percentage to show instead of done / total (bulk scheduling rises toward 90 until the server confirms). */
  percent?: number;
}

const random: Random = () => Math.random();
export const newPostId = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `p-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** Pictures previews fetch ahead, while the posts are being made: a few of each source's, at most 24 in all. */
const PRELOAD_PICTURES = 24;
function preloadSourcePictures(sources: Source[]) {
  if (typeof window === "undefined" || sources.length === 0) return;
  const each = Math.min(8, Math.max(2, Math.floor(PRELOAD_PICTURES / sources.length)));
  const urls = sources.flatMap((source) => source.allImages.slice(0, each)).slice(0, PRELOAD_PICTURES);
  preloadPreviewPictures([...new Set(urls.map((url) => previewImageUrl(url, window.location.origin)))]);
}

/** True when some source can fill none of `templates` (it then takes a variant from the standard templates). */
function needsFallbacks(sources: readonly Source[], settings: DesignSettings, templates: readonly Template[]): boolean {
  return sources.some((source) => fittingTemplates(templates, sourceOffer(source, imageCandidates(source, settings))).length === 0);
}

/** Marks for the benchmark and for tests (read with performance.getEntriesByName). */
export const MARKS = { scrapeResult: "generator:scrape-result", postsReady: "generator:posts-ready" } as const;

/**
 * The generator's state: design settings, the grid of posts, the template
 * pool and what is under way. Every change to the grid goes through here so
 * that the rules of app/lib/generator apply (locks, flags, file names).
 */
export function useGenerator(toast: Toaster, options: { onReplace?(previous: Post[]): void } = {}) {
  const [settings, setSettings] = useState<DesignSettings>(defaultDesignSettings);
  const [posts, setPostsState] = useState<Post[]>([]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<Busy | null>(null);
  const [detectedImages, setDetectedImages] = useState<string[]>([]);
  /** Increases with every change the user makes to the grid (autosave watches it). */
  const [revision, setRevision] = useState(0);
  const standard = useRef<Promise<Template[]> | null>(null);
  const cache = useApiCache();
  const sets = useRef(new Map<string, Promise<Template[]>>());
  const [pool, setPool] = useState<Template[]>([]);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const postsRef = useRef(posts);
  postsRef.current = posts;
  const onReplace = useRef(options.onReplace);
  onReplace.current = options.onReplace;
  // The families to lean towards in a random template choice (issue 41), read when a generation starts.
  const familyWeights = useRef<Readonly<Record<string, number>> | undefined>(undefined);
  familyWeights.current = useTemplatesThatPerform().familyWeights;

  const changePosts = useCallback((change: (posts: Post[]) => Post[]) => {
    setPostsState(change);
    setRevision((n) => n + 1);
  }, []);

  /** Replaces the grid without counting it as a change (loading a draft). */
  const loadPosts = useCallback((next: Post[]) => {
    setPostsState(next);
    setSelected(new Set());
  }, []);

  /**
   * The standard templates, read once: taken from the data layer's cache when the gallery or the template
   * picker has read them already, and put there when read here (generations need them as a promise).
   */
  const standardTemplates = useCallback(() => {
    const cached = cache.get<Template[]>(templateKeys.standard());
    if (cached) return Promise.resolve(cached);
    standard.current ??= fetchStandardTemplates().then(
      (templates) => {
        cache.set<Template[]>(templateKeys.standard(), () => templates);
        return templates;
      },
      (error: unknown) => {
        standard.current = null;
        throw error;
      },
    );
    return standard.current;
  }, [cache]);

  /** The templates to generate with (spec: a missing selected template falls back to another). */
  const templatesFor = useCallback(
    async (current: DesignSettings): Promise<Template[]> => {
      const ids = current.templateSelections;
      const key = ids.join(",");
      let found: Template[] = [];
      if (ids.length > 0) {
        let request = sets.current.get(key);
        if (!request) {
          request = fetchTemplateSet(ids);
          sets.current.set(key, request);
          request.catch(() => sets.current.delete(key));
        }
        found = await request;
      }
      const needStandard = ids.length === 0 || found.length === 0;
      // The standard templates are the fallbacks of a generation too: fetched now, while the user is still choosing a source.
      if (!needStandard) standardTemplates().catch(() => undefined);
      const result = templatePool(ids, found, needStandard ? await standardTemplates() : []);
      setPool(result);
      return result;
    },
    [standardTemplates],
  );

  /**
   * Sources -> posts: a new generation (locked posts stay) or more posts for the running one; `pinCounts` gives each
   * source its own number of pins (products); `from` says where the sources came from (sent with each pin, issue 41).
   */
  const addSources = useCallback(
    async (sources: Source[], mode: "new" | "append", { pinCounts, from }: { pinCounts?: readonly number[]; from?: GenerationContext["from"] } = {}) => {
      const current = settingsRef.current;
      preloadSourcePictures(sources);
      const fallbacksLoading = standardTemplates().catch((): Template[] => []);
      const templates = await templatesFor(current);
      // The fallbacks are waited for only when a source fits none of the templates (usually they have loaded long before).
      const fallbacks = needsFallbacks(sources, current, templates) ? await fallbacksLoading : [];
      const fresh = generatePosts(sources, {
        settings: current,
        templates,
        fallbacks,
        random,
        newId: newPostId,
        pinCounts,
        from,
        familyWeights: familyWeights.current,
      });
      setDetectedImages((previous) => [...new Set([...(mode === "new" ? [] : previous), ...sources.flatMap((source) => source.allImages)])].slice(0, 40));
      // A new generation replaces the unlocked pins: the page keeps them (a draft, undo).
      const previous = postsRef.current;
      if (mode === "new" && previous.some((post) => !post.isLocked)) onReplace.current?.(previous);
      changePosts((existing) => (mode === "new" ? startGeneration(existing, fresh) : [...existing, ...fresh].slice(0, 200)));
      if (mode === "new") setSelected(new Set());
      performance.mark(MARKS.postsReady, { detail: { count: fresh.length } });
      if (needsAi(current) && fresh.length > 0) {
        setBusy({ label: "Writing titles and descriptions with AI", done: 0, total: 1 });
        const result = await applyAiCopy(fresh, current, aiClient, {
          random,
          onProgress: (done, total) => setBusy({ label: "Writing titles and descriptions with AI", done, total }),
        });
        // Posts the user deleted meanwhile stay deleted; the others take the AI's copy.
        changePosts((existing) => replacePosts(existing, result.posts));
        if (result.failures.length > 0) {
          toast({ title: "Some AI copy could not be written: the posts keep their text", description: result.failures.join(" "), kind: "error" });
        }
      }
      return fresh.length;
    },
    [changePosts, templatesFor, standardTemplates, toast],
  );

  /**
   * Many page URLs (a sitemap's), 25 per call, with a progress bar; posts
   * appear batch by batch. Pages already read (`known`) are not read again.
   */
  const generateFromUrls = useCallback(
    async (urls: string[], known: ReadonlyMap<string, Source> = new Map()) => {
      const ready = urls.flatMap((url) => (known.has(url) ? [known.get(url)!] : []));
      const batches = chunks(
        urls.filter((url) => !known.has(url)),
        MAX_URLS_PER_BATCH,
      );
      const failures: { url: string; error: string }[] = [];
      let scraped = ready.length;
      let first = true;
      setBusy({ label: "Reading your posts", done: scraped, total: urls.length });
      if (ready.length > 0) {
        first = false;
        await addSources(ready, "new", { from: "sitemap" });
      }
      await mapLimit(batches, 2, async (batch) => {
        try {
          const answer = await scrapeWebsites(batch);
          failures.push(...answer.failures);
          if (answer.sources.length > 0) {
            const mode = first ? "new" : "append";
            first = false;
            await addSources(answer.sources, mode, { from: "sitemap" });
          }
        } catch (error) {
          failures.push(...batch.map((url) => ({ url, error: reasonOf(error) })));
        }
        scraped += batch.length;
        setBusy({ label: "Reading your posts", done: scraped, total: urls.length });
      });
      return { failures, generated: urls.length - failures.length };
    },
    [addSources],
  );

  const api = useMemo(
    () => ({
      editPost(id: string, edit: PostTextEdit) {
        changePosts((all) => all.map((post) => (post.id === id ? editPost(post, edit, random) : post)));
      },
      /** Puts a whole grid back (undo), as the user's change. */
      restore(previous: Post[]) {
        changePosts(() => previous);
        setSelected(new Set());
      },
      updatePost(post: Post) {
        changePosts((all) => replacePosts(all, [post]));
      },
      toggleLock(id: string) {
        changePosts((all) => all.map((post) => (post.id === id ? { ...post, isLocked: !post.isLocked } : post)));
      },
      duplicate(id: string) {
        changePosts((all) => all.flatMap((post) => (post.id === id ? [post, duplicatePost(post, newPostId(), random)] : [post])));
      },
      remove(ids: ReadonlySet<string>) {
        changePosts((all) => all.filter((post) => !ids.has(post.id)));
        setSelected((current) => new Set([...current].filter((id) => !ids.has(id))));
      },
      async regenerate(what: "templates" | "colors" | "images", only?: ReadonlySet<string>) {
        const current = settingsRef.current;
        const [templates, fallbacks] =
          what === "templates" ? await Promise.all([templatesFor(current), standardTemplates().catch((): Template[] => [])]) : [[], []];
        const within = (change: (subset: Post[]) => Post[]) => (all: Post[]) => {
          if (!only || only.size === 0) return change(all);
          return replacePosts(all, change(all.filter((post) => only.has(post.id))));
        };
        changePosts(
          within((subset) =>
            what === "templates"
              ? regenerateTemplates(subset, templates, { random, isRandom: current.isRandomTemplates, fallbacks, familyWeights: familyWeights.current })
              : what === "colors"
                ? regenerateColors(subset, current, random)
                : regenerateImages(subset, random),
          ),
        );
      },
      applyDesign() {
        changePosts((all) => applyDesignToPosts(all, settingsRef.current, random));
      },
      setPostFlags(ids: ReadonlySet<string>, flags: Partial<Pick<Post, "isDownloading" | "isDownloaded" | "isScheduling" | "isScheduled" | "error">>) {
        // Flags are not the user's edits: no autosave for them.
        setPostsState((all) => all.map((post) => (ids.has(post.id) ? { ...post, ...flags } : post)));
      },
    }),
    [changePosts, templatesFor, standardTemplates],
  );

  return {
    settings,
    setSettings,
    posts,
    loadPosts,
    selected,
    setSelected,
    busy,
    setBusy,
    detectedImages,
    revision,
    pool,
    templatesFor,
    standardTemplates,
    addSources,
    generateFromUrls,
    ...api,
  };
}

export type Generator = ReturnType<typeof useGenerator>;
