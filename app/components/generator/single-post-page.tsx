import { Link, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import * as v from "valibot";
import { DesignSettings } from "../../../contracts/content/design-settings.ts";
import type { Post } from "../../../contracts/content/post.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { useAuth } from "../../lib/auth.tsx";
import { fetchDraft, fetchDrafts, fetchLatestDraft, reasonOf, updateDraft, type Draft, type DraftSummary } from "../../lib/generator/api.ts";
import { draftPosts, localDateTimeName } from "../../lib/generator/drafts.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { SignInPage } from "../shell/login-prompt.tsx";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { fetchStandardTemplates, templateKeys } from "../templates/template-requests.ts";
import { settingsFrom, useDesignProfiles } from "./design-profiles.tsx";
import { generatorKeys } from "./generator-keys.ts";
import { storedGrid, storeGridPosts } from "./grid-storage.ts";
import { downloadOnePin } from "./pin-downloads.ts";
import { PostEditor } from "./post-editor.tsx";

/** How many pages of drafts are searched for a post before giving up. */
const DRAFT_PAGES_SEARCHED = 3;

interface Found {
  post: Post;
  /** Where the post lives: this tab's grid, or a saved draft. */
  from: { kind: "grid"; posts: Post[]; draft: { draftId: string; name: string } | null } | { kind: "draft"; draft: Draft };
}

async function findInDrafts(postId: string): Promise<Found | null> {
  const latest = await fetchLatestDraft();
  const inDraft = (draft: Draft): Found | null => {
    const post = draftPosts(draft.posts ?? []).find((candidate) => candidate.id === postId);
    return post ? { post, from: { kind: "draft", draft } } : null;
  };
  const checked = new Set<string>();
  if (latest) {
    checked.add(latest.draftId);
    const found = inDraft(latest);
    if (found) return found;
  }
  let after: string | undefined;
  for (let page = 0; page < DRAFT_PAGES_SEARCHED; page++) {
    const { drafts, hasMore } = await fetchDrafts(after);
    for (const summary of drafts.filter((draft: DraftSummary) => !checked.has(draft.draftId) && draft.postCount > 0)) {
      const found = inDraft(await fetchDraft(summary.draftId));
      if (found) return found;
    }
    if (!hasMore || drafts.length === 0) break;
    after = drafts.at(-1)!.draftId;
  }
  return null;
}

/**
 * /single{product}?postID= (spec section 2): one post with its live preview,
 * its editable texts, template, colour and pictures, and its download. The
 * post is looked up in this tab's grid, then in the user's drafts (a read of
 * the data layer); the user's edits are kept here from then on.
 */
export function SinglePostPage({ testView = false }: { testView?: boolean }) {
  const { user } = useAuth();
  const [searchParams] = useSearchParams();
  const postId = searchParams.get("postID");
  const heading = testView ? "Pin (test view)" : "Pin";
  if (!user) {
    return <SignInPage title={heading} action="see your pins" />;
  }
  if (!postId) {
    return (
      <main className="page page--narrow">
        <h1>{heading}</h1>
        <p>No pin was chosen. Open a pin from the generator.</p>
        <Link className="button button--primary" to="/generate">
          Go to the generator
        </Link>
      </main>
    );
  }
  return <SinglePost key={postId} postId={postId} heading={heading} testView={testView} />;
}

const NO_TEMPLATES: Template[] = [];

type State = { status: "loading" } | { status: "missing" } | { status: "failed"; reason: string } | { status: "ready"; found: Found };

function SinglePost({ postId, heading, testView }: { postId: string; heading: string; testView: boolean }) {
  const toast = useToast();
  const cache = useApiCache();
  const [saving, setSaving] = useState(false);
  /** The post in this tab's grid (null: not there); undefined until session storage has been read. */
  const [inGrid, setInGrid] = useState<Found | null | undefined>(undefined);
  /** The post as the user has changed it here. */
  const [edited, setEdited] = useState<Found | null>(null);

  // Session storage exists only in the browser: the grid is read after the first render, which matches the server's.
  useEffect(() => {
    const grid = storedGrid();
    const post = grid?.posts.find((candidate) => candidate.id === postId);
    setInGrid(grid && post ? { post, from: { kind: "grid", posts: grid.posts, draft: grid.draft } } : null);
  }, [postId]);
  // Not in the grid: searched for in the drafts, afresh on each visit (the answer is not kept once the page is left),
  // and not again when the window regains focus, so the post stays as it was found.
  const search = useApiQuery<Found | null>(generatorKeys.postInDrafts(postId), () => findInDrafts(postId), {
    enabled: inGrid === null,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  // The post's colour choices are the user's design colours; templates to switch to, the standard ones (both the generator's reads).
  const templates = useApiQuery<Template[]>(templateKeys.standard(), () => fetchStandardTemplates()).data ?? NO_TEMPLATES;
  const active = useDesignProfiles().data?.activeDesignSettings;
  const settings = useMemo(() => (active ? settingsFrom(active) : v.parse(DesignSettings, {})), [active]);

  const found = edited ?? inGrid ?? search.data;
  const state: State = found
    ? { status: "ready", found }
    : inGrid === undefined || search.isPending || search.isFetching
      ? { status: "loading" }
      : search.error
        ? { status: "failed", reason: reasonOf(search.error) }
        : { status: "missing" };

  if (state.status === "loading") {
    return (
      <main className="page page--narrow">
        <div className="loading">
          <Spinner size="large" label="Loading the pin" />
          <span aria-hidden="true">Loading the pin…</span>
        </div>
      </main>
    );
  }
  if (state.status !== "ready") {
    return (
      <main className="page page--narrow">
        <h1>{heading}</h1>
        {state.status === "missing" ? (
          <p>This pin is not in your generator or your drafts any more.</p>
        ) : (
          <p className="notice notice--error" role="alert">
            {state.reason}
          </p>
        )}
        <Link className="button button--primary" to="/generate">
          Go to the generator
        </Link>
      </main>
    );
  }

  const { post, from } = state.found;
  const draft = from.kind === "draft" ? { draftId: from.draft.draftId, name: from.draft.name } : from.draft;

  function change(next: Post) {
    let nextFrom = from;
    if (from.kind === "grid") {
      const posts = from.posts.map((other) => (other.id === next.id ? next : other));
      storeGridPosts(posts, from.draft);
      nextFrom = { ...from, posts };
    }
    setEdited({ post: next, from: nextFrom });
  }

  async function saveToDraft() {
    if (!draft) return;
    setSaving(true);
    try {
      const posts = from.kind === "draft" ? draftPosts(from.draft.posts).map((other) => (other.id === post.id ? post : other)) : from.posts;
      await updateDraft(draft.draftId, posts, draft.name, localDateTimeName());
      if (from.kind === "draft") {
        const saved: Found = { post, from: { kind: "draft", draft: { ...from.draft, posts } } };
        setEdited(saved);
        cache.set<Found | null>(generatorKeys.postInDrafts(postId), () => saved);
      }
      void cache.refresh(generatorKeys.draftList);
      void cache.refresh(generatorKeys.latestDraft);
      toast({ title: `"${draft.name}" saved`, kind: "success" });
    } catch (error) {
      toast({ title: "Unable to update draft", description: reasonOf(error), kind: "error" });
    } finally {
      setSaving(false);
    }
  }

  const setFlags = (_ids: ReadonlySet<string>, flags: Partial<Post>) => change({ ...post, ...flags });

  return (
    <main className="page single-post">
      <header className="single-post__header">
        <div>
          <h1>{heading}</h1>
          <p className="muted">{draft ? `From the draft "${draft.name}"` : "From the generator"}</p>
        </div>
        <div className="single-post__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={post.isDownloading}
            onClick={() => void downloadOnePin(post, { bypassResize: false, setFlags, toast })}
          >
            {post.isDownloading ? <Spinner /> : null}
            Download
          </button>
          {draft ? (
            <button type="button" className="button button--ghost" disabled={saving} onClick={() => void saveToDraft()}>
              {saving ? <Spinner /> : null}
              Save to draft
            </button>
          ) : null}
          <Link className="button button--ghost" to="/generate">
            Back to the generator
          </Link>
        </div>
      </header>
      {post.error ? (
        <p className="notice notice--error" role="alert">
          {post.error}
        </p>
      ) : null}
      <PostEditor post={post} templates={templates} settings={settings} extraImages={[]} onChange={change} />
      {testView ? (
        <details className="single-post__data">
          <summary>Post data</summary>
          <pre>{JSON.stringify(post, null, 2)}</pre>
        </details>
      ) : null}
    </main>
  );
}
