import type { Layer, TemplateDesign } from "../../contracts/content/template.ts";
import { duplicateLayer, TEMPLATE_UNDO_STEPS } from "../../workers/domain/templates.ts";

/**
 * The template editor's state (spec section 4, Template editor) as a pure
 * reducer: the design being edited, the selected layer, the zoom and an undo
 * history of at most TEMPLATE_UNDO_STEPS past states. A new edit clears the
 * redo stack. Ids of new layers come in with the action, so the reducer stays
 * pure (see newLayerId).
 */

/** "fit" scales the pin to the space available; a number is a fixed scale (0.5 = 50%). */
export type EditorZoom = "fit" | number;

export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2] as const;
export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1];

/** What one undo step brings back. */
export interface EditorSnapshot {
  design: TemplateDesign;
  selectedId: string | null;
}

export interface EditorState extends EditorSnapshot {
  past: EditorSnapshot[];
  future: EditorSnapshot[];
  /** The design as last saved (or loaded): the editor has unsaved changes while `design` is another object. */
  savedDesign: TemplateDesign;
  zoom: EditorZoom;
  /**
   * Edits with the same merge key in a row (typing digits into one field,
   * nudging one layer with the arrow keys) make a single undo step.
   */
  mergeKey: string | null;
}

export type LayerOrderMove = "up" | "down" | "front" | "back";

/** Changes to a layer, whatever its type (the reducer keeps id and type). */
export type LayerChanges = { [K in keyof Layer]?: unknown } & Record<string, unknown>;

export type DesignChanges = Partial<Pick<TemplateDesign, "title" | "background" | "categories">>;

export type EditorAction =
  | { type: "load"; design: TemplateDesign }
  | { type: "select"; id: string | null }
  | { type: "updateLayer"; id: string; changes: LayerChanges; mergeKey?: string }
  | { type: "addLayer"; layer: Layer }
  | { type: "deleteLayer"; id?: string }
  | { type: "duplicateLayer"; id?: string; newId: string }
  | { type: "reorderLayer"; id: string; move: LayerOrderMove }
  | { type: "setDesign"; changes: DesignChanges; mergeKey?: string }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "setZoom"; zoom: EditorZoom }
  | { type: "saved"; design: TemplateDesign };

export function initialEditorState(design: TemplateDesign, zoom: EditorZoom = "fit"): EditorState {
  return { design, selectedId: null, past: [], future: [], savedDesign: design, zoom, mergeKey: null };
}

export function hasUnsavedChanges(state: EditorState): boolean {
  return state.design !== state.savedDesign;
}

export function selectedLayer(state: EditorSnapshot): Layer | null {
  return state.design.layers.find((layer) => layer.id === state.selectedId) ?? null;
}

export const canUndo = (state: EditorState) => state.past.length > 0;
export const canRedo = (state: EditorState) => state.future.length > 0;

/** A fresh layer id (used by action creators, never by the reducer). */
export function newLayerId(): string {
  const random = typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `layer-${random}`;
}

/** Records the current state in the history and applies an edit; merging edits replace the last step instead. */
function commit(state: EditorState, next: EditorSnapshot, mergeKey: string | null = null): EditorState {
  if (next.design === state.design && next.selectedId === state.selectedId) return state;
  const merging = mergeKey !== null && mergeKey === state.mergeKey && state.past.length > 0;
  const past = merging ? state.past : [...state.past, { design: state.design, selectedId: state.selectedId }].slice(-TEMPLATE_UNDO_STEPS);
  return { ...state, ...next, past, future: [], mergeKey };
}

function withLayers(design: TemplateDesign, layers: Layer[]): TemplateDesign {
  return { ...design, layers };
}

function moveLayer(layers: Layer[], index: number, move: LayerOrderMove): Layer[] {
  const target = { up: index + 1, down: index - 1, front: layers.length - 1, back: 0 }[move];
  if (target < 0 || target >= layers.length || target === index) return layers;
  const next = [...layers];
  const [layer] = next.splice(index, 1);
  next.splice(target, 0, layer);
  return next;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "load":
      return initialEditorState(action.design, state.zoom);

    case "select": {
      const id = action.id !== null && state.design.layers.some((layer) => layer.id === action.id) ? action.id : null;
      return id === state.selectedId ? state : { ...state, selectedId: id, mergeKey: null };
    }

    case "updateLayer": {
      const index = state.design.layers.findIndex((layer) => layer.id === action.id);
      if (index < 0) return state;
      const current = state.design.layers[index];
      const updated = { ...current, ...action.changes, id: current.id, type: current.type } as Layer;
      const changed = (Object.keys(action.changes) as (keyof Layer)[]).some((key) => current[key] !== updated[key]);
      if (!changed) return state;
      const layers = state.design.layers.with(index, updated);
      return commit(state, { design: withLayers(state.design, layers), selectedId: state.selectedId }, action.mergeKey ?? null);
    }

    case "addLayer":
      return commit(state, { design: withLayers(state.design, [...state.design.layers, action.layer]), selectedId: action.layer.id });

    case "deleteLayer": {
      const id = action.id ?? state.selectedId;
      const index = state.design.layers.findIndex((layer) => layer.id === id);
      if (index < 0) return state;
      const layers = state.design.layers.filter((layer) => layer.id !== id);
      const selectedId = state.selectedId === id ? null : state.selectedId;
      return commit(state, { design: withLayers(state.design, layers), selectedId });
    }

    case "duplicateLayer": {
      const id = action.id ?? state.selectedId;
      const index = state.design.layers.findIndex((layer) => layer.id === id);
      if (index < 0) return state;
      const copy = duplicateLayer(state.design.layers[index], action.newId);
      const layers = state.design.layers.toSpliced(index + 1, 0, copy);
      return commit(state, { design: withLayers(state.design, layers), selectedId: copy.id });
    }

    case "reorderLayer": {
      const index = state.design.layers.findIndex((layer) => layer.id === action.id);
      if (index < 0) return state;
      const layers = moveLayer(state.design.layers, index, action.move);
      if (layers === state.design.layers) return state;
      return commit(state, { design: withLayers(state.design, layers), selectedId: state.selectedId });
    }

    case "setDesign": {
      const changed = (Object.keys(action.changes) as (keyof DesignChanges)[]).some((key) => state.design[key] !== action.changes[key]);
      if (!changed) return state;
      return commit(state, { design: { ...state.design, ...action.changes }, selectedId: state.selectedId }, action.mergeKey ?? null);
    }

    case "undo": {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return {
        ...state,
        ...previous,
        past: state.past.slice(0, -1),
        future: [{ design: state.design, selectedId: state.selectedId }, ...state.future],
        mergeKey: null,
      };
    }

    case "redo": {
      const [next, ...future] = state.future;
      if (!next) return state;
      return {
        ...state,
        ...next,
        past: [...state.past, { design: state.design, selectedId: state.selectedId }].slice(-TEMPLATE_UNDO_STEPS),
        future,
        mergeKey: null,
      };
    }

    case "setZoom":
      return { ...state, zoom: action.zoom === "fit" ? "fit" : Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, action.zoom)) };

    case "saved":
      // Edits made while the save was on its way stay unsaved.
      return { ...state, savedDesign: action.design, mergeKey: null };
  }
}

/** The next zoom step in or out from the scale shown now. */
export function steppedZoom(currentScale: number, direction: 1 | -1): number {
  const steps = direction > 0 ? ZOOM_STEPS : [...ZOOM_STEPS].reverse();
  return steps.find((step) => (direction > 0 ? step > currentScale + 0.001 : step < currentScale - 0.001)) ?? (direction > 0 ? MAX_ZOOM : MIN_ZOOM);
}
