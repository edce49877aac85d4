import { useEffect, useRef, useState } from "react";
import type { PostContent, TemplateDesign } from "../../../contracts/content/template.ts";
import { usePreviewUrl } from "./use-preview-url.ts";

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
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);

  // Only what is drawn counts: a new object with the same layers (e.g. after a favourite toggle) draws nothing new.
  const drawnKey = JSON.stringify([design.background, design.layers, post ?? null]);
  const { url, failed } = usePreviewUrl(() => ({ design, post }), drawnKey, { enabled: near });

  // Busy while it is being drawn; a card far below the fold, not drawn until it comes near, is not (a page of
  // templates would otherwise say it is loading for as long as nobody scrolls).
  const busy = near && !failed && (!url || !loaded);
  return (
    <div ref={box} className={`pin-preview ${className ?? ""}`} aria-busy={busy}>
      {url ? <img className="pin-preview__image" src={url} alt={alt} width={1000} height={1500} onLoad={() => setLoaded(true)} decoding="async" /> : null}
      {!failed && !url ? <div className="pin-preview__skeleton" aria-hidden="true" /> : null}
      {failed && !url ? (
        <p className="pin-preview__failed" role="img" aria-label={`${alt}: preview unavailable`}>
          Preview unavailable
        </p>
      ) : null}
    </div>
  );
}
