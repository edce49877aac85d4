import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ffmpegPath } from "../../containers/video/ffmpeg.ts";

const run = promisify(execFile);

/** Makes a file with ffmpeg (lavfi sources: test patterns, tones, colours). */
async function make(file: string, args: string[]) {
  await run(ffmpegPath(), ["-hide_banner", "-loglevel", "error", "-y", ...args, file], { timeout: 120_000 });
  return file;
}

export interface VideoFixtures {
  dir: string;
  /** Transparent 1000x1500 PNG: a band at the top and a label at the bottom, clear in between. */
  overlay: string;
  /** Opaque 1000x1500 JPEG background. */
  base: string;
  /** A 1600x1000 photo (JPEG). */
  photo: string;
  /** A 12 s 1280x720 H.264 + AAC clip with a moving test pattern and a tone. */
  clip: string;
  /** A 3 s clip without sound. */
  silentClip: string;
  /** A clip longer than `longSeconds` (tiny, quick to make). */
  longClip: string;
  /** Plain text named like a video. */
  notVideo: string;
}

export async function makeVideoFixtures(options: { longSeconds?: number; clipSeconds?: number } = {}): Promise<VideoFixtures> {
  const dir = await mkdtemp(join(tmpdir(), "video-fixtures-"));
  const clipSeconds = options.clipSeconds ?? 12;
  const [overlay, base, photo, clip, silentClip, longClip] = await Promise.all([
    make(join(dir, "overlay.png"), [
      "-f",
      "lavfi",
      "-i",
      "color=c=0xe60023:s=1000x1500,format=rgba",
      "-vf",
      "geq=r='if(lt(Y,220),230,255)':g='if(lt(Y,220),0,255)':b='if(lt(Y,220),35,255)':a='if(lt(Y,220),255,if(between(Y,1300,1420)*between(X,100,900),217,0))'",
      "-frames:v",
      "1",
    ]),
    make(join(dir, "base.jpg"), ["-f", "lavfi", "-i", "color=c=0x1d2226:s=1000x1500", "-frames:v", "1", "-q:v", "3"]),
    make(join(dir, "photo.jpg"), ["-f", "lavfi", "-i", "testsrc2=s=1600x1000", "-frames:v", "1", "-q:v", "3"]),
    make(join(dir, "clip.mp4"), [
      "-f",
      "lavfi",
      "-i",
      `testsrc2=s=1280x720:r=30:d=${clipSeconds}`,
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=440:sample_rate=44100:duration=${clipSeconds}`,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
      "-c:a",
      "aac",
      "-shortest",
    ]),
    make(join(dir, "silent.mp4"), ["-f", "lavfi", "-i", "testsrc=s=640x360:r=25:d=3", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]),
    make(join(dir, "long.mp4"), [
      "-f",
      "lavfi",
      "-i",
      `color=c=blue:s=64x64:r=1:d=${(options.longSeconds ?? 300) + 10}`,
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-pix_fmt",
      "yuv420p",
    ]),
  ]);
  const notVideo = join(dir, "holiday.mp4");
  await import("node:fs/promises").then((fs) => fs.writeFile(notVideo, "This is a shopping list, not a video.\n".repeat(50)));
  return { dir, overlay, base, photo, clip, silentClip, longClip, notVideo };
}

/** The multipart body of POST /jobs. */
export async function jobForm(input: {
  jobId: string;
  spec: unknown;
  overlay: string;
  source: string;
  base?: string | null;
  sourceName?: string;
}): Promise<FormData> {
  const form = new FormData();
  form.set("jobId", input.jobId);
  form.set("spec", JSON.stringify(input.spec));
  form.set("overlay", new Blob([await readFile(input.overlay)], { type: "image/png" }), "overlay.png");
  if (input.base) form.set("base", new Blob([await readFile(input.base)]), "base.jpg");
  form.set("source", new Blob([await readFile(input.source)]), input.sourceName ?? "source");
  return form;
}

/** ffprobe's view of a file (streams and format). */
export async function ffprobeJson(file: string) {
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  return JSON.parse(stdout) as {
    format: { duration: string; format_name: string; size: string };
    streams: { codec_type: string; codec_name: string; width?: number; height?: number; pix_fmt?: string }[];
  };
}
