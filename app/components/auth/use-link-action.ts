import { useEffect, useRef, useState } from "react";
import { problemMessage } from "./use-account-form.ts";

export type LinkActionState<T> = { status: "idle" } | { status: "pending" } | { status: "done"; value: T } | { status: "failed"; message: string };

/**
 * Runs once, when the page opened from an e-mailed link loads (verify the
 * e-mail, unsubscribe). `run` is null when the link lacks what it needs.
 */
export function useLinkAction<T>(run: (() => Promise<T>) | null): LinkActionState<T> {
  const [state, setState] = useState<LinkActionState<T>>(run ? { status: "pending" } : { status: "idle" });
  const started = useRef(false);
  const runRef = useRef(run);
  runRef.current = run;

  useEffect(() => {
    const action = runRef.current;
    if (!action || started.current) return;
    started.current = true;
    action().then(
      (value) => setState({ status: "done", value }),
      (error: unknown) => setState({ status: "failed", message: problemMessage(error) }),
    );
  }, []);

  return state;
}
