import type { Post } from "../../../contracts/content/post.ts";
import { renderTemplateImage } from "../../lib/pin-images.ts";
import { reasonOf } from "../../lib/generator/api.ts";
import { downloadPin, downloadPins, fetchPinBytes, saveFile, zipPins, type DownloadDeps } from "../../lib/generator/download.ts";
import type { Toaster } from "../shell/toast.tsx";

/** The browser's download pipeline: server render and charge (retried once on 500), bytes, file. */
export const browserDownloads: DownloadDeps = {
  render: renderTemplateImage,
  fetchBytes: fetchPinBytes,
};

type SetFlags = (ids: ReadonlySet<string>, flags: Partial<Pick<Post, "isDownloading" | "isDownloaded" | "error">>) => void;

/** Downloads one pin as a JPEG file named by the post's file name. */
export async function downloadOnePin(post: Post, options: { bypassResize: boolean; setFlags: SetFlags; toast: Toaster }) {
  const ids = new Set([post.id]);
  options.setFlags(ids, { isDownloading: true, error: "" });
  try {
    const pin = await downloadPin(post, browserDownloads, { bypassResize: options.bypassResize });
    saveFile(pin.bytes, pin.fileName, "image/jpeg");
    options.setFlags(ids, { isDownloading: false, isDownloaded: true });
    options.toast({ title: "Pin downloaded", description: pin.fileName, kind: "success" });
  } catch (error) {
    options.setFlags(ids, { isDownloading: false, error: `Unable to download the pin: ${reasonOf(error)}` });
    options.toast({ title: "Unable to download the pin", description: reasonOf(error), kind: "error" });
  }
}

/** Downloads several pins as one ZIP, with progress. */
export async function downloadManyPins(
  posts: Post[],
  options: { bypassResize: boolean; setFlags: SetFlags; toast: Toaster; onProgress(done: number, total: number): void },
) {
  const ids = new Set(posts.map((post) => post.id));
  options.setFlags(ids, { isDownloading: true, error: "" });
  const result = await downloadPins(posts, browserDownloads, options.onProgress, { bypassResize: options.bypassResize });
  options.setFlags(new Set(result.pins.map((pin) => pin.postId)), { isDownloading: false, isDownloaded: true });
  for (const failure of result.failed)
    options.setFlags(new Set([failure.postId]), { isDownloading: false, error: `Unable to download the pin: ${reasonOf(failure.error)}` });
  if (result.pins.length > 0) {
    const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
    saveFile(zipPins(result.pins), `pins-${stamp}.zip`, "application/zip");
    options.toast({ title: `${result.pins.length} ${result.pins.length === 1 ? "pin" : "pins"} downloaded`, kind: "success" });
  }
  if (result.failed.length > 0) {
    options.toast({
      title: `${result.failed.length} ${result.failed.length === 1 ? "pin" : "pins"} could not be downloaded`,
      description: reasonOf(result.failed[0].error),
      kind: "error",
    });
  }
}
