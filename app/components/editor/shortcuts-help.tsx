import { useEffect, useId, useRef, useState } from "react";

export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: "Ctrl/⌘ + Z", does: "Undo" },
  { keys: "Shift + Ctrl/⌘ + Z, Ctrl/⌘ + Y", does: "Redo" },
  { keys: "Ctrl/⌘ + D", does: "Duplicate the selected layer" },
  { keys: "Delete, Backspace", does: "Delete the selected layer" },
  { keys: "Arrow keys", does: "Move the selected layer 1 px" },
  { keys: "Shift + arrow keys", does: "Move the selected layer 10 px" },
  { keys: "Ctrl/⌘ + S", does: "Save" },
  { keys: "Escape", does: "Deselect" },
];

/** A button that shows the keyboard shortcuts in a small popover (Escape or a click outside closes it). */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("pointerdown", onPointer);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      window.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <div className="popover-anchor" ref={root}>
      <button
        ref={button}
        type="button"
        className="icon-button icon-button--text"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts"
        onClick={() => setOpen((now) => !now)}
      >
        ?
      </button>
      <div id={panelId} className="popover" role="dialog" aria-label="Keyboard shortcuts" hidden={!open}>
        <h2 className="popover__title">Keyboard shortcuts</h2>
        <dl className="shortcut-list">
          {SHORTCUTS.map((shortcut) => (
            <div key={shortcut.keys} className="shortcut-list__row">
              <dt>
                <kbd>{shortcut.keys}</kbd>
              </dt>
              <dd>{shortcut.does}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
