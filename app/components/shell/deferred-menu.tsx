import { useState, type KeyboardEvent, type ReactNode } from "react";
import { withLoadTimeout } from "../lazy-load.ts";

/**
 * A navbar menu whose code loads when the visitor reaches for it (issue 17's JavaScript budget:
 * the Radix dropdown menu, its popper and focus handling are about a tenth of what a page would
 * otherwise ship, and most visitors never open a menu). Until then its trigger is a plain button
 * that looks and is named the same; pointing at it or focusing it starts the load, pressing it
 * (click, Enter, Space or ArrowDown) opens the menu as soon as the code is there. From then on the
 * Radix menu is the menu, with its keyboard handling and focus return.
 */

type Menus = typeof import("./menus.tsx");

let loaded: Menus | null = null;
let loading: Promise<Menus> | null = null;

function loadMenus(): Promise<Menus> {
  loading ??= withLoadTimeout(import("./menus.tsx")).then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

export function DeferredMenu({ kind, className, label, children }: { kind: "account" | "narrow"; className: string; label?: string; children: ReactNode }) {
  const [menus, setMenus] = useState<Menus | null>(loaded);
  const [openAtStart, setOpenAtStart] = useState(false);

  if (menus) {
    const Menu = kind === "account" ? menus.AccountDropdown : menus.NarrowDropdown;
    return (
      <Menu defaultOpen={openAtStart} triggerClassName={className} triggerLabel={label}>
        {children}
      </Menu>
    );
  }

  const preload = () => void loadMenus().catch(() => undefined);
  const open = () => {
    loadMenus().then(
      (module) => {
        setOpenAtStart(true);
        setMenus(module);
      },
      // Offline, a new deployment replaced the chunk, or nothing came in 120 s: a reload brings the page's own code.
      () => window.location.reload(),
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      open();
    }
  };
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={preload}
      onFocus={preload}
      onTouchStart={preload}
      onClick={open}
      onKeyDown={onKeyDown}
    >
      {children}
    </button>
  );
}
