/// <reference lib="webworker" />
import type { PreviewReply, PreviewRequest } from "./preview-protocol.ts";
import { preloadPictures, renderPreviewSvg, takePictureSteps, warmEngine, type PreviewSteps } from "./pin-preview.ts";

/**
 * A preview worker: draws pins with satori off the page's main thread, so
 * that the page stays responsive and several previews draw at once
 * (app/components/templates/preview-queue.ts hands out the work).
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<PreviewRequest>) => {
  const request = event.data;
  if (request.type === "warm") {
    // The worker's start (its script fetched and run) counts from its time origin, when the page created it.
    const steps: PreviewSteps = [["warm-start", performance.timeOrigin, performance.timeOrigin + performance.now()]];
    void warmEngine(request.designs, steps).then(() => scope.postMessage({ id: request.id, steps } satisfies PreviewReply));
  } else if (request.type === "preload") {
    preloadPictures(request.urls);
  } else {
    const steps: PreviewSteps = [];
    renderPreviewSvg(request.design, request.post, steps).then(
      (svg) =>
        scope.postMessage({ id: request.id, svg: new Blob([svg], { type: "image/svg+xml" }), steps: [...steps, ...takePictureSteps()] } satisfies PreviewReply),
      (error: unknown) => scope.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies PreviewReply),
    );
  }
};
