import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { CREDIT_COSTS } from "../../../contracts/billing/credits.ts";
import type { Post } from "../../../contracts/content/post.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { changeTemplate } from "../../../workers/domain/generate.ts";
import type { MediaItem } from "../../lib/generator/api.ts";
import type { ScheduleTarget } from "../../lib/pinterest/bulk-schedule.ts";
import {
  createVideo,
  followVideoJob,
  scheduleVideoPin,
  scheduleVideoPins,
  uploadVideoToPinterest,
  VIDEO_PIN_FAILED_MESSAGE,
  VideoPinFailed,
  videoPercent,
  videoStatusText,
  type ReadyVideo,
  type VideoJob,
  type VideoScheduleFlags,
} from "../../lib/video/video-pins.ts";
import { ScheduleDialog } from "../scheduling/schedule-dialog.tsx";
import { failureText, type Pinterest } from "../scheduling/use-pinterest.tsx";
import type { Toaster } from "../shell/toast.tsx";
import { DialogActions } from "../dialog-actions.tsx";
import { MediaPicker } from "./media-picker.tsx";

/**
 * Video pins on /generate (issue 15): from a post of the grid, a video
 * template and optionally a video of the media library make a video
 * (createFFMPEGVideo); its card follows the job (queued, rendering, done)
 * and then plays it, downloads it and schedules it (upload to Pinterest,
 * then schedulePin). A video that could not be made says
 * 'Unable to create video pin' (its credits are returned by the server).
 */

export interface VideoPin extends VideoScheduleFlags {
  id: string;
  post: Post;
  templateTitle: string;
  job: VideoJob;
  /** Set when the video could not be made. */
  failed: boolean;
}

/** The video templates among the standard ones (family "video", with a Video layer). */
export function videoTemplatesOf(templates: readonly Template[]): Template[] {
  return templates.filter((template) => template.family === "video" && template.layers.some((layer) => layer.type === "Video"));
}

/** The post as the video is made from: drawn with the template, and the chosen video (if any) in its Video layer. */
export function videoPostOf(post: Post, template: Template, video: string | null): Post {
  const drawn = changeTemplate(post, template);
  return { ...drawn, video: video ?? "", isScheduling: false, isScheduled: false, isDownloading: false, isDownloaded: false, error: "" };
}

export function useVideoPins(toast: Toaster) {
  const [videos, setVideos] = useState<VideoPin[]>([]);
  const stop = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    stop.current = controller;
    return () => controller.abort();
  }, []);

  const update = useCallback((id: string, patch: Partial<VideoPin>) => {
    setVideos((current) => current.map((video) => (video.id === id ? { ...video, ...patch } : video)));
  }, []);

  const follow = useCallback(
    async (id: string) => {
      try {
        const job = await followVideoJob(id, { onStatus: (next) => update(id, { job: next }), signal: stop.current.signal });
        update(id, { job });
        toast({ title: "Your video pin is ready", description: "Play it, download it or schedule it from its card.", kind: "success" });
      } catch (error) {
        if (stop.current.signal.aborted) return;
        if (error instanceof VideoPinFailed && error.reason) console.warn("Video job failed:", error.reason);
        update(id, { failed: true });
        toast({ title: VIDEO_PIN_FAILED_MESSAGE, description: "The credits for it were returned. Please try again.", kind: "error" });
      }
    },
    [toast, update],
  );

  /** Starts a video; answers false when it could not even be queued (the toast says why). */
  const create = useCallback(
    async (post: Post, templateTitle: string): Promise<boolean> => {
      try {
        const job = await createVideo(post);
        setVideos((current) => [{ id: job.jobId, post, templateTitle, job, failed: false }, ...current]);
        void follow(job.jobId);
        return true;
      } catch (error) {
        toast({ title: VIDEO_PIN_FAILED_MESSAGE, description: failureText(error), kind: "error" });
        return false;
      }
    },
    [follow, toast],
  );

  const remove = useCallback((id: string) => setVideos((current) => current.filter((video) => video.id !== id)), []);

  return { videos, create, update, remove };
}

export type VideoPins = ReturnType<typeof useVideoPins>;

/** Choosing a video template and, optionally, a video for a post, then "Create video". */
export function VideoPinDialog({
  post,
  templates,
  onCancel,
  onCreate,
}: {
  /** The post to make a video pin of; null: closed. */
  post: Post | null;
  /** The video templates to choose from. */
  templates: Template[];
  onCancel(): void;
  onCreate(post: Post, templateTitle: string): Promise<boolean>;
}) {
  const id = useId();
  /** The template the user chose; until then the post's own one if it is a video template, else the first. */
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [video, setVideo] = useState<MediaItem | null>(null);
  const [picking, setPicking] = useState(false);
  const [creating, setCreating] = useState(false);
  // Each post the dialog opens for starts afresh, set during the render that opens it.
  const [openFor, setOpenFor] = useState(post?.id ?? null);
  if ((post?.id ?? null) !== openFor) {
    setOpenFor(post?.id ?? null);
    setChosenId(null);
    setVideo(null);
  }

  const template =
    templates.find((candidate) => candidate.templateId === chosenId) ??
    templates.find((candidate) => candidate.templateId === post?.templateType) ??
    templates[0] ??
    null;
  const templateId = template?.templateId ?? "";

  async function create() {
    if (!post || !template) return;
    setCreating(true);
    try {
      if (await onCreate(videoPostOf(post, template, video?.url ?? null), template.title)) onCancel();
    } finally {
      setCreating(false);
    }
  }

  return (
    <>
      <Dialog.Root open={post !== null && !picking} onOpenChange={(open) => !open && onCancel()}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog dialog--wide video-dialog" aria-describedby={`${id}-text`}>
            <Dialog.Title className="dialog__title">Make a video pin</Dialog.Title>
            <p id={`${id}-text`} className="dialog__text">
              “{post?.title || "This pin"}” as a video of 1000 × 1500 pixels. It costs {CREDIT_COSTS.video} credits; if the video cannot be made, they are
              returned.
            </p>
            {templates.length === 0 ? (
              <p className="muted">The video templates could not be loaded. Please try again.</p>
            ) : (
              <fieldset className="video-dialog__templates">
                <legend>Video template</legend>
                {templates.map((candidate) => (
                  <label key={candidate.templateId} className="check video-dialog__template">
                    <input
                      type="radio"
                      name={`${id}-template`}
                      value={candidate.templateId}
                      checked={candidate.templateId === templateId}
                      onChange={() => setChosenId(candidate.templateId)}
                    />
                    {candidate.title}
                  </label>
                ))}
              </fieldset>
            )}
            <div className="video-dialog__video">
              <p className="video-dialog__label">Video in the template</p>
              <p className="muted small">
                {video
                  ? `Your video “${video.fileName}” plays in the template's video area.`
                  : "No video chosen: the pin's picture slowly zooms and pans there instead."}
              </p>
              <div className="video-dialog__video-actions">
                <button type="button" className="chip-button" onClick={() => setPicking(true)}>
                  {video ? "Choose another video" : "Choose a video"}
                </button>
                {video ? (
                  <button type="button" className="chip-button" onClick={() => setVideo(null)}>
                    Use the picture instead
                  </button>
                ) : null}
              </div>
            </div>
            <DialogActions>
              <button type="button" className="button button--primary" disabled={!template || creating} onClick={() => void create()}>
                {creating ? "Creating…" : "Create video"}
              </button>
            </DialogActions>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <MediaPicker
        open={picking}
        mediaType="video"
        title="Choose a video"
        multiple={false}
        chosen={video ? [video.url] : []}
        onClose={() => setPicking(false)}
        onChoose={(items) => {
          setVideo(items[0] ?? null);
          setPicking(false);
        }}
      />
    </>
  );
}

/** The video pins made on this page, newest first, with their progress, player, download and scheduling. */
export function VideoPinsSection({ videoPins, pinterest, toast, disabled }: { videoPins: VideoPins; pinterest: Pinterest; toast: Toaster; disabled: boolean }) {
  const { videos, update, remove } = videoPins;
  const [toSchedule, setToSchedule] = useState<string[] | null>(null);
  const [scheduling, setScheduling] = useState<{ done: number; total: number } | null>(null);
  const ready = videos.filter((video) => video.job.status === "done" && !video.failed && !video.isScheduled);
  if (videos.length === 0) return null;

  async function schedule(ids: string[], target: ScheduleTarget) {
    setToSchedule(null);
    const chosen: ReadyVideo[] = videos
      .filter((video) => ids.includes(video.id) && video.job.status === "done")
      .map((video) => ({ id: video.id, post: video.post, videoURL: video.job.videoURL, videoThumbnail: video.job.videoThumbnail }));
    setScheduling({ done: 0, total: chosen.length });
    try {
      const result = await scheduleVideoPins(chosen, target, {
        upload: (video) =>
          pinterest.guard(() => pinterest.connection.withAccessToken(target.pinterestProfileUsername, (token) => uploadVideoToPinterest(video, token))),
        schedule: (body) => scheduleVideoPin(body),
        setFlags: (id, flags) => update(id, flags),
        onProgress: (done, total) => setScheduling({ done, total }),
      });
      const board = target.boardName || "the board";
      const pins = (n: number) => `${n} video ${n === 1 ? "pin" : "pins"}`;
      if (result.failed.length === 0) toast({ title: `${pins(result.scheduled)} scheduled to ${board}`, kind: "success" });
      else if (result.scheduled === 0)
        toast({
          title: result.total === 1 ? "The video pin could not be scheduled" : `None of the ${pins(result.total)} could be scheduled`,
          description: result.total === 1 ? result.failed[0].error : "Each card says why.",
          kind: "error",
        });
      else
        toast({
          title: `${result.scheduled} of ${pins(result.total)} scheduled to ${board}`,
          description: `${pins(result.failed.length)} could not be scheduled. Each card says why.`,
          kind: "error",
        });
    } finally {
      setScheduling(null);
    }
  }

  return (
    <section className="video-pins" aria-labelledby="video-pins-heading">
      <div className="video-pins__head">
        <h2 id="video-pins-heading">Video pins</h2>
        {ready.length > 1 ? (
          <button
            type="button"
            className="chip-button"
            disabled={disabled || scheduling !== null}
            onClick={() => setToSchedule(ready.map((video) => video.id))}
          >
            Schedule all {ready.length} videos
          </button>
        ) : null}
      </div>
      {scheduling ? (
        <div className="progress">
          <p className="progress__label" id="video-scheduling-label">
            Scheduling video pins ({scheduling.done} of {scheduling.total})
          </p>
          <div
            className="progress__track"
            role="progressbar"
            aria-labelledby="video-scheduling-label"
            aria-valuemin={0}
            aria-valuemax={scheduling.total}
            aria-valuenow={scheduling.done}
          >
            <span className="progress__fill" style={{ width: `${Math.round((100 * scheduling.done) / Math.max(1, scheduling.total))}%` }} />
          </div>
        </div>
      ) : null}
      <ul className="post-grid video-pins__grid" aria-label="Video pins">
        {videos.map((video, index) => (
          <VideoPinCard
            key={video.id}
            video={video}
            number={videos.length - index}
            busy={disabled || scheduling !== null}
            onSchedule={() => setToSchedule([video.id])}
            onRemove={() => remove(video.id)}
          />
        ))}
      </ul>
      <ScheduleDialog
        open={toSchedule !== null}
        count={toSchedule?.length ?? 0}
        pinterest={pinterest}
        onCancel={() => setToSchedule(null)}
        onConfirm={(target) => toSchedule && void schedule(toSchedule, target)}
      />
    </section>
  );
}

function VideoPinCard({ video, number, busy, onSchedule, onRemove }: { video: VideoPin; number: number; busy: boolean; onSchedule(): void; onRemove(): void }) {
  const id = useId();
  const name = video.post.title || `Video pin ${number}`;
  const { job } = video;
  const done = job.status === "done" && !video.failed;
  const percent = videoPercent(job);
  return (
    <li className="post-card video-card" aria-labelledby={`${id}-title`} data-video-job={video.id} data-status={video.failed ? "failed" : job.status}>
      <h3 className="post-card__title" id={`${id}-title`} title={name}>
        {name}
      </h3>
      <p className="muted small video-card__template">{video.templateTitle}</p>
      {done ? (
        // biome-ignore lint/a11y/useMediaCaption: a pin video is a photo or clip with the pin's text over it: there is no speech to caption.
        <video
          className="video-card__player"
          controls
          playsInline
          preload="metadata"
          poster={job.videoThumbnail}
          src={job.videoURL}
          aria-label={`Video pin: ${name}`}
          width={1000}
          height={1500}
        />
      ) : video.failed ? (
        <p className="post-card__error video-card__failed" role="alert">
          {VIDEO_PIN_FAILED_MESSAGE}
        </p>
      ) : (
        <div className="progress video-card__progress">
          <p className="progress__label" id={`${id}-progress`}>
            {videoStatusText(job)}
          </p>
          <div
            className="progress__track"
            role="progressbar"
            aria-labelledby={`${id}-progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={videoStatusText(job)}
          >
            <span className="progress__fill" style={{ width: `${Math.max(percent, 3)}%` }} />
          </div>
        </div>
      )}
      <p className="muted small video-card__state" role="status">
        {video.isScheduling
          ? "Uploading to Pinterest and scheduling…"
          : video.isScheduled
            ? "Scheduled"
            : done
              ? `Done${job.durationSeconds ? ` · ${Math.round(job.durationSeconds)} s` : ""}`
              : ""}
      </p>
      {video.scheduleError ? (
        <p className="post-card__error" role="alert">
          {video.scheduleError}
        </p>
      ) : null}
      <div className="post-card__actions">
        {done ? (
          <>
            <a className="chip-button" href={job.videoURL} download={job.videoFileName} aria-label={`Download video pin ${number}`}>
              Download
            </a>
            <button
              type="button"
              className="chip-button"
              disabled={busy || video.isScheduling || video.isScheduled}
              onClick={onSchedule}
              aria-label={`${video.isScheduled ? "Scheduled" : "Schedule"} video pin ${number}`}
            >
              {video.isScheduled ? "Scheduled" : "Schedule"}
            </button>
          </>
        ) : null}
        {done || video.failed ? (
          <button
            type="button"
            className="chip-button"
            disabled={video.isScheduling}
            onClick={onRemove}
            aria-label={`Remove video pin ${number} from this page`}
          >
            Remove
          </button>
        ) : null}
      </div>
    </li>
  );
}
