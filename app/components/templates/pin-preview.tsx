import { useEffect, useRef, useState } from "react";
import type { PostContent, TemplateDesign } from "../../../contracts/template.ts";
import { isAbort, renderPreviewUrl } from "./preview-queue.ts";

/** Start rendering a little before the card scrolls into view. */
const NEAR_VIEWPORT = "400px 0px";

/**
 * A live preview of a template: the real engine's SVG (app/lib/pin-preview.ts)
 * shown as an <img>, in a 2:3 box with a skeleton until it is ready. It renders
 * only once near the viewport, through the page-wide render queue, and again
 * when the design or the post changes (the old picture stays until then).
 */
export function PinPreview({ design, post, alt, className }: { design: TemplateDesign; post?: PostContent; alt: string; className?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setNear(true);
        observer.disconnect();
      }
    }, { rootMargin: NEAR_VIEWPORT });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);

  // Only what is drawn counts: a new object with the same layers (e.g. after a favourite toggle) draws nothing new.
  const drawn = { design, post };
  const latest = useRef(drawn);
  latest.current = drawn;
  const drawnKey = JSON.stringify([design.background, design.layers, post ?? null]);

  useEffect(() => {
    if (!near) return;
    const controller = new AbortController();
    renderPreviewUrl(latest.current.design, latest.current.post, { signal: controller.signal }).then(
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
  }, [near, drawnKey]);

  // Each URL is revoked once the next one replaces it, or when the preview goes.
  useEffect(() => {
    if (!url) return;
    return () => URL.revokeObjectURL(url);
  }, [url]);

  const busy = !failed && (!url || !loaded);
  return (
    <div ref={box} className={`pin-preview ${className ?? ""}`} aria-busy={busy}>
      {url ? <img className="pin-preview__image" src={url} alt={alt} width={1000} height={1500} onLoad={() => setLoaded(true)} decoding="async" /> : null}
      {busy && !url ? <div className="pin-preview__skeleton" aria-hidden="true" /> : null}
      {failed && !url ? (
        <p className="pin-preview__failed" role="img" aria-label={`${alt}: preview unavailable`}>
          Preview unavailable
        </p>
      ) : null}
    </div>
  );
}
