import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useEffect, useId, useState } from "react";
import { deleteMedia, fetchUserMedia, reasonOf, uploadMedia, type MediaItem, type MediaType } from "../../lib/generator/api.ts";
import { useToast } from "../shell/toast.tsx";
import { LoadMoreButton, Spinner } from "../spinner.tsx";
import { DialogActions } from "../dialog-actions.tsx";

const ACCEPT: Record<MediaType, string> = {
  image: "image/jpeg,image/png,image/webp,image/gif",
  video: "video/mp4,video/quicktime,video/webm",
  font: ".woff,.woff2,.ttf,.otf,font/woff,font/woff2,font/ttf,font/otf",
};
const NOUN: Record<MediaType, string> = { image: "images", video: "videos", font: "fonts" };

/**
 * The user's media library (spec section 3): upload, choose and delete images
 * or fonts. `multiple` chooses several (uploaded images for pins), otherwise
 * one (a logo, a font).
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
  const [media, setMedia] = useState<MediaItem[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set(chosen));

  const load = useCallback(
    async (after?: string) => {
      setLoading(true);
      setError(null);
      try {
        const page = await fetchUserMedia(mediaType, after);
        setMedia((current) => (after ? [...(current ?? []), ...page.media] : page.media));
        setHasMore(page.hasMore);
      } catch (failure) {
        setError(`Unable to get your ${NOUN[mediaType]}: ${reasonOf(failure)}`);
        setMedia((current) => current ?? []);
      } finally {
        setLoading(false);
      }
    },
    [mediaType],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: only when opened: the choice and the library are read as they are at that moment.
  useEffect(() => {
    if (!open) return;
    setPicked(new Set(chosen));
    if (media === null) void load();
  }, [open]);

  async function upload(files: FileList | null) {
    if (!files || files.length === 0) return;
    setUploading(true);
    try {
      for (const file of [...files]) {
        const item = await uploadMedia(file, mediaType);
        setMedia((current) => [item, ...(current ?? [])]);
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
      setMedia((current) => (current ?? []).filter((other) => other.id !== item.id));
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
          {hasMore ? <LoadMoreButton loading={loading} onClick={() => void load(media?.at(-1)?.id)} /> : null}
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
