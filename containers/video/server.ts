import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { ffmpegPath, ffmpegVersion } from "./ffmpeg.ts";

/**
 * The FFmpeg video service. The worker's video-jobs queue consumer hands it jobs
 * (POST /jobs); GET /health reports the ffmpeg it will use. Rendering the jobs
 * into videos is the video issue's work: for now a job is accepted and held in
 * the "queued" state, visible at GET /jobs/:id.
 */

interface Job {
  jobId: string;
  payload: unknown;
  status: "queued";
  receivedAt: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

export function createVideoService() {
  const jobs = new Map<string, Job>();
  let cachedVersion: Promise<string> | null = null;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/health") {
      cachedVersion ??= ffmpegVersion();
      try {
        const version = await cachedVersion;
        return send(res, 200, { status: "ok", ffmpeg: { path: ffmpegPath(), version } });
      } catch (error) {
        cachedVersion = null;
        return send(res, 503, { status: "error", error: `ffmpeg is not usable: ${String(error)}` });
      }
    }
    if (req.method === "POST" && url.pathname === "/jobs") {
      let body: { jobId?: unknown; payload?: unknown };
      try {
        body = JSON.parse(await readBody(req));
      } catch (error) {
        return send(res, 400, { error: error instanceof BodyTooLarge ? "Body too large" : "Body must be JSON" });
      }
      if (typeof body.jobId !== "string" || !body.jobId) return send(res, 400, { error: "jobId is required", field: "jobId" });
      const existing = jobs.get(body.jobId);
      if (existing) return send(res, 200, existing);
      const job: Job = { jobId: body.jobId, payload: body.payload ?? null, status: "queued", receivedAt: new Date().toISOString() };
      jobs.set(job.jobId, job);
      return send(res, 202, job);
    }
    const jobMatch = req.method === "GET" ? /^\/jobs\/([^/]+)$/.exec(url.pathname) : null;
    if (jobMatch) {
      const job = jobs.get(decodeURIComponent(jobMatch[1]));
      return job ? send(res, 200, job) : send(res, 404, { error: "No such job" });
    }
    return send(res, 404, { error: "Not found" });
  }

  return createServer((req, res) => {
    handle(req, res).catch((error) => {
      console.error("video service error", error);
      if (!res.headersSent) send(res, 500, { error: "Internal error" });
    });
  });
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Starts the service (VIDEO_PORT, default 8790; 0 picks a free port). */
export function startVideoService(port = Number(process.env.VIDEO_PORT ?? 8790), hostname = process.env.VIDEO_HOST ?? "127.0.0.1") {
  const server = createVideoService();
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
    server.listen(port, hostname, () => {
      const address = server.address();
      const actualPort = typeof address === "object" && address ? address.port : port;
      resolve({
        url: `http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${actualPort}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startVideoService();
  console.log(`video service listening on ${url}`);
}
