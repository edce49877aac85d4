import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import type { Template } from "../../../contracts/content/template.ts";
import { reasonOf } from "../../lib/generator/api.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { LoadMoreButton, Spinner } from "../spinner.tsx";
import { PinPreview } from "../templates/pin-preview.tsx";
import { fetchUserTemplates, templateKeys, type TemplatePage } from "../templates/template-requests.ts";
import { DialogActions } from "../dialog-actions.tsx";

type Tab = "standard" | "mine";

/**
 * Chooses the templates to generate with (design settings' templateSelections),
 * from the standard templates and the user's own, each shown as a live preview
 * large enough to judge it by, with its name (issue 40 point 12). None chosen means: all standard templates. Both lists are read when
 * the picker opens, under the keys the template gallery reads them with.
 */
export function TemplatePicker({
  open,
  selected,
  standardTemplates,
  onClose,
  onChange,
}: {
  open: boolean;
  selected: string[];
  standardTemplates: () => Promise<Template[]>;
  onClose(): void;
  onChange(ids: string[]): void;
}) {
  const [tab, setTab] = useState<Tab>("standard");
  const cache = useApiCache();
  // The generator's own promise of the standard templates: one read for the picker and the generations.
  const standardRead = useApiQuery<Template[]>(templateKeys.standard(), () => standardTemplates(), { enabled: open });
  // Not read again when the window regains focus: that would drop the pages the user asked for.
  const mineRead = useApiQuery<TemplatePage>(templateKeys.mine, () => fetchUserTemplates(), { enabled: open, refetchOnWindowFocus: false });
  const [moreFailed, setMoreFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const lists = {
    standard: standardRead.data ?? null,
    mine: mineRead.data?.templates ?? null,
    mineMore: mineRead.data?.hasMore ? mineRead.data.lastTemplateId : null,
  };
  const mineFailed = moreFailed || (mineRead.error !== null && !mineRead.isFetching);
  const error = mineFailed ? "Unable to get user templates" : standardRead.error && !standardRead.isFetching ? reasonOf(standardRead.error) : null;

  async function loadMore() {
    if (!lists.mineMore) return;
    setLoadingMore(true);
    setMoreFailed(false);
    try {
      const page = await fetchUserTemplates(lists.mineMore);
      cache.set<TemplatePage>(templateKeys.mine, (current) => ({
        templates: [...(current?.templates ?? []), ...page.templates],
        lastTemplateId: page.lastTemplateId,
        hasMore: page.hasMore,
      }));
    } catch {
      setMoreFailed(true);
    } finally {
      setLoadingMore(false);
    }
  }

  const shown = tab === "standard" ? lists.standard : lists.mine;
  const chosen = new Set(selected);
  const toggle = (id: string) => onChange(chosen.has(id) ? selected.filter((other) => other !== id) : [...selected, id]);

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide template-picker" aria-describedby="template-picker-text">
          <Dialog.Title className="dialog__title">Templates to generate with</Dialog.Title>
          <p id="template-picker-text" className="dialog__text">
            {selected.length === 0 ? "None chosen: pins use all standard templates." : `${selected.length} chosen.`}{" "}
            {selected.length > 0 ? (
              <button type="button" className="link-button" onClick={() => onChange([])}>
                Clear the selection
              </button>
            ) : null}
          </p>
          <div className="tabs" role="tablist" aria-label="Template lists">
            {(["standard", "mine"] as const).map((id) => (
              <button key={id} type="button" role="tab" className="tabs__tab" aria-selected={tab === id} onClick={() => setTab(id)}>
                {id === "standard" ? "Standard" : "My templates"}
              </button>
            ))}
          </div>
          {error ? (
            <p className="notice notice--error" role="alert">
              {error}
            </p>
          ) : null}
          {!shown ? (
            <div className="loading">
              <Spinner size="large" label="Loading templates" />
            </div>
          ) : shown.length === 0 ? (
            <p className="muted">{tab === "mine" ? "You have no templates yet: design one on the Templates page." : "No templates."}</p>
          ) : (
            <ul className="template-picker__grid" aria-label={tab === "standard" ? "Standard templates" : "My templates"}>
              {shown.map((template) => (
                <li key={template.templateId} className={chosen.has(template.templateId) ? "template-choice template-choice--chosen" : "template-choice"}>
                  <label>
                    <PinPreview design={template} alt="" className="template-choice__preview" />
                    <span className="template-choice__name">
                      <input type="checkbox" checked={chosen.has(template.templateId)} onChange={() => toggle(template.templateId)} />
                      <span className="template-choice__title">{template.title || "Untitled template"}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          {tab === "mine" && lists.mineMore ? <LoadMoreButton loading={loadingMore} onClick={() => void loadMore()} /> : null}
          <DialogActions close="Done" closeKind="primary" />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
