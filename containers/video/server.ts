import { createReadStream } from "node:fs";
import { rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fitBox, MAX_SECONDS, MIN_SECONDS, VIDEO_HEIGHT, VIDEO_WIDTH, videoSeconds, type VideoSpec } from "./compose.ts";
import { ffmpegPath, ffmpegVersion, ffprobePath, probe, type Probe } from "./ffmpeg.ts";
import { JobRunner, jobOptionsFromEnv, THUMBNAIL_FILE, VIDEO_FILE, type JobOptions } from "./jobs.ts";

/**
 * The FFmpeg video service (docs/decisions/032-video-service.md). The worker's
 * video-jobs consumer sends everything a job needs in one request, so the
 * service never calls back:
 *
 * - POST /jobs, multipart/form-data: `jobId`, `spec` (JSON: box, durationSeconds?,
 *   trimStart?), `overlay` (transparent 1000x1500 PNG), `base` (optional,
 *   1000x1500 picture under the video) and `source` (the clip or the photo).
 *   202 {jobId, status: "queued", ...}; 200 with the job when that id is known
 *   and not failed; 400 naming the part when an input is not what it must be
 *   (judged by probing the content, never by file name).
 * - GET /jobs/:id: {jobId, status: queued|rendering|done|failed, progress 0..1,
 *   durationSeconds, error?}.
 * - GET /jobs/:id/video (MP4) and /jobs/:id/thumbnail (JPEG) once done.
 * - DELETE /jobs/:id: stops it and deletes its files.
 * - GET /health: the ffmpeg in use and the limits.
 */

export interface VideoServiceOptions extends JobOptions {
  /** The longest clip accepted (seconds): a longer upload is refused, not trimmed. */
  maxClipSeconds: number;
  maxUploadBytes: number;
}

export function serviceOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): VideoServiceOptions {
  return {
    ...jobOptionsFromEnv(env),
    maxClipSeconds: Number(env.VIDEO_MAX_CLIP_SECONDS || 300),
    maxUploadBytes: Number(env.VIDEO_MAX_UPLOAD_BYTES || 200 * 1024 * 1024),
  };
}

const JOB_ID = /^[A-Za-z0-9_-]{1,80}$/;

class BadInput extends Error {
  readonly field: string;
  readonly status: number;
  constructor(message: string, field: string, status = 400) {
    super(message);
    this.field = field;
    this.status = status;
  }
}

export function createVideoService(overrides: Partial<VideoServiceOptions> = {}) {
  const options = { ...serviceOptionsFromEnv(), ...overrides };
  const runner = new JobRunner(options);
  let cachedVersion: Promise<string> | null = null;

  async function accept(req: IncomingMessage, res: ServerResponse) {
    const type = req.headers["content-type"] ?? "";
    if (!type.startsWith("multipart/form-data")) throw new BadInput("Body must be multipart/form-data", "body");
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > options.maxUploadBytes) throw new BadInput(`The upload is larger than ${Math.round(options.maxUploadBytes / 1048576)} MB`, "body", 413);
    let form: FormData;
    try {
      form = await new Request("http://service/jobs", {
        method: "POST",
        headers: { "content-type": type },
        body: limited(req, options.maxUploadBytes),
        duplex: "half",
      } as RequestInit).formData();
    } catch (error) {
      if (error instanceof BadInput) throw error;
      throw new BadInput("Body must be multipart/form-data", "body");
    }
    const jobId = form.get("jobId");
    if (typeof jobId !== "string" || !JOB_ID.test(jobId)) throw new BadInput("jobId is required (letters, digits, - and _)", "jobId");
    const existing = runner.get(jobId);
    if (existing && existing.status !== "failed") return send(res, 200, existing);
    const spec = parseSpec(form.get("spec"));
    const overlay = form.get("overlay");
    const source = form.get("source");
    const base = form.get("base");
    if (!(overlay instanceof Blob) || overlay.size === 0) throw new BadInput("overlay is required: a 1000x1500 PNG", "overlay");
    if (!(source instanceof Blob) || source.size === 0) throw new BadInput("source is required: a video or an image", "source");
    if (base !== null && !(base instanceof Blob)) throw new BadInput("base must be a picture", "base");
    if (existing) await runner.remove(jobId);
    const dir = await runner.jobDir(jobId);
    try {
      const paths = {
        overlay: join(dir, "overlay.in"),
        source: join(dir, "source.in"),
        base: base instanceof Blob && base.size > 0 ? join(dir, "base.in") : null,
      };
      await writeFile(paths.overlay, new Uint8Array(await overlay.arrayBuffer()));
      await writeFile(paths.source, new Uint8Array(await source.arrayBuffer()));
      if (paths.base) await writeFile(paths.base, new Uint8Array(await (base as Blob).arrayBuffer()));
      const [sourceProbe, overlayProbe, baseProbe] = await Promise.all([probe(paths.source), probe(paths.overlay), paths.base ? probe(paths.base) : null]);
      checkFullPicture(overlayProbe, "overlay");
      if (paths.base) checkFullPicture(baseProbe, "base");
      const checked = checkSource(sourceProbe, options.maxClipSeconds, spec);
      const durationSeconds = videoSeconds(spec, checked);
      const job = runner.add({ jobId, dir, spec, probe: checked, inputs: paths, durationSeconds });
      return send(res, 202, job);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  async function sendFile(res: ServerResponse, jobId: string, name: typeof VIDEO_FILE | typeof THUMBNAIL_FILE) {
    const job = runner.get(jobId);
    if (!job) return send(res, 404, { error: "No such job" });
    const file = runner.file(jobId, name);
    if (!file) return send(res, 409, { error: `The job is ${job.status}, not done`, status: job.status });
    const { size } = await stat(file);
    res.writeHead(200, { "content-type": name === VIDEO_FILE ? "video/mp4" : "image/jpeg", "content-length": String(size) });
    createReadStream(file).pipe(res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/health") {
      cachedVersion ??= ffmpegVersion();
      try {
        const version = await cachedVersion;
        return send(res, 200, {
          status: "ok",
          ffmpeg: { path: ffmpegPath(), version, ffprobe: ffprobePath() },
          limits: {
            concurrency: options.concurrency,
            timeoutMs: options.timeoutMs,
            maxClipSeconds: options.maxClipSeconds,
            maxUploadBytes: options.maxUploadBytes,
          },
        });
      } catch (error) {
        cachedVersion = null;
        return send(res, 503, { status: "error", error: `ffmpeg is not usable: ${String(error)}` });
      }
    }
    if (req.method === "POST" && url.pathname === "/jobs") {
      try {
        return await accept(req, res);
      } catch (error) {
        if (error instanceof BadInput) {
          req.resume();
          return send(res, error.status, { error: error.message, field: error.field });
        }
        throw error;
      }
    }
    const match = /^\/jobs\/([^/]+)(?:\/(video|thumbnail))?$/.exec(url.pathname);
    if (match) {
      const jobId = decodeURIComponent(match[1]);
      if (req.method === "GET" && match[2] === "video") return sendFile(res, jobId, VIDEO_FILE);
      if (req.method === "GET" && match[2] === "thumbnail") return sendFile(res, jobId, THUMBNAIL_FILE);
      if (req.method === "GET" && !match[2]) {
        const job = runner.get(jobId);
        return job ? send(res, 200, job) : send(res, 404, { error: "No such job" });
      }
      if (req.method === "DELETE" && !match[2])
        return (await runner.remove(jobId)) ? send(res, 200, { jobId, deleted: true }) : send(res, 404, { error: "No such job" });
    }
    return send(res, 404, { error: "Not found" });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error("video service error", error);
      if (!res.headersSent) send(res, 500, { error: "Internal error" });
      else res.destroy();
    });
  });
  return { server, runner, options };
}

function parseSpec(raw: FormDataEntryValue | null): VideoSpec {
  if (typeof raw !== "string") throw new BadInput("spec is required: JSON with the video box", "spec");
  let spec: Record<string, unknown>;
  try {
    spec = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new BadInput("spec must be JSON", "spec");
  }
  const box = spec.box as Record<string, unknown> | undefined;
  const number = (value: unknown) => typeof value === "number" && Number.isFinite(value);
  if (!box || !["x", "y", "width", "height"].every((k) => number(box[k]))) throw new BadInput("spec.box needs x, y, width and height", "spec.box");
  if ((box.width as number) < 2 || (box.height as number) < 2) throw new BadInput("spec.box is too small", "spec.box");
  const fitted = fitBox(box as unknown as VideoSpec["box"]);
  if (fitted.width < 2 || fitted.height < 2) throw new BadInput("spec.box lies outside the pin", "spec.box");
  if (
    spec.durationSeconds !== undefined &&
    (!number(spec.durationSeconds) || (spec.durationSeconds as number) < MIN_SECONDS || (spec.durationSeconds as number) > MAX_SECONDS)
  ) {
    throw new BadInput(`spec.durationSeconds must be from ${MIN_SECONDS} to ${MAX_SECONDS}`, "spec.durationSeconds");
  }
  if (spec.trimStart !== undefined && (!number(spec.trimStart) || (spec.trimStart as number) < 0))
    throw new BadInput("spec.trimStart must be a number of seconds", "spec.trimStart");
  return {
    box: box as unknown as VideoSpec["box"],
    durationSeconds: spec.durationSeconds as number | undefined,
    trimStart: spec.trimStart as number | undefined,
  };
}

function checkFullPicture(found: Probe | null, field: string) {
  if (found?.kind !== "image") throw new BadInput(`${field} is not a picture`, field);
  if (found.width !== VIDEO_WIDTH || found.height !== VIDEO_HEIGHT)
    throw new BadInput(`${field} must be ${VIDEO_WIDTH}x${VIDEO_HEIGHT}, not ${found.width}x${found.height}`, field);
}

function checkSource(found: Probe | null, maxClipSeconds: number, spec: VideoSpec): Probe {
  if (!found) throw new BadInput("source is not a video or an image", "source");
  if (found.kind === "video" && found.durationSeconds > maxClipSeconds) {
    throw new BadInput(`source is too long: ${Math.round(found.durationSeconds)} s, at most ${maxClipSeconds} s`, "source");
  }
  if (found.kind === "video" && (spec.trimStart ?? 0) >= found.durationSeconds)
    throw new BadInput("spec.trimStart is past the end of the clip", "spec.trimStart");
  return found;
}

/** The request body as a web stream that errors past `max` bytes. */
function limited(req: IncomingMessage, max: number): ReadableStream<Uint8Array> {
  let size = 0;
  const source = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > max) controller.error(new BadInput(`The upload is larger than ${Math.round(max / 1048576)} MB`, "body", 413));
        else controller.enqueue(chunk);
      },
    }),
  );
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Starts the service (VIDEO_PORT, default 8790; 0 picks a free port). */
export function startVideoService(
  port = Number(process.env.VIDEO_PORT ?? 8790),
  hostname = process.env.VIDEO_HOST ?? "127.0.0.1",
  overrides: Partial<VideoServiceOptions> = {},
) {
  const { server, runner, options } = createVideoService(overrides);
  return new Promise<{ url: string; runner: JobRunner; options: VideoServiceOptions; close: () => Promise<void> }>((resolve) => {
    server.listen(port, hostname, () => {
      const address = server.address();
      const actualPort = typeof address === "object" && address ? address.port : port;
      resolve({
        url: `http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${actualPort}`,
        runner,
        options,
        close: async () => {
          await runner.close();
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
        },
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url, close } = await startVideoService();
  console.log(`video service listening on ${url}`);
  // Stopped (container shutdown, Ctrl-C): running ffmpeg processes are killed and every job's files deleted.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void close().finally(() => process.exit(0));
    });
  }
}
