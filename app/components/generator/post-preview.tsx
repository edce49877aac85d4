import { useEffect, useRef, useState } from "react";
import type { Post } from "../../../contracts/post.ts";
import { previewContent } from "../../lib/generator/preview-images.ts";
import type { TemplateDesign } from "../../../contracts/template.ts";
import { isAbort, renderPreviewUrl } from "../templates/preview-queue.ts";

/** Loads the engine (satori, layout, the default font) ahead of the first preview, by drawing one template. */
export function warmPreviewEngine(design: TemplateDesign | null) {
  void import("../../lib/pin-preview.ts").then((engine) => (design ? engine.renderPreviewSvg(design).catch(() => undefined) : undefined));
}

/**
 * A post's pin drawn live by the same engine as the download
 * (app/lib/pin-preview.ts), redrawn when what it shows changes. `onReady`
 * fires each time a new picture has loaded (the grid counts them).
 */
export function PostPreview({ post, alt, urgent = false, onReady }: { post: Post; alt: string; urgent?: boolean; onReady?: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [drawnKey, setDrawnKey] = useState<string | null>(null);
  const latest = useRef(post);
  latest.current = post;
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;

  const design = post.template;
  // Only what is drawn counts: flags and alt text change nothing in the picture.
  const key = design ? JSON.stringify([design.background, design.layers, previewContent(post, "")]) : "";

  useEffect(() => {
    const current = latest.current;
    if (!current.template) return;
    const controller = new AbortController();
    renderPreviewUrl(current.template, previewContent(current, window.location.origin), { signal: controller.signal, urgent }).then(
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
  }, [key, urgent]);

  useEffect(() => {
    if (!url) return;
    return () => URL.revokeObjectURL(url);
  }, [url]);

  const ready = url !== null && drawnKey === url;
  return (
    <div className="pin-preview post-preview" aria-busy={!failed && !ready} data-preview={failed ? "failed" : ready ? "ready" : "drawing"}>
      {url ? (
        <img
          className="pin-preview__image"
          src={url}
          alt={alt}
          width={1000}
          height={1500}
          decoding="async"
          onLoad={() => {
            setDrawnKey(url);
            onReadyRef.current?.();
          }}
        />
      ) : null}
      {!url && !failed ? <div className="pin-preview__skeleton" aria-hidden="true" /> : null}
      {failed && !url ? (
        <p className="pin-preview__failed" role="img" aria-label={`${alt}: preview unavailable`}>
          Preview unavailable
        </p>
      ) : null}
    </div>
  );
}
