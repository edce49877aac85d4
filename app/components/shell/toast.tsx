import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { LazyPart, lazyWithTimeout } from "../lazy-part.tsx";
import { actionFinished, type ShownToast, type Toaster, type ToastOptions } from "./toast-options.ts";

export { ACTION_FINISHED_EVENT } from "./toast-options.ts";
export type { ShownToast, Toaster, ToastKind, ToastOptions } from "./toast-options.ts";

const ToastContext = createContext<Toaster | null>(null);

/**
 * The Radix toasts themselves (app/components/shell/toast-region.tsx): their code loads with the
 * first toast, not with every page (issue 17's JavaScript budget). Toasts asked for meanwhile wait
 * in the state below and show once it is there.
 */
const ToastRegion = lazyWithTimeout(() => import("./toast-region.tsx"));

/** Toasts for the whole app: a polite live region bottom right, swipe or Escape to dismiss. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const [used, setUsed] = useState(false);
  const nextId = useRef(0);

  const show = useCallback((options: ToastOptions) => {
    nextId.current += 1;
    const id = nextId.current;
    setUsed(true);
    setToasts((shown) => [...shown, { ...options, id }]);
    if (options.kind === "success") actionFinished();
  }, []);

  const toaster = useMemo<Toaster>(() => Object.assign((options: ToastOptions) => show(options), { toast: show }), [show]);

  const forget = useCallback((id: number) => setToasts((shown) => shown.filter((toast) => toast.id !== id)), []);

  return (
    <ToastContext.Provider value={toaster}>
      {children}
      {used ? (
        <LazyPart quiet>
          <ToastRegion toasts={toasts} forget={forget} />
        </LazyPart>
      ) : null}
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error("useToast outside ToastProvider (the SiteShell mounts it)");
  return toaster;
}
