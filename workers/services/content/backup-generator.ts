import * as v from "valibot";
import { ALL_TEMPLATES, MY_TEMPLATES, type BackupBatchView, type BackupGenerateForm, type BackupPin } from "../../../contracts/content/backup-generator.ts";
import { defaultDesignSettings, type RgbaColor } from "../../../contracts/content/design-settings.ts";
import { RenderTemplateImageBody, type RenderedPin } from "../../../contracts/content/render.ts";
import { NewScheduledPin, type ScheduleResponse } from "../../../contracts/pinterest/scheduling-api.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { generatePosts, renderPostBody } from "../../domain/generate.ts";
import { zonedTimeToUtc } from "../../domain/scheduling.ts";
import type { Env } from "../../env.ts";
import { mediaUrl, putMedia, userMediaPrefix } from "../../media/store.ts";
import { encodeJpeg, resizeRegion } from "../../render/pixel-module.ts";
import { renderPin } from "../../render/render-pin.ts";
import { workerFontLoader } from "../../render/worker-fonts.ts";
import { scrapeWebsite } from "../../scrape/sources.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";
import { chargeReference, idempotent } from "../core/idempotency.ts";
import { pictureSourceFor, renderAndStorePin, type PinPost } from "./pin-images.ts";
import { recordUnpaidRender, renderKey } from "./pin-renders.ts";
import { listProfiles, schedulingSettingsOf } from "../pinterest/pinterest-connection.ts";
import { schedulePins } from "../pinterest/scheduling.ts";
import { listCategories, listStandardTemplates, listUserTemplates } from "./templates.ts";

/**
 * The backup generator (issue 20, docs/decisions/055-backup-generator-and-public-pins.md):
 * /generate's rules on the server, for browsers where its live previews cannot
 * run. A generation scrapes the page, draws the posts as /generate does
 * (generatePosts), renders each pin with the worker's renderer and keeps, for a
 * day: a small preview (free to show, as /generate's previews are), the
 * full-size render as an unpaid render (gated like /generate's renders for
 * scheduling: not served before a schedule pays for it) and the batch itself.
 * Credits are /generate's: a download is renderAndStorePin's charge, a schedule
 * is schedulePins' charge, each once per form (its hidden idempotency key).
 */

export const BATCH_NOT_FOUND = "This set of pins is no longer available. Generate the pins again.";
export const NO_OWN_TEMPLATES = "You have no templates of your own yet. Choose another template set.";
export const UNKNOWN_TEMPLATE_SET = "Choose a template set from the list";
export const BOARD_NOT_CONNECTED = "Choose a board of one of your connected Pinterest profiles";
export const PREVIEW_SIZE = { width: 400, height: 600 };

const DOWNLOAD_OPERATION = "backupGenerator.download";

interface StoredPin extends BackupPin {
  post: PinPost;
  /** The full-size render (unpaid until a schedule pays for it). */
  renderUrl: string;
}

interface StoredBatch extends BackupBatchView {
  pins: StoredPin[];
}

const batchFolder = (userId: string, batchId: string) => `${userMediaPrefix(userId)}backup-generator/${batchId}/`;

/** The template sets the form offers: all standard templates, the user's own, each standard category. */
export async function templateSets(env: Env, user: User): Promise<{ value: string; label: string }[]> {
  const categories = (await listCategories(env, user)).filter((category) => category.isStandard);
  return [
    { value: ALL_TEMPLATES, label: "All standard templates" },
    { value: MY_TEMPLATES, label: "My templates" },
    ...categories.map((category) => ({ value: category.name, label: category.name })),
  ];
}

async function templatesOf(env: Env, user: User, set: string): Promise<{ pool: Template[]; standard: Template[] }> {
  const standard = await listStandardTemplates(env, user);
  if (set === ALL_TEMPLATES) return { pool: standard, standard };
  if (set === MY_TEMPLATES) {
    const own = (await listUserTemplates(env, user)).templates;
    if (own.length === 0) throw new ServiceError(400, NO_OWN_TEMPLATES, "templateSet");
    return { pool: own, standard };
  }
  const inCategory = await listStandardTemplates(env, user, set);
  if (inCategory.length === 0) throw new ServiceError(400, UNKNOWN_TEMPLATE_SET, "templateSet");
  return { pool: inCategory, standard };
}

function colourOf(hex: string): RgbaColor {
  return { r: parseInt(hex.slice(1, 3), 16), g: parseInt(hex.slice(3, 5), 16), b: parseInt(hex.slice(5, 7), 16), a: 1 };
}

/** Scrapes the page, draws and renders its pins, and keeps them as a batch for the user. */
export async function generateBackupPins(env: Env, user: User, form: BackupGenerateForm): Promise<BackupBatchView> {
  const { pool, standard } = await templatesOf(env, user, form.templateSet);
  const source = await scrapeWebsite(env, form.url);
  const defaults = defaultDesignSettings();
  const chosen = [form.color1, form.color2, form.color3].filter((hex) => hex !== "").map(colourOf);
  const settings = {
    ...defaults,
    designColors: chosen.length > 0 ? chosen : defaults.designColors,
    selectedColorIndex: chosen.length > 0 ? 0 : defaults.selectedColorIndex,
    useAllColors: chosen.length > 1,
    pinsPerSource: form.count,
    useOneOfEachTemplate: false,
    useOneOfEachImage: false,
  };
  const posts = generatePosts([source], { settings, templates: pool, fallbacks: standard, random: Math.random, newId: () => crypto.randomUUID() }).slice(
    0,
    form.count,
  );
  const id = crypto.randomUUID();
  const folder = batchFolder(user.id, id);
  const fonts = workerFontLoader(env);
  const pictures = pictureSourceFor(env);
  const pins: StoredPin[] = [];
  // One at a time: a render holds a full-size pin's pixels and its pictures.
  for (const [index, post] of posts.entries()) {
    // Exactly what /generate would send to renderTemplateImage, checked by the same contract.
    const body: PinPost = v.parse(RenderTemplateImageBody, { post: { ...renderPostBody(post), url: post.url.slice(0, 2048) } }).post;
    const rendered = await renderPin(body.template, body, { fonts, pictures });
    const small = resizeRegion(rendered.pixels, { x: 0, y: 0, width: rendered.width, height: rendered.height }, PREVIEW_SIZE.width, PREVIEW_SIZE.height);
    const previewKey = `${folder}${index}.jpeg`;
    await putMedia(env, previewKey, encodeJpeg(small.data, PREVIEW_SIZE.width, PREVIEW_SIZE.height, 80), "image/jpeg");
    const fileName = body.fileName || `pin-${index + 1}.jpeg`;
    const fullKey = renderKey(user.id, fileName);
    await recordUnpaidRender(env, user.id, fullKey);
    await putMedia(env, fullKey, rendered.jpeg, "image/jpeg");
    pins.push({
      index,
      title: post.title,
      description: post.description,
      url: post.url,
      templateTitle: post.template?.title ?? "",
      previewUrl: mediaUrl(env.APP_URL, previewKey),
      fileName,
      post: body,
      renderUrl: mediaUrl(env.APP_URL, fullKey),
    });
  }
  const batch: StoredBatch = { id, sourceUrl: source.url, createdAt: Date.now(), pins };
  await env.MEDIA.put(`${folder}batch.json`, JSON.stringify(batch), { httpMetadata: { contentType: "application/json" } });
  return viewOf(batch);
}

function viewOf(batch: StoredBatch): BackupBatchView {
  return { id: batch.id, sourceUrl: batch.sourceUrl, createdAt: batch.createdAt, pins: batch.pins.map(({ post: _post, renderUrl: _render, ...pin }) => pin) };
}

async function storedBatch(env: Env, user: User, batchId: string): Promise<StoredBatch> {
  const object = /^[0-9a-f-]{36}$/.test(batchId) ? await env.MEDIA.get(`${batchFolder(user.id, batchId)}batch.json`) : null;
  if (!object) throw new ServiceError(404, BATCH_NOT_FOUND, "batch");
  return (await object.json()) as StoredBatch;
}

/** One of the caller's batches, as the page shows it (404 when gone or another user's). */
export async function backupBatch(env: Env, user: User, batchId: string): Promise<BackupBatchView> {
  return viewOf(await storedBatch(env, user, batchId));
}

async function storedPin(env: Env, user: User, batchId: string, index: number): Promise<StoredPin> {
  const pin = (await storedBatch(env, user, batchId)).pins[index];
  if (!pin) throw new ServiceError(404, "That pin is not in this set. Generate the pins again.", "pin");
  return pin;
}

/**
 * Downloads one pin: /generate's download (renderAndStorePin: one image
 * credit, a "downloaded" history entry), once per form: the same reference
 * answers the same image without a second charge (creditsCharged 0).
 */
export async function downloadBackupPin(env: Env, user: User, batchId: string, index: number, reference: string): Promise<RenderedPin> {
  const pin = await storedPin(env, user, batchId, index);
  let ran = false;
  const rendered = await idempotent({
    env,
    userId: user.id,
    operation: DOWNLOAD_OPERATION,
    key: reference,
    body: { batchId, index },
    work: (id) => {
      ran = true;
      return renderAndStorePin(env, user, pin.post, "download", chargeReference(DOWNLOAD_OPERATION, id));
    },
  });
  // A replay answers the first image, and charged nothing this time.
  return ran ? rendered : { ...rendered, creditsCharged: 0 };
}

/**
 * Schedules one pin's full-size render to a board of a connected profile:
 * at `when` (a wall time in the profile's time zone) or at the queue's next
 * free time. /generate's scheduling (schedulePins: one credit, once per
 * reference).
 */
export async function scheduleBackupPin(
  env: Env,
  user: User,
  form: { batch: string; pin: number; reference: string; board: string; when: string },
  boardNames: Map<string, string> = new Map(),
): Promise<ScheduleResponse> {
  const pin = await storedPin(env, user, form.batch, form.pin);
  const [username, boardId] = form.board.split("/");
  const profile = (await listProfiles(env, user.id)).find((candidate) => candidate.username === username);
  if (!profile) throw new ServiceError(400, BOARD_NOT_CONNECTED, "board");
  let scheduledTime: number | null = null;
  if (form.when) {
    const [date, time] = form.when.split("T");
    const [year, month, day] = date.split("-").map(Number);
    const [hours, minutes] = time.split(":").map(Number);
    scheduledTime = zonedTimeToUtc(year, month - 1, day, hours * 3600 + minutes * 60, schedulingSettingsOf(profile).timezone.value);
    if (!(scheduledTime > Date.now()))
      throw new ServiceError(400, "Choose a time in the future, or leave the time empty for the next free time in the queue.", "when");
  }
  const parsed = v.safeParse(NewScheduledPin, {
    reference: form.reference,
    title: pin.title.slice(0, 100),
    description: pin.description.slice(0, 500),
    url: pin.url,
    imageURL: pin.renderUrl,
    boardId,
    boardName: boardNames.get(form.board) ?? "",
    pinterestProfileUsername: username,
    type: scheduledTime === null ? "Queue" : "SpecificDate",
    scheduledTime,
  });
  if (!parsed.success) throw new ServiceError(400, parsed.issues[0].message, v.getDotPath(parsed.issues[0]) ?? "board");
  return schedulePins(env, user, [parsed.output], { batch: false, fieldPrefix: () => "" });
}
