import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The ffmpeg binary: FFMPEG_PATH when set (the container sets it), else
 * Debian's /usr/bin/ffmpeg when installed, else the static build of
 * @ffmpeg-installer/ffmpeg, else `ffmpeg` on PATH.
 */
export function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  if (existsSync("/usr/bin/ffmpeg")) return "/usr/bin/ffmpeg";
  try {
    return (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  } catch {
    return "ffmpeg";
  }
}

/**
 * The ffprobe binary, when there is one: FFPROBE_PATH, else Debian's. The
 * npm static build has none; probing then parses `ffmpeg -i` (probeWithFfmpeg).
 */
export function ffprobePath(): string | null {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  return existsSync("/usr/bin/ffprobe") ? "/usr/bin/ffprobe" : null;
}

/** The version line ffmpeg prints, e.g. "ffmpeg version 5.1.6-0+deb12u1". */
export async function ffmpegVersion(path = ffmpegPath()): Promise<string> {
  const { stdout } = await run(path, ["-hide_banner", "-version"], { timeout: 10_000 });
  const first = stdout.split("\n")[0] ?? "";
  return first
    .replace(/\s+Copyright.*$/, "")
    .replace(/\s+https?:\/\/\S+/, "")
    .trim();
}

/** What a file is, by its content (never its name). */
export interface Probe {
  kind: "image" | "video";
  width: number;
  height: number;
  /** Seconds (videos). */
  durationSeconds: number;
  hasAudio: boolean;
  videoCodec: string;
  audioCodec: string | null;
  formatName: string;
}

/** Demuxers that read a single still picture. */
const IMAGE_FORMATS = /(^|,)(image2|[a-z0-9]+_pipe|png|mjpeg|webp)($|,)/;
/** Codecs of still pictures (a video stream of these in an image demuxer is a picture). */
const IMAGE_CODECS = new Set(["png", "mjpeg", "jpegls", "webp", "bmp", "tiff", "gif", "jpeg2000", "qoi", "pam", "ppm", "pgm"]);

/** Decides image or video from the container and its first video stream; null when it is neither. */
export function classify(input: {
  formatName: string;
  videoCodec: string | null;
  width: number;
  height: number;
  durationSeconds: number;
  frames: number | null;
  audioCodec: string | null;
}): Probe | null {
  if (!input.videoCodec || !(input.width > 0) || !(input.height > 0)) return null;
  const still = IMAGE_FORMATS.test(input.formatName) || (IMAGE_CODECS.has(input.videoCodec) && (input.frames ?? 1) <= 1 && !(input.durationSeconds > 0.1));
  if (still && input.videoCodec !== "gif") {
    return {
      kind: "image",
      width: input.width,
      height: input.height,
      durationSeconds: 0,
      hasAudio: false,
      videoCodec: input.videoCodec,
      audioCodec: null,
      formatName: input.formatName,
    };
  }
  if (!(input.durationSeconds > 0)) return null;
  return {
    kind: "video",
    width: input.width,
    height: input.height,
    durationSeconds: input.durationSeconds,
    hasAudio: input.audioCodec !== null,
    videoCodec: input.videoCodec,
    audioCodec: input.audioCodec,
    formatName: input.formatName,
  };
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string; nb_frames?: string }[];
}

/** Probes a file: ffprobe when installed, else ffmpeg's own report. Null when it is neither a video nor an image. */
export async function probe(file: string, timeoutMs = 20_000): Promise<Probe | null> {
  const ffprobe = ffprobePath();
  if (!ffprobe) return probeWithFfmpeg(file, timeoutMs);
  let parsed: FfprobeOutput;
  try {
    const { stdout } = await run(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file], {
      timeout: timeoutMs,
      maxBuffer: 4 * 1024 * 1024,
    });
    parsed = JSON.parse(stdout) as FfprobeOutput;
  } catch {
    return null; // ffprobe could not read it: not a video or image
  }
  const video = parsed.streams?.find((s) => s.codec_type === "video");
  const audio = parsed.streams?.find((s) => s.codec_type === "audio");
  const duration = Number(parsed.format?.duration ?? video?.duration ?? 0);
  return classify({
    formatName: parsed.format?.format_name ?? "",
    videoCodec: video?.codec_name ?? null,
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    frames: video?.nb_frames ? Number(video.nb_frames) : null,
    audioCodec: audio?.codec_name ?? null,
  });
}

/** `ffmpeg -i file` exits 1 (no output named) after printing what it found; that report is parsed. */
export async function probeWithFfmpeg(file: string, timeoutMs = 20_000): Promise<Probe | null> {
  let report = "";
  try {
    await run(ffmpegPath(), ["-hide_banner", "-i", file], { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 });
  } catch (error) {
    report = String((error as { stderr?: string }).stderr ?? "");
  }
  return parseFfmpegReport(report);
}

/** Parses ffmpeg's "Input #0, mov,mp4,... Duration: ... Stream #0:0: Video: h264 ..., 640x360" report. */
export function parseFfmpegReport(report: string): Probe | null {
  const format = /Input #0, ([^ ]+?), from/.exec(report)?.[1] ?? "";
  const durationMatch = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(report);
  const duration = durationMatch ? Number(durationMatch[1]) * 3600 + Number(durationMatch[2]) * 60 + Number(durationMatch[3]) : 0;
  const videoLine = /Stream #0:\d+[^:]*: Video: ([a-z0-9_]+)[^\n]*?, (\d{1,5})x(\d{1,5})/.exec(report);
  const audioCodec = /Stream #0:\d+[^:]*: Audio: ([a-z0-9_]+)/.exec(report)?.[1] ?? null;
  return classify({
    formatName: format,
    videoCodec: videoLine?.[1] ?? null,
    width: videoLine ? Number(videoLine[2]) : 0,
    height: videoLine ? Number(videoLine[3]) : 0,
    durationSeconds: duration,
    frames: null,
    audioCodec,
  });
}
