import * as v from "valibot";
import { IDEMPOTENCY_KEY_PATTERN } from "../fields.ts";

/**
 * The backup generator (/backupGenerator, issue 20, docs/decisions/055): the
 * generator for browsers where /generate's live previews cannot run. Plain
 * HTML forms, posted without JavaScript: every field arrives as text.
 */

/** How many pins one generation makes at most. */
export const BACKUP_MAX_PINS = 6;
export const BACKUP_DEFAULT_PINS = 4;
/** The template set "all standard templates"; "mine" is the user's own; anything else names a standard category. */
export const ALL_TEMPLATES = "all";
export const MY_TEMPLATES = "mine";

const HEX_COLOUR = /^(#[0-9a-fA-F]{6})?$/;
const colour = (label: string) =>
  v.optional(v.pipe(v.string(`${label} must be a colour`), v.trim(), v.regex(HEX_COLOUR, `${label} must be a colour such as #51c3a6`)), "");

/** The generation form: a page's address, a template set, up to three colours, how many pins. */
export const BackupGenerateForm = v.object({
  url: v.pipe(
    v.string("Enter the address of a blog post or page"),
    v.trim(),
    v.nonEmpty("Enter the address of a blog post or page"),
    v.maxLength(2048, "That address is too long"),
  ),
  templateSet: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(80, "Choose a template set from the list")), ALL_TEMPLATES),
  color1: colour("Colour 1"),
  color2: colour("Colour 2"),
  color3: colour("Colour 3"),
  count: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,2}$/, `Number of pins must be a whole number from 1 to ${BACKUP_MAX_PINS}`),
      v.transform(Number),
      v.minValue(1, `Number of pins must be a whole number from 1 to ${BACKUP_MAX_PINS}`),
      v.maxValue(BACKUP_MAX_PINS, `Number of pins must be a whole number from 1 to ${BACKUP_MAX_PINS}`),
    ),
    String(BACKUP_DEFAULT_PINS),
  ),
});
export type BackupGenerateForm = v.InferOutput<typeof BackupGenerateForm>;

const BatchId = v.pipe(
  v.string("This set of pins is no longer available. Generate the pins again."),
  v.regex(/^[0-9a-f-]{36}$/, "This set of pins is no longer available. Generate the pins again."),
);
const PinIndex = v.pipe(v.string("Choose a pin"), v.regex(/^\d{1,2}$/, "Choose a pin"), v.transform(Number));
/** The form's own idempotency key (a hidden field): the same form sent twice is one request. */
const Reference = v.pipe(
  v.string("This form has expired. Reload the page and try again."),
  v.regex(IDEMPOTENCY_KEY_PATTERN, "This form has expired. Reload the page and try again."),
);

/** Downloading one pin: charged one image credit once per form. */
export const BackupDownloadForm = v.object({ batch: BatchId, pin: PinIndex, reference: Reference });
export type BackupDownloadForm = v.InferOutput<typeof BackupDownloadForm>;

/** Scheduling one pin to a board ("profile/board id") at a time in the profile's time zone, or the queue's next free time. */
export const BackupScheduleForm = v.object({
  batch: BatchId,
  pin: PinIndex,
  reference: Reference,
  board: v.pipe(v.string("Choose a board"), v.regex(/^[^\s/]{1,100}\/[0-9A-Za-z_-]{1,64}$/, "Choose a board")),
  when: v.optional(
    v.union(
      [v.literal(""), v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "Time must be a date and a time, such as 24/12/2026 18:30"))],
      "Time must be a date and a time, such as 24/12/2026 18:30",
    ),
    "",
  ),
});
export type BackupScheduleForm = v.InferOutput<typeof BackupScheduleForm>;

/** A generated pin as the page shows it. */
export interface BackupPin {
  index: number;
  title: string;
  description: string;
  url: string;
  templateTitle: string;
  /** A small copy of the pin to show (400 x 600): free, as /generate's previews are. */
  previewUrl: string;
  fileName: string;
}

/** One generation, kept for the user for a day (their full-size renders are unpaid until scheduled). */
export interface BackupBatchView {
  id: string;
  sourceUrl: string;
  createdAt: number;
  pins: BackupPin[];
}
