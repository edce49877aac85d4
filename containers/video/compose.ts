import type { Probe } from "./ffmpeg.ts";

/**
 * How a pin video is composed (docs/decisions/032-video-service.md): the
 * template's background and the layers under its Video box (`base`, opaque),
 * the moving picture in the box (an uploaded clip, trimmed, scaled and cropped
 * to fill the box; or a slow pan over the post's photo), and the layers above
 * the box (`overlay`, a transparent PNG) on top. 1000x1500, H.264 yuv420p with
 * +faststart, AAC (a silent track when the clip has no sound).
 */

export const VIDEO_WIDTH = 1000;
export const VIDEO_HEIGHT = 1500;
export const MIN_SECONDS = 4;
export const MAX_SECONDS = 60;
/** A photo pans for this long unless the job says otherwise. */
export const DEFAULT_PHOTO_SECONDS = 10;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a job asks for (the `spec` part of POST /jobs). */
export interface VideoSpec {
  /** The Video layer's box on the 1000x1500 pin. */
  box: Box;
  /** Length of the video (4..60 s); a clip defaults to its own length, capped at 60 s. */
  durationSeconds?: number;
  /** Where in the clip to start (seconds). */
  trimStart?: number;
}

/** Encoder settings (env-configurable; bench/video.ts measures them). */
export interface EncodeSettings {
  preset: string;
  crf: number;
  fps: number;
  /** Peak video bitrate in kbit/s (keeps a 10 s video within 8 MB). */
  maxrateKbps: number;
}

export function encodeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): EncodeSettings {
  return {
    preset: env.VIDEO_X264_PRESET || "ultrafast",
    crf: Number(env.VIDEO_CRF || 23),
    fps: Number(env.VIDEO_FPS || 25),
    maxrateKbps: Number(env.VIDEO_MAXRATE_KBPS || 5000),
  };
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The box clipped to the pin, on even pixels (yuv420p needs even sizes). */
export function fitBox(box: Box): Box {
  const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));
  const x = clamp(Math.floor(box.x / 2) * 2, 0, VIDEO_WIDTH - 2);
  const y = clamp(Math.floor(box.y / 2) * 2, 0, VIDEO_HEIGHT - 2);
  const right = clamp(Math.round(box.x + box.width), x + 2, VIDEO_WIDTH);
  const bottom = clamp(Math.round(box.y + box.height), y + 2, VIDEO_HEIGHT);
  return { x, y, width: Math.floor((right - x) / 2) * 2, height: Math.floor((bottom - y) / 2) * 2 };
}

/** The video's length: asked for, else the clip's (capped), else the photo default; always 4..60 s. */
export function videoSeconds(spec: VideoSpec, source: Probe): number {
  const clipLeft = source.kind === "video" ? Math.max(0, source.durationSeconds - (spec.trimStart ?? 0)) : 0;
  const wanted = spec.durationSeconds ?? (source.kind === "video" ? clipLeft : DEFAULT_PHOTO_SECONDS);
  return Math.round(Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, wanted)) * 100) / 100;
}

export interface ComposeInput {
  spec: VideoSpec;
  base: string | null;
  overlay: string;
  source: string;
  sourceProbe: Probe;
  output: string;
  settings: EncodeSettings;
}

/** The ffmpeg arguments that make the MP4 (progress on stdout as key=value lines). */
export function composeArgs(input: ComposeInput): { args: string[]; seconds: number } {
  const { spec, sourceProbe: probe, settings } = input;
  const box = fitBox(spec.box);
  const seconds = videoSeconds(spec, probe);
  const fps = settings.fps;
  const args = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-nostats", "-progress", "pipe:1"];
  // 0: the base (or a background of black), 1: the overlay: each one picture, repeated in the filter graph.
  if (input.base) args.push("-i", input.base);
  else args.push("-f", "lavfi", "-i", `color=c=black:s=${VIDEO_WIDTH}x${VIDEO_HEIGHT}:r=1:d=1`);
  args.push("-i", input.overlay);
  // 2: the source.
  const trimStart = probe.kind === "video" ? Math.max(0, Math.min(spec.trimStart ?? 0, Math.max(0, probe.durationSeconds - 0.5))) : 0;
  if (probe.kind === "video") {
    // A clip shorter than the video plays again from its start.
    if (probe.durationSeconds - trimStart < seconds) args.push("-stream_loop", "-1");
    if (trimStart > 0) args.push("-ss", String(trimStart));
    args.push("-t", String(seconds), "-i", input.source);
  } else {
    args.push("-i", input.source);
  }
  // 3: silence, when the clip brings no sound.
  const clipAudio = probe.kind === "video" && probe.hasAudio;
  if (!clipAudio) args.push("-f", "lavfi", "-t", String(seconds), "-i", "anullsrc=channel_layout=stereo:sample_rate=44100");

  const still = (label: string, out: string) =>
    `[${label}]scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT},setsar=1,format=yuv420p,loop=loop=-1:size=1:start=0,setpts=N/${fps}/TB[${out}]`;
  let moving: string;
  if (probe.kind === "video") {
    moving = `[2:v]scale=${box.width}:${box.height}:force_original_aspect_ratio=increase,crop=${box.width}:${box.height},setsar=1,fps=${fps},setpts=PTS-STARTPTS[clip]`;
  } else {
    // A slow pan: the photo, 12 % larger than the box needs, drifts from its top left to its bottom right.
    const cover = Math.max(box.width / probe.width, box.height / probe.height) * 1.12;
    const width = Math.max(box.width, even(probe.width * cover));
    const height = Math.max(box.height, even(probe.height * cover));
    moving =
      `[2:v]scale=${width}:${height},setsar=1,format=yuv420p,loop=loop=-1:size=1:start=0,setpts=N/${fps}/TB,` +
      `crop=${box.width}:${box.height}:x='(iw-${box.width})*min(1,t/${seconds})':y='(ih-${box.height})*min(1,t/${seconds})'[clip]`;
  }
  const graph = [
    still("0:v", "bg"),
    moving,
    `[bg][clip]overlay=${box.x}:${box.y}:shortest=1[mid]`,
    `[1:v]scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT},format=rgba[ov]`,
    `[mid][ov]overlay=0:0,format=yuv420p[v]`,
    clipAudio ? `[2:a]aresample=44100,apad[a]` : `[3:a]anull[a]`,
  ].join(";");
  args.push(
    "-filter_complex",
    graph,
    "-map",
    "[v]",
    "-map",
    "[a]",
    "-t",
    String(seconds),
    "-r",
    String(fps),
    "-c:v",
    "libx264",
    "-preset",
    settings.preset,
    "-crf",
    String(settings.crf),
    "-maxrate",
    `${settings.maxrateKbps}k`,
    "-bufsize",
    `${settings.maxrateKbps * 2}k`,
    "-pix_fmt",
    "yuv420p",
    "-profile:v",
    "high",
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-ac",
    "2",
    "-ar",
    "44100",
    "-movflags",
    "+faststart",
    input.output,
  );
  return { args, seconds };
}

/** A JPEG of the first frames (half a second in, past any fade), full size. */
export function thumbnailArgs(video: string, output: string): string[] {
  return ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-ss", "0.5", "-i", video, "-frames:v", "1", "-q:v", "3", output];
}
