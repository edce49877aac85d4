import { useEffect, useRef } from "react";

/** Each answers whether it did something (if not, the key keeps its usual meaning, e.g. scrolling). */
export interface EditorShortcuts {
  undo(): boolean;
  redo(): boolean;
  duplicate(): boolean;
  remove(): boolean;
  nudge(dx: number, dy: number): boolean;
  save(): boolean;
  deselect(): boolean;
}

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Keys typed into a field, or into an open dialog, belong to it. */
function belongsElsewhere(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest("input, textarea, select")) return true;
  return target.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null;
}

/** The editor's keyboard shortcuts (listed in ShortcutsHelp), on the whole page. */
export function useEditorShortcuts(shortcuts: EditorShortcuts) {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || belongsElsewhere(event.target)) return;
      const run = latest.current;
      const command = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      let handled = false;
      if (command && key === "z") handled = event.shiftKey ? run.redo() : run.undo();
      else if (command && key === "y") handled = run.redo();
      // Ctrl+D and Ctrl+S are the browser's bookmark and save-page otherwise: always ours here.
      else if (command && key === "d") handled = run.duplicate() || true;
      else if (command && key === "s") handled = run.save() || true;
      else if (!command && (event.key === "Delete" || event.key === "Backspace")) handled = run.remove();
      else if (!command && ARROWS[event.key]) {
        const [dx, dy] = ARROWS[event.key];
        const step = event.shiftKey ? 10 : 1;
        handled = run.nudge(dx * step, dy * step);
      } else if (event.key === "Escape") handled = run.deselect();
      if (handled) event.preventDefault();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
