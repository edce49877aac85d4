// `npm run bench:video`: seconds the FFmpeg video service takes per 10 s
// 1000x1500 video, through its HTTP API as the worker's consumer uses it:
// (a) a slow pan over a photo and (b) an uploaded 1280x720 clip with sound,
// each under a transparent overlay on a base picture. Prints the median of 3
// runs, the ratio to the video's length (target at most 0.5x real time) and the
// file size (target at most 8 MB), with the encoder settings and the machine's
// load. `--matrix` also tries other x264 presets / CRF / frame rates.
import { readFileSync } from "node:fs";
import { loadavg, cpus } from "node:os";
import { rm } from "node:fs/promises";
import { startVideoService } from "../containers/video/server.ts";
import { encodeSettingsFromEnv, type EncodeSettings } from "../containers/video/compose.ts";
import { ffmpegVersion } from "../containers/video/ffmpeg.ts";
import { jobForm, makeVideoFixtures } from "../test/support/video-fixtures.ts";

const RUNS = Number(process.env.BENCH_RUNS || 3);
const SECONDS = 10;
/** CPU seconds used by finished child processes (ffmpeg) so far: /proc/self/stat cutime + cstime. */
function childCpuSeconds(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const fixtures = await makeVideoFixtures({ clipSeconds: SECONDS, longSeconds: 1 });
console.log(
  `${await ffmpegVersion()}; ${cpus().length} cores; load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);

async function measure(settings: EncodeSettings) {
  const service = await startVideoService(0, "127.0.0.1", { settings, concurrency: 1 });
  const scenarios = [
    { name: "(a) pan over a photo ", source: fixtures.photo, spec: { box: { x: 0, y: 220, width: 1000, height: 1080 }, durationSeconds: SECONDS } },
    { name: "(b) clip under overlay", source: fixtures.clip, spec: { box: { x: 0, y: 220, width: 1000, height: 1080 } } },
  ];
  const rows: string[] = [];
  for (const scenario of scenarios) {
    const times: number[] = [];
    const sizes: number[] = [];
    const cpu: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const jobId = `bench-${run}-${scenario.name.slice(1, 2)}`;
      const started = performance.now();
      const cpuBefore = childCpuSeconds();
      const response = await fetch(`${service.url}/jobs`, {
        method: "POST",
        body: await jobForm({ jobId, spec: scenario.spec, overlay: fixtures.overlay, base: fixtures.base, source: scenario.source }),
      });
      if (response.status !== 202) throw new Error(`POST /jobs answered ${response.status}: ${await response.text()}`);
      let job: { status: string; error?: string; videoBytes?: number; durationSeconds: number };
      for (;;) {
        job = await (await fetch(`${service.url}/jobs/${jobId}`)).json();
        if (job.status === "done" || job.status === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (job.status !== "done") throw new Error(`job failed: ${job.error}`);
      times.push((performance.now() - started) / 1000);
      cpu.push(childCpuSeconds() - cpuBefore);
      sizes.push(job.videoBytes ?? 0);
      await fetch(`${service.url}/jobs/${jobId}`, { method: "DELETE" });
    }
    const seconds = median(times);
    rows.push(
      `  ${scenario.name}  ${seconds.toFixed(2).padStart(6)} s per ${SECONDS} s video  ratio ${(seconds / SECONDS).toFixed(2)}x real time  ` +
        `${(median(sizes) / 1048576).toFixed(2)} MB  ffmpeg CPU ${median(cpu).toFixed(2)} s (${(median(cpu) / cpus().length / SECONDS).toFixed(2)}x on ${cpus().length} idle cores)  ` +
        `(runs: ${times.map((t) => t.toFixed(2)).join(", ")})`,
    );
  }
  await service.close();
  console.log(`x264 preset ${settings.preset}, crf ${settings.crf}, ${settings.fps} fps, maxrate ${settings.maxrateKbps} kbit/s`);
  for (const row of rows) console.log(row);
}

const base = encodeSettingsFromEnv();
await measure(base);
if (process.argv.includes("--matrix")) {
  for (const variant of [
    { preset: "superfast", crf: 23, fps: 25 },
    { preset: "ultrafast", crf: 23, fps: 25 },
    { preset: "veryfast", crf: 23, fps: 24 },
    { preset: "faster", crf: 23, fps: 25 },
  ])
    await measure({ ...base, ...variant });
}
await rm(fixtures.dir, { recursive: true, force: true });
