import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeArgs, encodeSettingsFromEnv, thumbnailArgs, type EncodeSettings, type VideoSpec } from "./compose.ts";
import { ffmpegPath, type Probe } from "./ffmpeg.ts";

/**
 * The service's jobs: at most `concurrency` ffmpeg processes at once (the rest
 * wait, first come first served), each killed after `timeoutMs`. Every job
 * works in its own folder under `tempRoot`: the inputs are deleted as soon as
 * ffmpeg is done, the whole folder when the job fails or times out, and the
 * results when they are deleted (DELETE /jobs/:id) or `resultTtlMs` after the
 * job finished.
 */

export type JobStatus = "queued" | "rendering" | "done" | "failed";

export interface JobView {
  jobId: string;
  status: JobStatus;
  /** 0..1, from ffmpeg's -progress output. */
  progress: number;
  /** The video's length (known once accepted). */
  durationSeconds: number;
  /** The source: a clip or a photo. */
  source: Probe["kind"];
  error?: string;
  videoBytes?: number;
  thumbnailBytes?: number;
}

export interface JobOptions {
  concurrency: number;
  timeoutMs: number;
  tempRoot: string;
  resultTtlMs: number;
  settings: EncodeSettings;
}

export function jobOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): JobOptions {
  return {
    concurrency: Math.max(1, Number(env.VIDEO_CONCURRENCY || 1)),
    timeoutMs: Math.max(1000, Number(env.VIDEO_JOB_TIMEOUT_MS || 180_000)),
    tempRoot: env.VIDEO_TMP_DIR || join(tmpdir(), "pinboard-video-jobs"),
    resultTtlMs: Number(env.VIDEO_RESULT_TTL_MS || 30 * 60_000),
    settings: encodeSettingsFromEnv(env),
  };
}

interface Job extends JobView {
  dir: string;
  inputs: { base: string | null; overlay: string; source: string };
  probe: Probe;
  spec: VideoSpec;
  child?: ChildProcess;
  expiry?: NodeJS.Timeout;
}

export const VIDEO_FILE = "video.mp4";
export const THUMBNAIL_FILE = "thumbnail.jpg";

export class JobRunner {
  private jobs = new Map<string, Job>();
  private waiting: Job[] = [];
  private running = 0;

  readonly options: JobOptions;

  constructor(options: JobOptions) {
    this.options = options;
  }

  /** A fresh folder for a job's files. */
  async jobDir(jobId: string): Promise<string> {
    const dir = join(this.options.tempRoot, jobId);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    return dir;
  }

  get(jobId: string): JobView | undefined {
    const job = this.jobs.get(jobId);
    return job ? view(job) : undefined;
  }

  /** Where a finished job's file is. */
  file(jobId: string, name: typeof VIDEO_FILE | typeof THUMBNAIL_FILE): string | undefined {
    const job = this.jobs.get(jobId);
    return job?.status === "done" ? join(job.dir, name) : undefined;
  }

  /** Takes a probed, accepted job; it runs when a slot is free. */
  add(input: { jobId: string; dir: string; spec: VideoSpec; probe: Probe; inputs: Job["inputs"]; durationSeconds: number }): JobView {
    const job: Job = { ...input, status: "queued", progress: 0, source: input.probe.kind };
    this.jobs.set(job.jobId, job);
    this.waiting.push(job);
    this.pump();
    return view(job);
  }

  /** Stops a job if it runs and deletes its files. */
  async remove(jobId: string): Promise<boolean> {
    const job = this.jobs.get(jobId);
    if (!job) return false;
    this.jobs.delete(jobId);
    this.waiting = this.waiting.filter((w) => w !== job);
    if (job.expiry) clearTimeout(job.expiry);
    job.child?.kill("SIGKILL");
    await rm(job.dir, { recursive: true, force: true });
    return true;
  }

  /** Stops everything and deletes every job's files (on shutdown). */
  async close() {
    await Promise.all([...this.jobs.keys()].map((id) => this.remove(id)));
  }

  /** Folders left under the temp root (for checks). */
  async leftovers(): Promise<string[]> {
    try {
      return await readdir(this.options.tempRoot);
    } catch {
      return [];
    }
  }

  private pump() {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running++;
      this.run(job)
        .catch((error) => this.fail(job, `The video service failed: ${String(error)}`))
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }

  private async run(job: Job) {
    job.status = "rendering";
    const output = join(job.dir, VIDEO_FILE);
    const { args, seconds } = composeArgs({ spec: job.spec, ...job.inputs, sourceProbe: job.probe, output, settings: this.options.settings });
    const deadline = Date.now() + this.options.timeoutMs;
    const encoded = await this.ffmpeg(job, args, deadline, (outSeconds) => {
      job.progress = Math.min(0.95, Math.max(job.progress, (outSeconds / seconds) * 0.95));
    });
    if (!this.jobs.has(job.jobId)) return; // deleted while it ran
    if (!encoded.ok) return this.fail(job, encoded.error);
    const thumbnail = await this.ffmpeg(job, thumbnailArgs(output, join(job.dir, THUMBNAIL_FILE)), deadline, () => {});
    if (!this.jobs.has(job.jobId)) return;
    if (!thumbnail.ok) return this.fail(job, thumbnail.error);
    await this.dropInputs(job);
    job.videoBytes = (await stat(output)).size;
    job.thumbnailBytes = (await stat(join(job.dir, THUMBNAIL_FILE))).size;
    job.status = "done";
    job.progress = 1;
    this.expireLater(job);
  }

  private ffmpeg(job: Job, args: string[], deadline: number, onProgress: (seconds: number) => void): Promise<{ ok: true } | { ok: false; error: string }> {
    return new Promise((resolve) => {
      const child = spawn(ffmpegPath(), args, { stdio: ["ignore", "pipe", "pipe"] });
      job.child = child;
      let stderr = "";
      let timedOut = false;
      const timer = setTimeout(
        () => {
          timedOut = true;
          child.kill("SIGKILL");
        },
        Math.max(0, deadline - Date.now()),
      );
      let pending = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        pending += chunk;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          const match = /^out_time_us=(\d+)/.exec(line);
          if (match) onProgress(Number(match[1]) / 1e6);
        }
      });
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        stderr = (stderr + chunk).slice(-4000);
      });
      const finish = (result: { ok: true } | { ok: false; error: string }) => {
        clearTimeout(timer);
        job.child = undefined;
        resolve(result);
      };
      child.on("error", (error) => finish({ ok: false, error: `ffmpeg could not start: ${error.message}` }));
      child.on("close", (code, signal) => {
        if (timedOut) finish({ ok: false, error: `The video took longer than ${Math.round(this.options.timeoutMs / 1000)} s and was stopped` });
        else if (code === 0) finish({ ok: true });
        else finish({ ok: false, error: `ffmpeg failed (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" ")}` });
      });
    });
  }

  private async fail(job: Job, error: string) {
    // The folder goes first: a job that reads "failed" has left nothing on disk.
    await rm(job.dir, { recursive: true, force: true }).catch((cause) => console.error("A failed video job's folder could not be removed", job.jobId, cause));
    job.status = "failed";
    job.error = error;
    this.expireLater(job);
  }

  private async dropInputs(job: Job) {
    for (const file of [job.inputs.base, job.inputs.overlay, job.inputs.source]) if (file) await rm(file, { force: true });
  }

  /** A finished job is forgotten (and its files deleted) after the results' lifetime. */
  private expireLater(job: Job) {
    job.expiry = setTimeout(() => void this.remove(job.jobId), this.options.resultTtlMs);
    job.expiry.unref();
  }
}

function view(job: Job): JobView {
  const { jobId, status, progress, durationSeconds, source, error, videoBytes, thumbnailBytes } = job;
  return {
    jobId,
    status,
    progress: Math.round(progress * 1000) / 1000,
    durationSeconds,
    source,
    ...(error ? { error } : {}),
    ...(videoBytes ? { videoBytes, thumbnailBytes } : {}),
  };
}
