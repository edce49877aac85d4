import { useEffect } from "react";

/**
 * A Blob URL this component made and owns (a drawn preview): revoked when the next one replaces it, and when
 * the component goes, so the picture's memory goes with it.
 */
export function useOwnedObjectUrl(url: string | null | undefined) {
  useEffect(() => {
    if (!url) return;
    return () => URL.revokeObjectURL(url);
  }, [url]);
}
