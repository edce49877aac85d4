import type { PinOrigin } from "../../contracts/pinterest/analytics.ts";
import type { DuplicateConflict, PinContent, ScheduledPinStatus } from "../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../contracts/pinterest/scheduling.ts";
import { NoFreeSlot } from "../../workers/domain/pin-queue.ts";
import type { PinterestProfile } from "../../workers/services/pinterest/pinterest-connection.ts";

/**
 * What the ProfileScheduler's callers send and what it answers: the shapes of
 * its request API, its refusals, and how a change applies to a pin's content.
 */

/** The content and placement of a pin to add, as the worker resolved it. */
export interface NewPinInput extends Omit<PinContent, "pinterestProfileUsername">, PinOrigin {
  id: string;
  type: "SpecificDate" | "Queue";
  /** For SpecificDate pins (already checked to be in the future). */
  scheduledTime: number | null;
  repeatIntervalInDays?: number;
}

export interface ReserveRequest {
  profileKey: string;
  username: string;
  userId: string;
  settings: SchedulingSettings;
  pins: NewPinInput[];
  /** How fields are named in messages: "" for one pin, "pins.3." in a batch. */
  fieldPrefixes: string[];
}

/** A refusal the worker answers as it is (the class of a thrown error does not cross the RPC boundary). */
export interface Refusal {
  ok: false;
  status: 400 | 404 | 409;
  message: string;
  field?: string;
}

/** A pin the 48-hour rule refuses on its own: the refusal as a single pin's call answers it, and the pin it clashes with. */
export interface DuplicateRefusal {
  status: 409;
  message: string;
  field: string;
  conflict: DuplicateConflict;
}

/**
 * held: placed (at `scheduledTime`) until confirmed; existing: the id is queued already (a retried schedule);
 * gone: it was queued once and deleted since, so it is never placed again; refused: the 48-hour rule (`refusal`).
 */
export type ReservedPin =
  | { id: string; state: "held"; scheduledTime: number }
  | { id: string; state: "existing" | "gone" }
  | { id: string; state: "refused"; refusal: DuplicateRefusal };
export type Reserved = { ok: true; pins: ReservedPin[] };

/** Where a pin of the history stands in its queue (ProfileScheduler.historyStates). */
export interface PinHistoryState {
  status: ScheduledPinStatus | "deleted";
  scheduledTime: number | null;
  postedAt: number | null;
  pinterestPinId: string | null;
  error: string | null;
}

export interface PinChanges {
  id: string;
  title?: string;
  description?: string;
  altText?: string;
  url?: string;
  imageURL?: string;
  mediaURL?: string;
  videoURL?: string;
  videoThumbnail?: string;
  media_id?: string;
  boardId?: string;
  sectionId?: string | null;
  boardName?: string;
  allowDuplicate?: boolean;
  scheduledTime?: number;
  type?: "SpecificDate" | "Queue";
}

export interface RepeatingChanges extends Omit<PinChanges, "scheduledTime" | "type"> {
  nextPinDate?: number;
  intervalInDays?: number;
}

export type ProfileStatus = PinterestProfile["status"];

export function refusal(status: Refusal["status"], message: string, field?: string): Refusal {
  return field ? { ok: false, status, message, field } : { ok: false, status, message };
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && (value as Refusal).ok === false && typeof (value as Refusal).message === "string";
}

/**
 * Runs `change`, which throws a Refusal (or NoFreeSlot) to refuse, and answers the refusal, or null when it
 * went through. `change` is one storage transaction, so a refusal leaves nothing half-written.
 */
export function refusalOf(change: () => void): Refusal | null {
  try {
    change();
    return null;
  } catch (error) {
    if (isRefusal(error)) return error;
    if (error instanceof NoFreeSlot) return refusal(409, error.message);
    throw error;
  }
}

const CHANGEABLE_FIELDS = [
  "title",
  "description",
  "altText",
  "url",
  "imageURL",
  "mediaURL",
  "videoURL",
  "videoThumbnail",
  "media_id",
  "boardId",
  "boardName",
  "sectionId",
  "allowDuplicate",
] as const;

/** A pin's content with the given changes (a new board without a section leaves the old board's section); refuses a pin left without media. */
export function changedContent(content: PinContent, change: Omit<PinChanges, "scheduledTime" | "type">, prefix: string): PinContent {
  const next = { ...content } as Record<string, unknown>;
  for (const field of CHANGEABLE_FIELDS) if (change[field] !== undefined) next[field] = change[field];
  const changed = next as unknown as PinContent;
  if (change.boardId !== undefined && change.boardId !== content.boardId && change.sectionId === undefined) changed.sectionId = null;
  if (changed.mediaType === "image" && !changed.imageURL && !changed.mediaURL) throw refusal(400, "imageURL is required for an image pin", `${prefix}imageURL`);
  if (changed.mediaType === "video" && !changed.media_id)
    throw refusal(400, "media_id is required for a video pin (upload the video first)", `${prefix}media_id`);
  return changed;
}
