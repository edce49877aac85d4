import { useEffect, useState } from "react";

let hydratedOnce = false;

/**
 * False during server rendering and hydration, true once React runs in the
 * browser. Forms keep their submit button disabled until then, so a click
 * before the scripts load cannot post the password in a native submission.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}
