import { Link, useNavigate } from "@remix-run/react";
import { useLayoutEffect, useReducer, useRef, useState } from "react";
import { AfterHydration } from "../auth/after-hydration.tsx";
import * as v from "valibot";
import { PIN_HEIGHT, PIN_WIDTH, TemplateDesign, type Layer, type Template } from "../../../contracts/content/template.ts";
import type { UserCredentials } from "../../../contracts/accounts/user.ts";
import { ApiError } from "../../lib/api-client.ts";
import { useApiCache, useApiQuery, useFailureToast } from "../../lib/query.ts";
import {
  canRedo,
  canUndo,
  editorReducer,
  hasUnsavedChanges,
  initialEditorState,
  newLayerId,
  selectedLayer,
  steppedZoom,
  type EditorZoom,
} from "../../lib/template-editor-state.ts";
import { useHydrated } from "../auth/use-hydrated.ts";
import { useToast } from "../shell/toast.tsx";
import { Spinner } from "../spinner.tsx";
import { mayEditTemplate } from "../templates/templates-page.tsx";
import {
  addTemplateCopy,
  COPY_HAS_NO_CATEGORIES,
  designOf,
  fetchTemplateCategories,
  reasonOf,
  templateKeys,
  unshareTemplate,
  updateTemplate,
  type TemplateCategory,
} from "../templates/template-requests.ts";
import { DesignProperties } from "./design-properties.tsx";
import type { LayerPlacement } from "./editor-canvas.client.tsx";
import { Icon, type IconName } from "./icons.tsx";
import { newImageLayer, newShapeLayer, newTextLayer } from "./layer-factory.ts";
import { LayerList } from "./layer-list.tsx";
import { LayerProperties } from "./layer-properties.tsx";
import { LeaveGuard } from "./leave-guard.tsx";
import { SAMPLE_POSTS } from "./sample-posts.ts";
import { ShortcutsHelp } from "./shortcuts-help.tsx";
import { useEditorShortcuts } from "./use-editor-shortcuts.ts";
import { usePreviewImage } from "./use-preview-image.ts";
import { lazyWithTimeout } from "../lazy-part.tsx";

/** Konva needs a browser: the canvas is its own client-only chunk. */
const EditorCanvas = lazyWithTimeout(() => import("./editor-canvas.client.tsx"));

const ZOOM_CHOICES: { value: EditorZoom; label: string }[] = [
  { value: "fit", label: "Fit" },
  { value: 0.5, label: "50%" },
  { value: 0.75, label: "75%" },
  { value: 1, label: "100%" },
];

/**
 * The template editor (spec section 4): canvas, layers, properties and the toolbar. `template` is the one
 * cached under templateKeys.one (the route reads it): a save or an unshare updates it there, so the page
 * says whether it is shared from the same answer the next visit starts from.
 */
export function TemplateEditor({ template, user }: { template: Template; user: UserCredentials }) {
  const { toast } = useToast();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const cache = useApiCache();
  const [state, dispatch] = useReducer(editorReducer, designOf(template), (design) => initialEditorState(design));
  const isShared = template.isShared;
  // The same read as the gallery's category chips: made once for both.
  const categoriesRead = useApiQuery<TemplateCategory[]>(templateKeys.categories, () => fetchTemplateCategories());
  const categories = categoriesRead.data ?? [];
  useFailureToast(categoriesRead, () => ({ title: "Unable to get templatecategories", kind: "error" }), { whenEmpty: true });
  const [sampleId, setSampleId] = useState(SAMPLE_POSTS[0].id);
  const [busy, setBusy] = useState<"save" | "share" | "duplicate" | null>(null);
  /** Set when the server refused a save: the user may not change this template. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const allowLeaving = useRef(false);

  const design = state.design;
  const selected = selectedLayer(state);
  const dirty = hasUnsavedChanges(state);
  const editable = mayEditTemplate(template, user) && refusal === null;
  const sample = SAMPLE_POSTS.find((candidate) => candidate.id === sampleId) ?? SAMPLE_POSTS[0];
  const preview = usePreviewImage(design, sample.post);
  const stage = useStageScale(state.zoom);

  const updateLayer = (id: string) => (changes: Record<string, unknown>, mergeKey?: string) => dispatch({ type: "updateLayer", id, changes, mergeKey });
  const addLayer = (make: (design: TemplateDesign) => Layer) => dispatch({ type: "addLayer", layer: make(design) });
  const duplicateLayer = (id?: string) => dispatch({ type: "duplicateLayer", id, newId: newLayerId() });
  const deleteLayer = (id?: string) => dispatch({ type: "deleteLayer", id });
  const place = (id: string, placement: LayerPlacement) => dispatch({ type: "updateLayer", id, changes: { ...placement } });

  function problemIn(candidate: TemplateDesign): string | null {
    const result = v.safeParse(TemplateDesign, candidate);
    return result.success ? null : result.issues[0].message;
  }

  async function save(share?: boolean) {
    if (busy) return;
    const sent = design;
    const problem = problemIn(sent);
    if (problem) {
      toast({ title: "The template cannot be saved yet", description: problem, kind: "error" });
      return;
    }
    setBusy(share === undefined ? "save" : "share");
    try {
      const saved = await updateTemplate(template.templateId, sent, share);
      dispatch({ type: "saved", design: sent });
      keepSaved(saved);
      toast({ title: share ? "Template saved and shared" : "Template saved", kind: "success" });
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) setRefusal(error.message);
      toast({ title: "Unable to save the template", description: reasonOf(error), kind: "error" });
    } finally {
      setBusy(null);
    }
  }

  /**
   * The saved template replaces the cached one (its favourite, which a save does not answer, stays), and
   * the gallery's lists are read again when next shown.
   */
  function keepSaved(saved: Template) {
    cache.set<Template>(templateKeys.one(template.templateId), (current) => ({
      ...(current ?? template),
      ...saved,
      isFavorite: (current ?? template).isFavorite,
    }));
    void cache.refresh(templateKeys.lists);
  }

  async function unshare() {
    if (busy) return;
    setBusy("share");
    try {
      keepSaved(await unshareTemplate(template.templateId));
      toast({ title: "Template is no longer shared", kind: "success" });
    } catch (error) {
      toast({ title: "Unable to unshare the template", description: reasonOf(error), kind: "error" });
    } finally {
      setBusy(null);
    }
  }

  /** A copy as the user's own template ("title (copy)", no categories), opened in the editor. */
  async function duplicateTemplate() {
    if (busy) return;
    const problem = problemIn(design);
    if (problem) {
      toast({ title: "The template cannot be copied yet", description: problem, kind: "error" });
      return;
    }
    setBusy("duplicate");
    try {
      const copy = await addTemplateCopy(design);
      void cache.refresh(templateKeys.mine);
      toast({
        title: `"${copy.title}" created`,
        description: editable ? COPY_HAS_NO_CATEGORIES : `Your changes are in the copy. ${COPY_HAS_NO_CATEGORIES}`,
        kind: "success",
      });
      // Edits of a template the user may not save live on in the copy: nothing is lost by leaving.
      allowLeaving.current = !editable;
      navigate(`/template-builder/${copy.templateId}`);
    } catch (error) {
      toast({ title: "Unable to duplicate the template", description: reasonOf(error), kind: "error" });
    } finally {
      allowLeaving.current = false;
      setBusy(null);
    }
  }

  useEditorShortcuts({
    undo: () => {
      if (!canUndo(state)) return false;
      dispatch({ type: "undo" });
      return true;
    },
    redo: () => {
      if (!canRedo(state)) return false;
      dispatch({ type: "redo" });
      return true;
    },
    duplicate: () => {
      if (!selected) return false;
      duplicateLayer();
      return true;
    },
    remove: () => {
      if (!selected) return false;
      deleteLayer();
      return true;
    },
    nudge: (dx, dy) => {
      if (!selected) return false;
      dispatch({ type: "updateLayer", id: selected.id, changes: { x: selected.x + dx, y: selected.y + dy }, mergeKey: `nudge:${selected.id}` });
      return true;
    },
    save: () => {
      if (editable) void save();
      return true;
    },
    deselect: () => {
      if (!selected) return false;
      dispatch({ type: "select", id: null });
      return true;
    },
  });

  const zoomValue = state.zoom === "fit" ? "fit" : String(state.zoom);
  const zoomChoices = ZOOM_CHOICES.some((choice) => String(choice.value) === zoomValue)
    ? ZOOM_CHOICES
    : [...ZOOM_CHOICES, { value: state.zoom, label: `${Math.round(Number(state.zoom) * 100)}%` }];

  return (
    <main className="editor" aria-labelledby="editor-title">
      <LeaveGuard when={dirty} allow={allowLeaving} />
      <header className="editor__bar">
        <Link className="icon-button" to="/templates?tab=mine" aria-label="Back to templates" title="Back to templates">
          <Icon name="back_arrow" />
        </Link>
        <div className="editor__heading">
          <h1 id="editor-title" className="editor__title">
            {design.title || "Untitled template"}
          </h1>
          <p className={`save-state${dirty ? " save-state--dirty" : ""}`} role="status">
            {dirty ? "Unsaved changes" : "All changes saved"}
            {isShared ? <span className="badge badge--success">Shared</span> : null}
            {template.isStandardTemplate ? <span className="badge">Standard</span> : null}
          </p>
        </div>
        <div className="editor__actions">
          <button type="button" className="button button--ghost" onClick={() => void duplicateTemplate()} disabled={busy !== null}>
            {busy === "duplicate" ? <Spinner /> : null}
            {editable ? "Duplicate template" : "Duplicate to edit"}
          </button>
          {editable && !template.isStandardTemplate ? (
            isShared ? (
              <button type="button" className="button button--ghost" onClick={() => void unshare()} disabled={busy !== null}>
                {busy === "share" ? <Spinner /> : null}
                Unshare
              </button>
            ) : (
              <button type="button" className="button button--ghost" onClick={() => void save(true)} disabled={busy !== null}>
                {busy === "share" ? <Spinner /> : null}
                Share
              </button>
            )
          ) : null}
          {editable ? (
            <button type="button" className="button button--primary" onClick={() => void save()} disabled={busy !== null}>
              {busy === "save" ? <Spinner /> : null}
              {busy === "save" ? "Saving…" : "Save"}
            </button>
          ) : null}
        </div>
      </header>

      {editable && template.isStandardTemplate ? (
        <p className="notice notice--info editor__notice">This is a standard template: once it is published, every user sees what you save here.</p>
      ) : null}
      {!editable ? (
        <p className="notice notice--info editor__notice">
          {refusal ??
            (template.isStandardTemplate
              ? "Standard templates cannot be changed. Duplicate it to edit your own copy."
              : "This template belongs to someone else. Duplicate it to edit your own copy.")}
        </p>
      ) : null}

      <div className="editor__tools" role="group" aria-label="Editor tools">
        <div className="tool-group" role="group" aria-label="Add">
          <ToolButton icon="text" label="Add text" onClick={() => addLayer(newTextLayer)} showLabel />
          <ToolButton icon="image" label="Add image" onClick={() => addLayer(newImageLayer)} showLabel />
          <ToolButton icon="shape" label="Add shape" onClick={() => addLayer(newShapeLayer)} showLabel />
        </div>
        <div className="tool-group" role="group" aria-label="History">
          <ToolButton icon="undo" label="Undo" disabled={!canUndo(state)} onClick={() => dispatch({ type: "undo" })} />
          <ToolButton icon="redo" label="Redo" disabled={!canRedo(state)} onClick={() => dispatch({ type: "redo" })} />
        </div>
        <div className="tool-group" role="group" aria-label="Selected layer">
          <ToolButton icon="copy" label="Duplicate layer" disabled={!selected} onClick={() => duplicateLayer()} />
          <ToolButton icon="trash" label="Delete layer" disabled={!selected} onClick={() => deleteLayer()} />
        </div>
        <div className="tool-group" role="group" aria-label="Zoom">
          <ToolButton icon="minus" label="Zoom out" onClick={() => dispatch({ type: "setZoom", zoom: steppedZoom(stage.scale, -1) })} />
          <label className="visually-hidden" htmlFor="editor-zoom">
            Zoom
          </label>
          <select
            id="editor-zoom"
            className="tool-select"
            value={zoomValue}
            onChange={(event) => dispatch({ type: "setZoom", zoom: event.target.value === "fit" ? "fit" : Number(event.target.value) })}
          >
            {zoomChoices.map((choice) => (
              <option key={String(choice.value)} value={String(choice.value)}>
                {choice.label}
              </option>
            ))}
          </select>
          <ToolButton icon="plus" label="Zoom in" onClick={() => dispatch({ type: "setZoom", zoom: steppedZoom(stage.scale, 1) })} />
        </div>
        <div className="tool-group" role="group" aria-label="Sample content">
          <label className="tool-label" htmlFor="editor-sample">
            Preview with
          </label>
          <select id="editor-sample" className="tool-select" value={sampleId} onChange={(event) => setSampleId(event.target.value)}>
            {SAMPLE_POSTS.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.label}
              </option>
            ))}
          </select>
        </div>
        <ShortcutsHelp />
      </div>

      <div className="editor__workspace">
        <section className="editor__stage-column" aria-label="Canvas">
          <div className="editor__stage-frame" ref={stage.frame}>
            <div
              className="editor__stage"
              style={{ width: Math.round(PIN_WIDTH * stage.scale), height: Math.round(PIN_HEIGHT * stage.scale) }}
              role="group"
              aria-label="Pin canvas"
              aria-describedby="editor-canvas-hint"
              data-scale={stage.scale}
              data-preview={preview.rendering ? "rendering" : preview.failed ? "failed" : "ready"}
            >
              <AfterHydration>
                <EditorCanvas
                  layers={design.layers}
                  selectedId={state.selectedId}
                  image={preview.image}
                  scale={stage.scale}
                  onSelect={(id) => dispatch({ type: "select", id })}
                  onPlace={place}
                />
              </AfterHydration>
              {!hydrated || (preview.image === null && !preview.failed) ? <StageLoading /> : null}
              {preview.rendering && preview.image ? (
                <span className="editor__rendering" aria-hidden="true">
                  <Spinner />
                </span>
              ) : null}
            </div>
          </div>
          <p id="editor-canvas-hint" className="muted small editor__hint">
            Drag a layer to move it; use the handles to resize and rotate. The layer list and the shortcuts work with the keyboard.
          </p>
          {preview.failed ? (
            <p className="notice notice--error" role="alert">
              The preview could not be drawn. Check the layers' settings.
            </p>
          ) : null}
        </section>

        <aside className="editor__panel editor__panel--layers" aria-label="Layers and template">
          <h2 className="panel-title">Layers</h2>
          <LayerList
            layers={design.layers}
            selectedId={state.selectedId}
            actions={{
              select: (id) => dispatch({ type: "select", id }),
              reorder: (id, move) => dispatch({ type: "reorderLayer", id, move }),
              toggleHidden: (layer) => dispatch({ type: "updateLayer", id: layer.id, changes: { hidden: !layer.hidden } }),
              duplicate: (id) => duplicateLayer(id),
              remove: (id) => deleteLayer(id),
            }}
          />
          <DesignProperties design={design} categories={categories} onChange={(changes, mergeKey) => dispatch({ type: "setDesign", changes, mergeKey })} />
        </aside>

        <aside className="editor__panel editor__panel--properties" aria-label="Layer properties">
          <h2 className="panel-title">Properties</h2>
          {selected ? (
            <LayerProperties key={selected.id} layer={selected} onChange={updateLayer(selected.id)} />
          ) : (
            <p className="muted small">Select a layer on the canvas or in the layer list to change it.</p>
          )}
        </aside>
      </div>
    </main>
  );
}

function ToolButton({
  icon,
  label,
  onClick,
  disabled,
  showLabel = false,
}: {
  icon: IconName;
  label: string;
  onClick(): void;
  disabled?: boolean;
  showLabel?: boolean;
}) {
  return (
    <button
      type="button"
      className={showLabel ? "tool-button tool-button--labelled" : "tool-button"}
      aria-label={showLabel ? undefined : label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon name={icon} />
      {showLabel ? <span>{label}</span> : null}
    </button>
  );
}

function StageLoading() {
  return (
    <div className="editor__stage-loading">
      <Spinner size="large" label="Drawing the pin" />
    </div>
  );
}

/**
 * The canvas scale: a fixed zoom, or "fit" (the whole pin in the space beside
 * the panels, and within the window's height on wide screens).
 */
function useStageScale(zoom: EditorZoom) {
  const frame = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(0.4);

  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => {
      const width = element.clientWidth;
      if (width === 0) return;
      const top = element.getBoundingClientRect().top + window.scrollY;
      const height = Math.max(480, window.innerHeight - Math.min(top, 240) - 24);
      setFit(Math.max(0.1, Math.min(width / PIN_WIDTH, height / PIN_HEIGHT)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, []);

  return { frame, scale: zoom === "fit" ? Math.floor(fit * 1000) / 1000 : zoom };
}
