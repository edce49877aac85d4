import { useEffect, useRef, useState } from "react";
import { useOwnedObjectUrl } from "./use-owned-object-url.ts";
import type { PostContent, TemplateDesign } from "../../../contracts/content/template.ts";
import { isAbort, renderPreviewUrl } from "./preview-queue.ts";

export interface PreviewDrawing {
  design: TemplateDesign;
  post?: PostContent;
}

/**
 * A pin drawn by the real engine through the page-wide preview queue, as a
 * Blob URL: drawn when `enabled` and again whenever `key` (what the picture
 * shows) changes; the previous picture stays until the next is ready, and
 * each URL is revoked once replaced or when the component goes.
 * `drawing` is read when a drawing starts, so it may be a new object each render.
 */
export function usePreviewUrl(drawing: () => PreviewDrawing | null, key: string, options: { enabled?: boolean; urgent?: boolean } = {}) {
  const { enabled = true, urgent = false } = options;
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const latest = useRef(drawing);
  latest.current = drawing;

  useEffect(() => {
    if (!enabled) return;
    const current = latest.current();
    if (!current) return;
    const controller = new AbortController();
    renderPreviewUrl(current.design, current.post, { signal: controller.signal, urgent }).then(
      (next) => {
        if (controller.signal.aborted) {
          URL.revokeObjectURL(next);
          return;
        }
        setFailed(false);
        setUrl(next);
      },
      (error: unknown) => {
        if (!isAbort(error)) setFailed(true);
      },
    );
    return () => controller.abort();
  }, [enabled, key, urgent]);

  useOwnedObjectUrl(url);

  return { url, failed };
}
