import * as Dialog from "@radix-ui/react-dialog";
import { useMemo, useState } from "react";
import { MAX_POSTS } from "../../../contracts/post.ts";
import { DialogActions } from "../dialog-actions.tsx";

/** The posts a sitemap lists, with checkboxes and select-all; the chosen ones are generated 25 at a time. */
export function SitemapDialog({ urls, usedSitemap, onCancel, onGenerate }: { urls: string[]; usedSitemap: string; onCancel(): void; onGenerate(urls: string[]): void }) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(urls.slice(0, MAX_POSTS)));
  const [filter, setFilter] = useState("");
  const shown = useMemo(() => {
    const wanted = filter.trim().toLowerCase();
    return wanted ? urls.filter((url) => url.toLowerCase().includes(wanted)) : urls;
  }, [urls, filter]);
  const allShownChosen = shown.length > 0 && shown.every((url) => chosen.has(url));
  const tooMany = chosen.size > MAX_POSTS;

  function toggleAll() {
    setChosen((current) => {
      const next = new Set(current);
      for (const url of shown) {
        if (allShownChosen) next.delete(url);
        else next.add(url);
      }
      return next;
    });
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide sitemap-dialog" aria-describedby="sitemap-dialog-text">
          <Dialog.Title className="dialog__title">Posts found in the sitemap</Dialog.Title>
          <p id="sitemap-dialog-text" className="dialog__text">
            {urls.length} posts listed in <span className="sitemap-dialog__source">{usedSitemap}</span>. Choose the posts to make pins from (at most {MAX_POSTS}).
          </p>
          <div className="sitemap-dialog__tools">
            <label className="check">
              <input type="checkbox" checked={allShownChosen} onChange={toggleAll} />
              Select all{filter ? " shown" : ""}
            </label>
            <input className="field__input sitemap-dialog__filter" type="search" placeholder="Filter posts" aria-label="Filter posts" value={filter} onChange={(event) => setFilter(event.target.value)} />
          </div>
          <ul className="sitemap-dialog__list" aria-label="Post URLs">
            {shown.map((url) => (
              <li key={url}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={chosen.has(url)}
                    onChange={() =>
                      setChosen((current) => {
                        const next = new Set(current);
                        if (next.has(url)) next.delete(url);
                        else next.add(url);
                        return next;
                      })
                    }
                  />
                  <span className="sitemap-dialog__url">{url}</span>
                </label>
              </li>
            ))}
          </ul>
          {tooMany ? (
            <p className="field__error" role="alert">
              Choose at most {MAX_POSTS} posts.
            </p>
          ) : null}
          <DialogActions>
            <button type="button" className="button button--primary" disabled={chosen.size === 0 || tooMany} onClick={() => onGenerate(urls.filter((url) => chosen.has(url)))}>
              Generate {chosen.size} {chosen.size === 1 ? "pin" : "pins"}
            </button>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
