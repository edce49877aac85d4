import { useEffect, useState } from "react";
import { useOwnedObjectUrl } from "../templates/use-owned-object-url.ts";
import type { PostContent, TemplateDesign } from "../../../contracts/content/template.ts";
import { isAbort, renderPreviewUrl } from "../templates/preview-queue.ts";

/** Wait this long after the last change before drawing the pin again. */
export const PREVIEW_DEBOUNCE_MS = 120;

export interface PreviewImage {
  /** The latest finished preview (the previous one stays until the next is ready). */
  image: HTMLImageElement | null;
  rendering: boolean;
  failed: boolean;
}

/**
 * The pin as the real engine draws it (app/lib/pin-preview.ts), as a decoded
 * image for the canvas. Renders again, debounced, when the design or the post
 * changes; the editor's preview goes ahead of any gallery previews.
 */
export function usePreviewImage(design: TemplateDesign, post: PostContent): PreviewImage {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [rendering, setRendering] = useState(true);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setRendering(true);
    const timer = setTimeout(async () => {
      let url: string | null = null;
      try {
        url = await renderPreviewUrl(design, post, { signal: controller.signal, urgent: true });
        const next = new Image(1000, 1500);
        next.src = url;
        await next.decode();
        if (controller.signal.aborted) throw new DOMException("Aborted", "AbortError");
        url = null;
        setImage(next);
        setFailed(false);
        setRendering(false);
      } catch (error) {
        if (url) URL.revokeObjectURL(url);
        if (!isAbort(error)) {
          setFailed(true);
          setRendering(false);
        }
      }
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [design, post]);

  // The picture's Blob URL goes when the next picture replaces it, or with the editor.
  useOwnedObjectUrl(image?.src);

  return { image, rendering, failed };
}
