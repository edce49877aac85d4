import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState } from "react";
import type { MediaPage } from "../../../contracts/content/library.ts";
import { deleteMedia, fetchUserMedia, reasonOf, uploadMedia, type MediaItem, type MediaType } from "../../lib/generator/api.ts";
import { useApiCache, useApiQuery } from "../../lib/query.ts";
import { useToast } from "../shell/toast.tsx";
import { LoadMoreButton, Spinner } from "../spinner.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { generatorKeys } from "./generator-keys.ts";

const ACCEPT: Record<MediaType, string> = {
  image: "image/jpeg,image/png,image/webp,image/gif",
  video: "video/mp4,video/quicktime,video/webm",
  font: ".woff,.woff2,.ttf,.otf,font/woff,font/woff2,font/ttf,font/otf",
};
const NOUN: Record<MediaType, string> = { image: "images", video: "videos", font: "fonts" };

/**
 * The user's media library (spec section 3): upload, choose and delete images
 * or fonts. `multiple` chooses several (uploaded images for pins), otherwise
 * one (a logo, a font). The library is read when the picker first opens and
 * cached by type, so every picker of that type shows the same one, uploads
 * and deletes included.
 */
export function MediaPicker({
  open,
  mediaType,
  title,
  multiple,
  chosen,
  onClose,
  onChoose,
}: {
  open: boolean;
  mediaType: MediaType;
  title: string;
  multiple: boolean;
  /** URLs currently chosen. */
  chosen: string[];
  onClose(): void;
  onChoose(items: MediaItem[]): void;
}) {
  const { toast } = useToast();
  const uploadId = useId();
  const cache = useApiCache();
  const key = generatorKeys.media(mediaType);
  // Read when the picker opens (again only if it may have changed); not when the window regains focus, which would drop the pages the user asked for.
  const library = useApiQuery<MediaPage>(key, () => fetchUserMedia(mediaType), { enabled: open, refetchOnWindowFocus: false });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const readFailed = library.error && !library.isFetching ? `Unable to get your ${NOUN[mediaType]}: ${reasonOf(library.error)}` : null;
  const error = moreFailed ?? readFailed;
  // A library that could not be read is shown empty, under the failure.
  const media = library.data?.media ?? (readFailed ? [] : null);
  const hasMore = library.data?.hasMore ?? false;
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set(chosen));
  // Each opening starts from the choice as it is then, set during the render that opens the picker.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setPicked(new Set(chosen));
  }
  const changeMedia = (change: (media: MediaItem[]) => MediaItem[]) =>
    cache.set<MediaPage>(key, (current) => ({ media: change(current?.media ?? []), hasMore: current?.hasMore ?? false }));

  async function loadMore(after: string | undefined) {
    setLoadingMore(true);
    setMoreFailed(null);
    try {
      const page = await fetchUserMedia(mediaType, after);
      cache.set<MediaPage>(key, (current) => ({ media: [...(current?.media ?? []), ...page.media], hasMore: page.hasMore }));
    } catch (failure) {
      setMoreFailed(`Unable to get your ${NOUN[mediaType]}: ${reasonOf(failure)}`);
    } finally {
      setLoadingMore(false);
    }
  }

  async function upload(files: FileList | null) {
    if (!files || files.length === 0) return;
    setUploading(true);
    try {
      for (const file of [...files]) {
        const item = await uploadMedia(file, mediaType);
        changeMedia((current) => [item, ...current]);
        setPicked((current) => (multiple ? new Set([...current, item.url]) : new Set([item.url])));
      }
      toast({ title: files.length === 1 ? "Uploaded" : `${files.length} files uploaded`, kind: "success" });
    } catch (failure) {
      toast({ title: "Unable to upload the file", description: reasonOf(failure), kind: "error" });
    } finally {
      setUploading(false);
    }
  }

  async function remove(item: MediaItem) {
    try {
      await deleteMedia(item.id);
      changeMedia((current) => current.filter((other) => other.id !== item.id));
      setPicked((current) => new Set([...current].filter((url) => url !== item.url)));
    } catch (failure) {
      toast({ title: "Unable to delete the file", description: reasonOf(failure), kind: "error" });
    }
  }

  function toggle(item: MediaItem) {
    setPicked((current) => {
      if (!multiple) return current.has(item.url) ? new Set() : new Set([item.url]);
      const next = new Set(current);
      if (next.has(item.url)) next.delete(item.url);
      else next.add(item.url);
      return next;
    });
  }

  function done() {
    const all = media ?? [];
    // Chosen URLs no longer in the list (deleted, or on a later page) are kept as they were.
    const known = new Set(all.map((item) => item.url));
    const kept = chosen.filter((url) => !known.has(url) && picked.has(url)).map((url) => ({ url }) as MediaItem);
    onChoose([...all.filter((item) => picked.has(item.url)), ...kept]);
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide media-picker" aria-describedby={`${uploadId}-text`}>
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <p id={`${uploadId}-text`} className="dialog__text">
            {multiple ? `Choose ${NOUN[mediaType]} from your library, or upload new ones.` : `Choose one of your ${NOUN[mediaType]}, or upload a new one.`}
          </p>
          <div className="media-picker__upload">
            <label className="button button--ghost" htmlFor={uploadId}>
              {uploading ? <Spinner /> : null}
              Upload {mediaType === "font" ? "a font (woff, woff2, ttf, otf)" : mediaType}
            </label>
            <input
              id={uploadId}
              className="visually-hidden"
              type="file"
              accept={ACCEPT[mediaType]}
              multiple={multiple}
              disabled={uploading}
              onChange={(event) => void upload(event.target.files)}
            />
          </div>
          {error ? (
            <p className="notice notice--error" role="alert">
              {error}
            </p>
          ) : null}
          {media === null ? (
            <div className="loading">
              <Spinner size="large" label={`Loading your ${NOUN[mediaType]}`} />
            </div>
          ) : media.length === 0 ? (
            <p className="muted">Nothing uploaded yet.</p>
          ) : (
            <ul className={`media-picker__list media-picker__list--${mediaType}`} aria-label={`Your ${NOUN[mediaType]}`}>
              {media.map((item) => (
                <li key={item.id} className={picked.has(item.url) ? "media-item media-item--chosen" : "media-item"}>
                  <label className="media-item__choose">
                    <input type={multiple ? "checkbox" : "radio"} name={`${uploadId}-choice`} checked={picked.has(item.url)} onChange={() => toggle(item)} />
                    {mediaType === "image" ? <img src={item.url} alt="" loading="lazy" /> : null}
                    <span className="media-item__name">{item.fontFamily ?? item.fileName}</span>
                  </label>
                  <button type="button" className="chip-button chip-button--danger" onClick={() => void remove(item)} aria-label={`Delete ${item.fileName}`}>
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )}
          {hasMore ? <LoadMoreButton loading={loadingMore} onClick={() => void loadMore(media?.at(-1)?.id)} /> : null}
          <DialogActions>
            <button type="button" className="button button--primary" onClick={done}>
              Use {multiple ? `${picked.size} chosen` : "the chosen one"}
            </button>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
