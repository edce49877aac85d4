import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The ffmpeg binary: FFMPEG_PATH when set (the container sets it to Debian's
 * ffmpeg), else the static build of @ffmpeg-installer/ffmpeg, else `ffmpeg` on PATH.
 */
export function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  try {
    return (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  } catch {
    return "ffmpeg";
  }
}

/** The version line ffmpeg prints, e.g. "ffmpeg version 5.1.6-0+deb12u1". */
export async function ffmpegVersion(path = ffmpegPath()): Promise<string> {
  const { stdout } = await run(path, ["-hide_banner", "-version"], { timeout: 10_000 });
  const first = stdout.split("\n")[0] ?? "";
  return first.replace(/\s+Copyright.*$/, "").replace(/\s+https?:\/\/\S+/, "").trim();
}
