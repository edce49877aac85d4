import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useMemo, useState } from "react";
import { MAX_POSTS } from "../../../contracts/content/post.ts";
import { DialogActions } from "../dialog-actions.tsx";

/** A post the user may choose: its address, its title ("" while unknown) and a date to show ("" when none). */
export interface ChoosablePost {
  url: string;
  title: string;
  /** A title guessed from the address, shown (greyed) while the real one is read. */
  guess?: string;
  date: string;
}

/** How many posts are ticked when the list opens: one click never makes a hundred pins by surprise (issue 40 point 11). */
export const FIRST_CHOSEN = 20;

/** A date as the user's own calendar writes it ("3 Nov 2026"); "" when there is none or it does not parse. */
function shownDate(value: string): string {
  if (!value) return "";
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? "" : time.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

/**
 * Choosing the posts of a sitemap or a feed before generating: titles with
 * the address beneath, a search over both, select all (of what is shown),
 * and a button that says how many pins it will make. The first 20 are ticked.
 * Posts whose title is not known yet (or only guessed from the address) get it
 * from `readTitles` in the background, in the list's order.
 */
export function PostChoiceDialog({
  heading,
  intro,
  posts,
  label,
  onCancel,
  onGenerate,
  readTitles,
}: {
  heading: string;
  intro: string;
  posts: ChoosablePost[];
  /** The generate button's words for a number of chosen posts. */
  label(count: number): string;
  onCancel(): void;
  onGenerate(urls: string[]): void;
  /** Finds the titles of these posts in the background ("" for a post it could not read); answers a function that stops it. */
  readTitles?(urls: string[], onTitles: (titles: Map<string, string>) => void): () => void;
}) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(posts.slice(0, FIRST_CHOSEN).map((post) => post.url)));
  const [filter, setFilter] = useState("");
  const [titles, setTitles] = useState<ReadonlyMap<string, string>>(new Map());

  useEffect(() => {
    const untitled = posts.filter((post) => !post.title).map((post) => post.url);
    if (!readTitles || untitled.length === 0) return;
    return readTitles(untitled, (found) => setTitles((current) => new Map([...current, ...found])));
  }, [posts, readTitles]);

  const rows = useMemo(
    () =>
      posts.map((post) => ({ ...post, title: post.title || titles.get(post.url) || "", pending: !post.title && Boolean(readTitles) && !titles.has(post.url) })),
    [posts, titles, readTitles],
  );
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return rows;
    return rows.filter((row) => {
      const text = `${row.title} ${row.url}`.toLowerCase();
      return words.every((word) => text.includes(word));
    });
  }, [rows, filter]);
  const allShownChosen = shown.length > 0 && shown.every((row) => chosen.has(row.url));
  const tooMany = chosen.size > MAX_POSTS;

  function toggleAll() {
    setChosen((current) => {
      const next = new Set(current);
      for (const row of shown) {
        if (allShownChosen) next.delete(row.url);
        else next.add(row.url);
      }
      return next;
    });
  }

  function toggle(url: string) {
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(url)) next.delete(url);
      else next.add(url);
      return next;
    });
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide post-choice" aria-describedby="post-choice-text">
          <Dialog.Title className="dialog__title">{heading}</Dialog.Title>
          <p id="post-choice-text" className="dialog__text">
            {intro} Choose the posts to make pins from (at most {MAX_POSTS}).
          </p>
          <div className="post-choice__tools">
            <label className="check">
              <input type="checkbox" checked={allShownChosen} onChange={toggleAll} />
              Select all{filter.trim() ? ` ${shown.length} shown` : ""}
            </label>
            <input
              className="field__input post-choice__filter"
              type="search"
              placeholder="Search posts"
              aria-label="Search posts"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          </div>
          <p className="muted small" aria-live="polite">
            {chosen.size} of {posts.length} chosen{filter.trim() ? ` · ${shown.length} match the search` : ""}
          </p>
          <ul className="post-choice__list" aria-label="Posts">
            {shown.map((row) => {
              const date = shownDate(row.date);
              return (
                <li key={row.url}>
                  <label className="check post-choice__item">
                    <input type="checkbox" checked={chosen.has(row.url)} onChange={() => toggle(row.url)} />
                    <span className="post-choice__text">
                      <span
                        className={row.title ? "post-choice__title" : "post-choice__title post-choice__title--guessed"}
                        data-pending={row.pending || undefined}
                      >
                        {row.title || (row.pending ? (row.guess ?? "Reading the title…") : (row.guess ?? "Untitled post"))}
                        {row.pending ? <span className="visually-hidden"> (reading the page's own title)</span> : null}
                      </span>
                      <span className="post-choice__url">
                        {row.url}
                        {date ? ` · ${date}` : ""}
                      </span>
                    </span>
                  </label>
                </li>
              );
            })}
            {shown.length === 0 ? <li className="muted">No post matches “{filter.trim()}”.</li> : null}
          </ul>
          {tooMany ? (
            <p className="field__error" role="alert">
              Choose at most {MAX_POSTS} posts.
            </p>
          ) : null}
          <DialogActions>
            <button
              type="button"
              className="button button--primary"
              disabled={chosen.size === 0 || tooMany}
              onClick={() => onGenerate(posts.filter((post) => chosen.has(post.url)).map((post) => post.url))}
            >
              {label(chosen.size)}
            </button>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
