import type { PostContent, TemplateDesign } from "../../../contracts/template.ts";

/**
 * Satori is CPU-heavy: at most two previews render at once, page-wide. The
 * editor's own preview goes to the front of the line; a preview whose card
 * left the page before its turn is dropped.
 */
const MAX_RENDERING = 2;
let rendering = 0;
const waiting: { start: () => void; signal?: AbortSignal }[] = [];

function next() {
  while (rendering < MAX_RENDERING && waiting.length > 0) {
    const job = waiting.shift()!;
    if (job.signal?.aborted) continue;
    job.start();
  }
}

function queued<T>(task: () => Promise<T>, options: { signal?: AbortSignal; urgent?: boolean }): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const start = () => {
      rendering += 1;
      task()
        .then(resolve, reject)
        .finally(() => {
          rendering -= 1;
          next();
        });
    };
    const job = { start, signal: options.signal };
    if (options.urgent) waiting.unshift(job);
    else waiting.push(job);
    options.signal?.addEventListener("abort", () => reject(options.signal?.reason ?? new DOMException("Aborted", "AbortError")), { once: true });
    next();
  });
}

/** The pin drawn by the real engine, as a Blob URL of its SVG (the caller revokes it). */
export async function renderPreviewUrl(
  design: TemplateDesign,
  post: PostContent | undefined,
  options: { signal?: AbortSignal; urgent?: boolean } = {},
): Promise<string> {
  // The engine (satori, fonts, layout) is a large chunk: fetched with the first preview, not with the page.
  const svg = await queued(async () => (await import("../../lib/pin-preview.ts")).renderPreviewSvg(design, post), options);
  return URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
