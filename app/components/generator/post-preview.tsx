import { useRef, useState } from "react";
import type { Post } from "../../../contracts/content/post.ts";
import { previewContent } from "../../lib/generator/preview-images.ts";
import { usePreviewUrl } from "../templates/use-preview-url.ts";

/**
 * A post's pin drawn live by the same engine as the download
 * (app/lib/pin-preview.ts), redrawn when what it shows changes. `onReady`
 * fires each time a new picture has loaded (the grid counts them).
 */
export function PostPreview({ post, alt, urgent = false, onReady }: { post: Post; alt: string; urgent?: boolean; onReady?: () => void }) {
  const [drawnKey, setDrawnKey] = useState<string | null>(null);
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;

  const design = post.template;
  // Only what is drawn counts: flags and alt text change nothing in the picture.
  const key = design ? JSON.stringify([design.background, design.layers, previewContent(post, "")]) : "";
  const { url, failed } = usePreviewUrl(() => (post.template ? { design: post.template, post: previewContent(post, window.location.origin) } : null), key, {
    urgent,
  });

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
