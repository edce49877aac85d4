import type { PostContent, TemplateDesign } from "../../../contracts/content/template.ts";
import type { PreviewSteps } from "../../lib/pin-preview.ts";
import type { PreviewReply, PreviewRequest } from "../../lib/preview-protocol.ts";

/**
 * Pin previews are drawn by satori, which is CPU-heavy: in preview workers
 * (app/lib/preview-worker.ts), so the page stays responsive and previews
 * draw side by side, or on the page where workers are unavailable. A
 * page-wide queue keeps a few previews in flight per worker; the editor's own
 * preview goes to the front of the line, and a preview whose card left the
 * page before its turn is dropped.
 */
/**
 * Workers beside the page's own thread: one on a two-core machine (the page
 * needs the other core to show what is drawn), two where there are more.
 */
const MAX_WORKERS = 2;
/**
 * Four per worker: a worker draws one at a time, and a job waiting for its
 * pictures (fetched and downscaled as soon as a page is read) holds no CPU,
 * so the pins without photos, or whose photos are in, draw meanwhile instead
 * of waiting behind it. The page-wide queue still hands jobs out in grid order.
 */
const JOBS_PER_WORKER = 4;
/** Marked when the preview engine is warm (the benchmark waits for it, as a user would be typing). */
export const ENGINE_WARM_MARK = "preview:engine-warm";
/** Marked when the preview workers start (detail.count: how many); the benchmark prints it. */
export const WORKERS_MARK = "preview:workers";

interface Slot {
  worker: Worker;
  jobs: number;
}

/** A worker that could not start or stopped: its jobs are drawn again elsewhere. */
class WorkerLost extends Error {}

let pool: Slot[] | null = null;
const pending = new Map<number, { slot: Slot; resolve: (reply: PreviewReply) => void; reject: (error: Error) => void }>();
let nextId = 1;

const engineOnPage = () => import("../../lib/pin-preview.ts");

function retire(slot: Slot) {
  slot.worker.terminate();
  pool = (pool ?? []).filter((candidate) => candidate !== slot);
  for (const [id, job] of pending) {
    if (job.slot !== slot) continue;
    pending.delete(id);
    job.reject(new WorkerLost("The preview worker stopped"));
  }
}

function workers(): Slot[] {
  if (pool) return pool;
  pool = [];
  if (typeof Worker === "undefined") return pool;
  const count = Math.max(1, Math.min(MAX_WORKERS, (navigator.hardwareConcurrency || 2) - 1));
  try {
    for (let i = 0; i < count; i++) {
      const slot: Slot = { worker: new Worker(new URL("../../lib/preview-worker.ts", import.meta.url), { type: "module", name: "pin-previews" }), jobs: 0 };
      slot.worker.onmessage = (event: MessageEvent<PreviewReply>) => {
        const job = pending.get(event.data.id);
        if (!job) return;
        pending.delete(event.data.id);
        job.resolve(event.data);
      };
      slot.worker.onerror = (event) => {
        event.preventDefault();
        console.warn("A preview worker failed: previews draw on the page instead.", event.message);
        retire(slot);
      };
      pool.push(slot);
    }
    performance.mark(WORKERS_MARK, { detail: { count } });
  } catch (error) {
    console.warn("Preview workers are unavailable: previews draw on the page.", error);
    for (const slot of pool) slot.worker.terminate();
    pool = [];
  }
  return pool;
}

/** A request to one worker and its answer. */
function ask(slot: Slot, request: Extract<PreviewRequest, { id: number }>): Promise<PreviewReply> {
  return new Promise((resolve, reject) => {
    pending.set(request.id, { slot, resolve, reject });
    slot.worker.postMessage(request);
  });
}

/** A preview's steps on the page's timeline (`preview:fonts`, `preview:satori`...): the benchmark reads them. */
function recordSteps(steps: PreviewSteps) {
  for (const [step, start, end] of steps) {
    performance.measure(`preview:${step}`, { start: start - performance.timeOrigin, end: end - performance.timeOrigin });
  }
}

async function draw(design: TemplateDesign, post: PostContent | undefined): Promise<Blob> {
  const slots = workers();
  if (slots.length === 0) return new Blob([await (await engineOnPage()).renderPreviewSvg(design, post)], { type: "image/svg+xml" });
  const slot = slots.reduce((best, candidate) => (candidate.jobs < best.jobs ? candidate : best));
  slot.jobs += 1;
  try {
    const reply = await ask(slot, { type: "render", id: nextId++, design, post });
    if (reply.svg === undefined) throw new Error(reply.error ?? "The preview could not be drawn");
    const drawn = reply.steps.find(([step]) => step === "satori")?.[2];
    if (drawn !== undefined) reply.steps.push(["reply", drawn, performance.timeOrigin + performance.now()]);
    recordSteps(reply.steps);
    return reply.svg;
  } catch (error) {
    if (error instanceof WorkerLost) return draw(design, post);
    throw error;
  } finally {
    slot.jobs -= 1;
  }
}

let rendering = 0;
const waiting: { start: () => void; signal?: AbortSignal }[] = [];
const limit = () => Math.max(1, workers().length) * JOBS_PER_WORKER;

function next() {
  while (rendering < limit() && waiting.length > 0) {
    const job = waiting.shift()!;
    if (job.signal?.aborted) continue;
    job.start();
  }
}

function queued<T>(task: () => Promise<T>, options: { signal?: AbortSignal; urgent?: boolean }): Promise<T> {
  const queuedAt = performance.now();
  return new Promise<T>((resolve, reject) => {
    const start = () => {
      performance.measure("preview:queued", { start: queuedAt, end: performance.now() });
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
  return URL.createObjectURL(await queued(() => draw(design, post), options));
}

/** Gets the engine ready ahead of the first previews: satori compiled and these designs' fonts fetched. */
export function warmPreviews(designs: TemplateDesign[]): void {
  const slots = workers();
  const warming =
    slots.length > 0
      ? Promise.all(slots.map((slot) => ask(slot, { type: "warm", id: nextId++, designs })))
      : engineOnPage().then((engine) => engine.warmEngine(designs));
  warming.then(
    (replies) => {
      for (const reply of replies ?? []) if ("steps" in reply && reply.steps) recordSteps(reply.steps);
      performance.mark(ENGINE_WARM_MARK);
    },
    () => undefined,
  );
}

/** An empty design: drawing it proves the engine starts (satori and its WebAssembly), with nothing to fetch. */
const ENGINE_CHECK_DESIGN: TemplateDesign = { title: "", background: "#ffffff", layers: [], categories: [] };

/**
 * Whether the preview engine starts in this browser: WebAssembly exists and an
 * empty pin draws (in a worker, or on the page where workers fail). False
 * sends the user to the basic generator (/backupGenerator, decision 055).
 */
export async function previewEngineStarts(): Promise<boolean> {
  if (typeof WebAssembly === "undefined") return false;
  try {
    await queued(() => draw(ENGINE_CHECK_DESIGN, undefined), {});
    return true;
  } catch (error) {
    console.warn("The preview engine could not start.", error);
    return false;
  }
}

/** Starts fetching pictures previews are about to draw (their preview addresses, e.g. through the image proxy). */
export function preloadPreviewPictures(urls: string[]): void {
  if (urls.length === 0) return;
  const slots = workers();
  if (slots.length > 0) for (const slot of slots) slot.worker.postMessage({ type: "preload", urls } satisfies PreviewRequest);
  else void engineOnPage().then((engine) => engine.preloadPictures(urls));
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
