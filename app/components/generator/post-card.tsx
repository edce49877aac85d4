import { Link } from "@remix-run/react";
import { useId } from "react";
import type { Post } from "../../../contracts/content/post.ts";
import { Spinner } from "../spinner.tsx";
import { PostPreview } from "./post-preview.tsx";

export interface PostCardActions {
  onEdit(post: Post): void;
  onToggleLock(post: Post): void;
  onDuplicate(post: Post): void;
  onDelete(post: Post): void;
  onDownload(post: Post): void;
  onSchedule(post: Post): void;
  /** Opens the choice of a video template (and video) to make a video pin of the post. */
  onMakeVideo(post: Post): void;
  /** Schedules again a post the 48-hour rule refused, allowing the duplicate. */
  onPostAnyway(post: Post): void;
  onSelect(post: Post, selected: boolean): void;
  onPreviewReady(post: Post): void;
}

/** One post in the grid: its live preview, title, state and actions. */
export function PostCard({
  post,
  index,
  selected,
  canPostAnyway = false,
  scheduledAt,
  actions,
}: {
  post: Post;
  index: number;
  selected: boolean;
  canPostAnyway?: boolean;
  /** When the scheduled pin posts, in its profile's zone ("Thu 10 Dec at 09:00"), when this page scheduled it. */
  scheduledAt?: string;
  actions: PostCardActions;
}) {
  const name = post.title || `Pin ${index + 1}`;
  const errorId = useId();
  return (
    <li
      className={`post-card${post.isLocked ? " post-card--locked" : ""}${selected ? " post-card--selected" : ""}`}
      data-post-id={post.id}
      data-template={post.templateType}
      aria-label={`Pin ${index + 1}: ${name}`}
    >
      <div className="post-card__top">
        <label className="check">
          <input type="checkbox" checked={selected} onChange={(event) => actions.onSelect(post, event.target.checked)} aria-label={`Select pin ${index + 1}`} />
          <span className="post-card__number" aria-hidden="true">
            {index + 1}
          </span>
        </label>
        <span className="post-card__badges">
          {post.isLocked ? <span className="badge">Locked</span> : null}
          {post.isDownloading ? <Spinner label="Downloading" /> : null}
          {post.isDownloaded ? <span className="badge badge--success">Downloaded</span> : null}
          {post.isScheduling ? <Spinner label="Scheduling" /> : null}
          {post.isScheduled ? <span className="badge badge--success">{scheduledAt ? `Scheduled · ${scheduledAt}` : "Scheduled"}</span> : null}
        </span>
      </div>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a click on the picture opens the editor too, a shortcut for the mouse; keyboard users have the Edit button. */}
      <div className="post-card__preview" onClick={() => actions.onEdit(post)}>
        <PostPreview post={post} alt={post.altText || name} onReady={() => actions.onPreviewReady(post)} />
      </div>
      <h3 className="post-card__title" title={post.title}>
        {name}
      </h3>
      {post.error ? (
        <div className="post-card__problem">
          <p className="post-card__error" role="alert" id={errorId}>
            {post.error}
          </p>
          {canPostAnyway ? (
            <button
              type="button"
              className="chip-button"
              aria-label={`Post it anyway: pin ${index + 1}`}
              aria-describedby={errorId}
              onClick={() => actions.onPostAnyway(post)}
            >
              Post it anyway
            </button>
          ) : null}
        </div>
      ) : null}
      <div className="post-card__actions">
        <button type="button" className="chip-button" onClick={() => actions.onEdit(post)} aria-label={`Edit pin ${index + 1}`}>
          Edit
        </button>
        <button
          type="button"
          className="chip-button"
          aria-pressed={post.isLocked}
          onClick={() => actions.onToggleLock(post)}
          aria-label={`${post.isLocked ? "Unlock" : "Lock"} pin ${index + 1}`}
        >
          {post.isLocked ? "Unlock" : "Lock"}
        </button>
        <button type="button" className="chip-button" onClick={() => actions.onDuplicate(post)} aria-label={`Duplicate pin ${index + 1}`}>
          Duplicate
        </button>
        <button
          type="button"
          className="chip-button"
          onClick={() => actions.onDownload(post)}
          disabled={post.isDownloading}
          aria-label={`Download pin ${index + 1}`}
        >
          Download
        </button>
        <button
          type="button"
          className="chip-button"
          onClick={() => actions.onSchedule(post)}
          disabled={post.isScheduling}
          aria-label={`Schedule pin ${index + 1}`}
        >
          Schedule
        </button>
        <button type="button" className="chip-button" onClick={() => actions.onMakeVideo(post)} aria-label={`Make video of pin ${index + 1}`}>
          Make video
        </button>
        <Link className="chip-button" to={`/singlePin?postID=${encodeURIComponent(post.id)}`} aria-label={`Open pin ${index + 1} on its own page`}>
          Open
        </Link>
        <button type="button" className="chip-button chip-button--danger" onClick={() => actions.onDelete(post)} aria-label={`Delete pin ${index + 1}`}>
          Delete
        </button>
      </div>
    </li>
  );
}
