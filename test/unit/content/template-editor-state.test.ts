import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { Layer, type TemplateDesign } from "../../../contracts/content/template.ts";
import {
  canRedo,
  canUndo,
  editorReducer,
  hasUnsavedChanges,
  initialEditorState,
  selectedLayer,
  steppedZoom,
  type EditorAction,
  type EditorState,
} from "../../../app/lib/template-editor-state.ts";
import { DUPLICATE_LAYER_OFFSET, TEMPLATE_UNDO_STEPS } from "../../../workers/domain/templates.ts";

function shape(id: string, x = 0, y = 0): Layer {
  return {
    type: "SVG",
    id,
    name: `Shape ${id}`,
    x,
    y,
    width: 100,
    height: 50,
    rotation: 0,
    opacity: 1,
    hidden: false,
    shape: "rect",
    fill: "pin",
    strokeWidth: 0,
    borderRadius: 0,
  };
}

function design(...layers: Layer[]): TemplateDesign {
  return { title: "Test", background: "#ffffff", layers, categories: [] };
}

function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce(editorReducer, state);
}

const ids = (state: EditorState) => state.design.layers.map((layer) => layer.id);
const moveTo = (id: string, x: number): EditorAction => ({ type: "updateLayer", id, changes: { x } });

describe("template editor state", () => {
  it("starts clean with nothing selected and no history", () => {
    const state = initialEditorState(design(shape("a")));
    expect(state.selectedId).toBeNull();
    expect(canUndo(state) || canRedo(state)).toBe(false);
    expect(hasUnsavedChanges(state)).toBe(false);
  });

  it("selects only layers that exist", () => {
    const state = initialEditorState(design(shape("a")));
    expect(run(state, { type: "select", id: "a" }).selectedId).toBe("a");
    expect(run(state, { type: "select", id: "nope" }).selectedId).toBeNull();
  });

  it("updates a layer, keeping its id and type, and marks the design unsaved", () => {
    const state = run(initialEditorState(design(shape("a"))), { type: "updateLayer", id: "a", changes: { x: 40, id: "other", type: "text" } });
    expect(state.design.layers[0]).toMatchObject({ id: "a", type: "SVG", x: 40 });
    expect(hasUnsavedChanges(state)).toBe(true);
    expect(canUndo(state)).toBe(true);
  });

  it("ignores edits that change nothing (no history step)", () => {
    const state = initialEditorState(design(shape("a", 10)));
    expect(run(state, moveTo("a", 10))).toBe(state);
    expect(run(state, { type: "setDesign", changes: { title: "Test" } })).toBe(state);
  });

  it("undoes and redoes an edit", () => {
    const moved = run(initialEditorState(design(shape("a", 10))), { type: "select", id: "a" }, moveTo("a", 99));
    const undone = run(moved, { type: "undo" });
    expect(undone.design.layers[0].x).toBe(10);
    expect(hasUnsavedChanges(undone)).toBe(false);
    expect(canRedo(undone)).toBe(true);
    const redone = run(undone, { type: "redo" });
    expect(redone.design.layers[0].x).toBe(99);
    expect(redone.selectedId).toBe("a");
  });

  it(`keeps at most ${TEMPLATE_UNDO_STEPS} undo steps`, () => {
    let state = initialEditorState(design(shape("a", 0)));
    for (let x = 1; x <= 15; x++) state = run(state, moveTo("a", x));
    expect(state.past).toHaveLength(TEMPLATE_UNDO_STEPS);
    for (let i = 0; i < 20; i++) state = run(state, { type: "undo" });
    // 15 edits, 10 remembered: the oldest reachable state is after the 5th edit.
    expect(state.design.layers[0].x).toBe(5);
    expect(canUndo(state)).toBe(false);
    expect(state.future).toHaveLength(TEMPLATE_UNDO_STEPS);
    for (let i = 0; i < 20; i++) state = run(state, { type: "redo" });
    expect(state.design.layers[0].x).toBe(15);
    expect(state.past).toHaveLength(TEMPLATE_UNDO_STEPS);
  });

  it("does nothing on undo or redo without history", () => {
    const state = initialEditorState(design(shape("a")));
    expect(run(state, { type: "undo" })).toBe(state);
    expect(run(state, { type: "redo" })).toBe(state);
  });

  it("clears the redo stack on a new edit", () => {
    const state = run(initialEditorState(design(shape("a", 0))), moveTo("a", 1), moveTo("a", 2), { type: "undo" });
    expect(canRedo(state)).toBe(true);
    const edited = run(state, moveTo("a", 7));
    expect(canRedo(edited)).toBe(false);
    expect(run(edited, { type: "redo" })).toBe(edited);
  });

  it("merges edits with the same merge key into one undo step", () => {
    let state = initialEditorState(design(shape("a", 0)));
    for (const x of [1, 12, 123]) state = run(state, { type: "updateLayer", id: "a", changes: { x }, mergeKey: "a:x" });
    expect(state.past).toHaveLength(1);
    state = run(state, { type: "updateLayer", id: "a", changes: { y: 5 }, mergeKey: "a:y" });
    expect(state.past).toHaveLength(2);
    expect(run(state, { type: "undo" }, { type: "undo" }).design.layers[0]).toMatchObject({ x: 0, y: 0 });
  });

  it("adds a layer on top and selects it", () => {
    const state = run(initialEditorState(design(shape("a"))), { type: "addLayer", layer: shape("b") });
    expect(ids(state)).toEqual(["a", "b"]);
    expect(state.selectedId).toBe("b");
    expect(run(state, { type: "undo" }).selectedId).toBeNull();
  });

  it("duplicates a layer: named 'name (copy)', offset by 20 px, above the original, selected", () => {
    const state = run(initialEditorState(design(shape("a", 100, 200), shape("b"))), { type: "select", id: "a" }, { type: "duplicateLayer", newId: "a2" });
    expect(ids(state)).toEqual(["a", "a2", "b"]);
    expect(selectedLayer(state)).toMatchObject({
      id: "a2",
      name: "Shape a (copy)",
      x: 100 + DUPLICATE_LAYER_OFFSET,
      y: 200 + DUPLICATE_LAYER_OFFSET,
      width: 100,
      height: 50,
    });
    expect(state.design.layers[0]).toMatchObject({ name: "Shape a", x: 100, y: 200 });
    const undone = run(state, { type: "undo" });
    expect(ids(undone)).toEqual(["a", "b"]);
    expect(undone.selectedId).toBe("a");
  });

  it("duplicates a layer deeply (the copy does not share nested objects)", () => {
    const text = v.parse(Layer, { type: "text", id: "t", name: "Title", x: 0, y: 0, width: 10, height: 10, content: "title", style: { color: "auto" } });
    const state = run(initialEditorState(design(text)), { type: "duplicateLayer", id: "t", newId: "t2" });
    const [original, copy] = state.design.layers;
    expect(copy.type === "text" && original.type === "text" && copy.style !== original.style).toBe(true);
  });

  it("reorders layers up, down, to the front and to the back", () => {
    const start = initialEditorState(design(shape("a"), shape("b"), shape("c")));
    expect(ids(run(start, { type: "reorderLayer", id: "a", move: "up" }))).toEqual(["b", "a", "c"]);
    expect(ids(run(start, { type: "reorderLayer", id: "c", move: "down" }))).toEqual(["a", "c", "b"]);
    expect(ids(run(start, { type: "reorderLayer", id: "a", move: "front" }))).toEqual(["b", "c", "a"]);
    expect(ids(run(start, { type: "reorderLayer", id: "c", move: "back" }))).toEqual(["c", "a", "b"]);
    // Already at the edge: nothing changes, no history step.
    expect(run(start, { type: "reorderLayer", id: "c", move: "up" })).toBe(start);
    expect(run(start, { type: "reorderLayer", id: "a", move: "back" })).toBe(start);
  });

  it("deletes the selected layer and clears the selection; undo brings both back", () => {
    const state = run(initialEditorState(design(shape("a"), shape("b"))), { type: "select", id: "b" }, { type: "deleteLayer" });
    expect(ids(state)).toEqual(["a"]);
    expect(state.selectedId).toBeNull();
    const undone = run(state, { type: "undo" });
    expect(ids(undone)).toEqual(["a", "b"]);
    expect(undone.selectedId).toBe("b");
  });

  it("deleting another layer keeps the selection", () => {
    const state = run(initialEditorState(design(shape("a"), shape("b"))), { type: "select", id: "b" }, { type: "deleteLayer", id: "a" });
    expect(ids(state)).toEqual(["b"]);
    expect(state.selectedId).toBe("b");
  });

  it("changes design fields with history", () => {
    const state = run(initialEditorState(design()), { type: "setDesign", changes: { title: "New", categories: ["Food"] } });
    expect(state.design).toMatchObject({ title: "New", categories: ["Food"] });
    expect(run(state, { type: "undo" }).design.title).toBe("Test");
  });

  it("is clean again after a save, unless edited while saving", () => {
    const edited = run(initialEditorState(design(shape("a"))), moveTo("a", 5));
    expect(hasUnsavedChanges(run(edited, { type: "saved", design: edited.design }))).toBe(false);
    const editedWhileSaving = run(edited, moveTo("a", 6), { type: "saved", design: edited.design });
    expect(hasUnsavedChanges(editedWhileSaving)).toBe(true);
  });

  it("keeps the zoom within limits and out of the history", () => {
    const state = initialEditorState(design());
    expect(run(state, { type: "setZoom", zoom: 0.75 }).zoom).toBe(0.75);
    expect(run(state, { type: "setZoom", zoom: 10 }).zoom).toBe(2);
    expect(run(state, { type: "setZoom", zoom: 0.01 }).zoom).toBe(0.25);
    expect(canUndo(run(state, { type: "setZoom", zoom: 1 }))).toBe(false);
    expect(steppedZoom(0.5, 1)).toBe(0.67);
    expect(steppedZoom(0.6, -1)).toBe(0.5);
  });

  it("loads a design fresh, keeping the zoom", () => {
    const state = run(initialEditorState(design(shape("a"))), { type: "setZoom", zoom: 1 }, moveTo("a", 3), { type: "load", design: design(shape("z")) });
    expect(ids(state)).toEqual(["z"]);
    expect(state.zoom).toBe(1);
    expect(canUndo(state)).toBe(false);
    expect(hasUnsavedChanges(state)).toBe(false);
  });
});
