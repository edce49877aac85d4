import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import {
  ALL_TEMPLATES,
  BackupDownloadForm,
  BackupGenerateForm,
  BackupScheduleForm,
  type BackupBatchView,
} from "../../../contracts/content/backup-generator.ts";
import type { User } from "../../../workers/services/accounts/accounts.ts";
import { creditsSummary } from "../../../workers/services/billing/credits.ts";
import { ServiceError } from "../../../workers/services/core/errors.ts";
import { listProfiles, profileBoards, schedulingSettingsOf } from "../../../workers/services/pinterest/pinterest-connection.ts";
import { formatInZone, timeZoneLabel } from "../../lib/pinterest/times.ts";
import { signedInAccount } from "../../lib/session.server.ts";

/** A connected profile's boards, for the schedule form ("username/boardId" values). */
export interface BoardGroup {
  username: string;
  timeZone: string;
  boards: { value: string; name: string }[];
  /** Why its boards could not be listed. */
  problem: string | null;
}

export type BackupLoaded =
  | { signedIn: false; status: number }
  | {
      signedIn: true;
      status: number;
      templateSets: { value: string; label: string }[];
      creditsLeft: number;
      batch: BackupBatchView | null;
      batchProblem: string | null;
      boards: BoardGroup[];
      /** A fresh idempotency key for each pin's forms: a form sent twice is one request. */
      references: { download: string; schedule: string }[];
    };

export type BackupAnswer =
  | { redirectTo: string }
  | { status: number; intent: "generate"; error: string; field: string | null; values: Record<string, string> }
  | { status: number; intent: "download" | "schedule"; pin: number; error: string; field: string | null }
  | { status: number; intent: "download"; pin: number; error: null; imageUrl: string; fileName: string; creditsCharged: number }
  | { status: number; intent: "schedule"; pin: number; error: null; when: string; board: string; creditsCharged: number };

const SIGN_IN_FIRST = "Please log in again: your session has ended.";
const NOT_OUR_SITE = "This form did not come from our site. Reload the page and try again.";

async function boardsOf(context: AppLoadContext, user: User): Promise<BoardGroup[]> {
  const env = context.cloudflare.env;
  const profiles = (await listProfiles(env, user.id)).filter((profile) => profile.status === "ok");
  return Promise.all(
    profiles.map(async (profile) => {
      const timeZone = schedulingSettingsOf(profile).timezone.value;
      try {
        const boards = await profileBoards(env, profile);
        return {
          username: profile.username,
          timeZone,
          boards: boards.map((board) => ({ value: `${profile.username}/${board.id}`, name: board.name })),
          problem: null,
        };
      } catch (error) {
        return {
          username: profile.username,
          timeZone,
          boards: [],
          problem: isServiceError(error) ? error.message : "Its boards could not be loaded. Please try again later.",
        };
      }
    }),
  );
}

/** The generator's services, from the worker (they carry the renderer, which the page bundle cannot). */
function servicesOf(context: AppLoadContext) {
  if (!context.services) throw new Error("The basic generator needs the app's worker (npm start), not remix vite:dev");
  return context.services.backupGenerator;
}

export async function backupLoader(request: Request, context: AppLoadContext): Promise<BackupLoaded> {
  const env = context.cloudflare.env;
  const { backupBatch, templateSets } = servicesOf(context);
  const user = await signedInAccount(request, context);
  if (!user) return { signedIn: false, status: 200 };
  const batchId = new URL(request.url).searchParams.get("batch");
  let batch: BackupBatchView | null = null;
  let batchProblem: string | null = null;
  let status = 200;
  if (batchId !== null) {
    try {
      batch = await backupBatch(env, user, batchId);
    } catch (error) {
      if (!isServiceError(error)) throw error;
      batchProblem = error.message;
      status = error.status;
    }
  }
  const [sets, credits, boards] = await Promise.all([
    templateSets(env, user),
    creditsSummary(env, user.id),
    batch ? boardsOf(context, user) : Promise.resolve([]),
  ]);
  return {
    signedIn: true,
    status,
    templateSets: sets,
    creditsLeft: credits.remaining,
    batch,
    batchProblem,
    boards,
    references: (batch?.pins ?? []).map(() => ({ download: crypto.randomUUID(), schedule: crypto.randomUUID() })),
  };
}

/**
 * A refusal of a service (checked by name: the worker's services, handed over
 * in the load context, come from the worker's bundle, not this one's).
 */
function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && error.name === "ServiceError" && typeof (error as Partial<ServiceError>).status === "number";
}

/** The first problem of a form, as a 400 naming its field. */
function parseForm<S extends v.GenericSchema>(schema: S, form: Record<string, string>): v.InferOutput<S> {
  const result = v.safeParse(schema, form);
  if (result.success) return result.output;
  const issue = result.issues[0];
  throw new ServiceError(400, issue.message, v.getDotPath(issue) ?? undefined);
}

/** A form's text fields (files and repeated names are not part of these forms). */
function fieldsOf(formData: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  return fields;
}

/** Our pages' forms only: the browser names the page a form came from (cross-site request forgery). */
function cameFromOurSite(request: Request, appUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin) return origin === new URL(appUrl).origin || origin === new URL(request.url).origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

export async function backupAction(request: Request, context: AppLoadContext): Promise<BackupAnswer> {
  const env = context.cloudflare.env;
  const { downloadBackupPin, generateBackupPins, scheduleBackupPin } = servicesOf(context);
  let fields: Record<string, string> = {};
  try {
    fields = fieldsOf(await request.formData());
  } catch {
    fields = {};
  }
  const intent = fields.intent === "download" || fields.intent === "schedule" ? fields.intent : "generate";
  const pin = /^\d{1,2}$/.test(fields.pin ?? "") ? Number(fields.pin) : -1;
  const refuse = (status: number, error: string, field: string | null): BackupAnswer =>
    intent === "generate"
      ? {
          status,
          intent,
          error,
          field,
          values: {
            url: fields.url ?? "",
            templateSet: fields.templateSet ?? ALL_TEMPLATES,
            color1: fields.color1 ?? "",
            color2: fields.color2 ?? "",
            color3: fields.color3 ?? "",
            count: fields.count ?? "",
          },
        }
      : { status, intent, pin, error, field };
  if (!cameFromOurSite(request, env.APP_URL)) return refuse(403, NOT_OUR_SITE, null);
  const user = await signedInAccount(request, context);
  if (!user) return refuse(401, SIGN_IN_FIRST, null);
  try {
    if (intent === "generate") {
      const batch = await generateBackupPins(env, user, parseForm(BackupGenerateForm, fields));
      return { redirectTo: `/backupGenerator?batch=${batch.id}` };
    }
    if (intent === "download") {
      const form = parseForm(BackupDownloadForm, fields);
      const rendered = await downloadBackupPin(env, user, form.batch, form.pin, form.reference);
      return { status: 200, intent, pin: form.pin, error: null, imageUrl: rendered.url, fileName: rendered.fileName, creditsCharged: rendered.creditsCharged };
    }
    const form = parseForm(BackupScheduleForm, fields);
    const boards = await boardsOf(context, user);
    const names = new Map(boards.flatMap((group) => group.boards.map((board) => [board.value, board.name] as const)));
    const answer = await scheduleBackupPin(env, user, form, names);
    const scheduled = answer.scheduledPins[0];
    const zone = boards.find((group) => group.username === form.board.split("/")[0])?.timeZone ?? "UTC";
    return {
      status: 200,
      intent,
      pin: form.pin,
      error: null,
      when: `${formatInZone(scheduled.scheduledTimeUTCTimestamp, zone)} ${timeZoneLabel(zone)}`,
      board: names.get(form.board) ?? scheduled.boardName ?? "",
      creditsCharged: answer.creditsCharged,
    };
  } catch (error) {
    if (isServiceError(error)) return refuse(error.status, error.message, error.field ?? null);
    throw error;
  }
}
