import { and, eq } from "drizzle-orm";
import { CREDIT_COSTS } from "../../../contracts/billing/credits.ts";
import {
  MAX_PINS_PER_SCHEDULE,
  RESET_TIMES_FAILED_MESSAGE,
  type NewScheduledPin,
  type PinScheduleFailure,
  type QueueView,
  type RepeatingPin,
  type RepeatingPinsPage,
  type RepeatingPinUpdate,
  type ScheduledPin,
  type ScheduledPinUpdate,
  type ScheduleResponse,
} from "../../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import type { NewPinInput, PageText, Refusal, Reserved } from "../../../durable-objects/profile-scheduler.ts";
import { statusNoteChanges } from "../../../durable-objects/scheduler/queue-store.ts";
import { sha256Hex } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { pinterestProfiles } from "../../db/schema.ts";
import { pinHistoryDetails, type SortOrder } from "../../domain/pin-queue.ts";
import type { Env } from "../../env.ts";
import type { User } from "../accounts/accounts.ts";
import { approvalRequired } from "./approval-settings.ts";
import { addPinHistories, MAX_PIN_HISTORY_BATCH, requireCredits } from "../billing/credits.ts";

if (MAX_PINS_PER_SCHEDULE > MAX_PIN_HISTORY_BATCH) throw new Error("A schedule request must fit in one addPinHistories call");
import { videoPinsPaidAtCreation } from "../content/video-pins.ts";
import { ServiceError } from "../core/errors.ts";
import { claimKeys, finishKeys, releaseKeys, requestHash, type Claim } from "../core/idempotency.ts";
import { tickOnboardingStep } from "../accounts/onboarding.ts";
import { rendersToUnlock } from "../content/pin-renders.ts";
import { listProfiles, schedulingSettingsOf, type PinterestProfile } from "./pinterest-connection.ts";
import { schedulerFor } from "./scheduler-index.ts";

/**
 * Scheduling use-cases (spec section 7, Scheduling): each resolves the
 * caller's own profile (another user's, or an unknown one: 404), then asks
 * that profile's ProfileScheduler. Scheduling charges the pin's credit through
 * the credit service, once per pin id.
 */

function refused(refusal: Refusal): never {
  throw new ServiceError(refusal.status, refusal.message, refusal.field);
}

/** The DO's answer, or its refusal thrown as the ServiceError it stands for. */
function unwrap<T>(answer: T): Exclude<T, { ok: false }> {
  if ((answer as { ok?: unknown }).ok === false) refused(answer as unknown as Refusal);
  return answer as Exclude<T, { ok: false }>;
}

/** The caller's connected profile with this username (404 otherwise, naming `field`). */
export async function ownProfile(env: Env, user: User, username: string, field = "username"): Promise<PinterestProfile> {
  const profile = await database(env.DB).query.pinterestProfiles.findFirst({
    where: and(eq(pinterestProfiles.userId, user.id), eq(pinterestProfiles.username, username)),
  });
  return ownedProfile(profile ?? null, username, field);
}

/** The caller's profile as looked up (scoped to the caller), or the 404 for a name they have no profile by. */
function ownedProfile(profile: PinterestProfile | null, username: string, field = "username"): PinterestProfile {
  if (!profile) throw new ServiceError(404, `No Pinterest profile named ${username} is connected.`, field);
  return profile;
}

// ------------------------------------------------------------------ settings

/** Saves a profile's scheduling settings (the named one, else the caller's active profile). */
export async function saveSchedulingSettings(env: Env, user: User, settings: SchedulingSettings, username?: string): Promise<SchedulingSettings> {
  let profile: PinterestProfile | undefined;
  if (username) profile = await ownProfile(env, user, username, "pinterestProfileUsername");
  else {
    const profiles = await listProfiles(env, user.id);
    profile = profiles.find((p) => p.isActive) ?? profiles[0];
    if (!profile) throw new ServiceError(404, "Connect a Pinterest profile first: scheduling settings belong to a profile.", "pinterestProfileUsername");
  }
  await database(env.DB).update(pinterestProfiles).set({ schedulingSettings: settings, updatedAt: Date.now() }).where(eq(pinterestProfiles.id, profile.id));
  await tickOnboardingStep(env.DB, user, "setPostingSchedule");
  return settings;
}

// ------------------------------------------------------------------ scheduling

/** The operation idempotency keys of scheduled pins are scoped to. */
const SCHEDULE_OPERATION = "schedulePin";

/** A pin id: named after its request's claim (idempotency.ts), else random. Never after the client's key. */
async function pinIdFor(profileId: string, claimId: string | undefined): Promise<string> {
  if (!claimId) return crypto.randomUUID();
  return `r${(await sha256Hex(`${profileId}\n${claimId}`)).slice(0, 40)}`;
}

/** What a finished pin's idempotency key answers on a replay. */
interface ScheduledPinAnswer {
  scheduledPin: ScheduledPin;
  repeatingPin: RepeatingPin | null;
}

export const PIN_DELETED_SINCE_MESSAGE = "This reference was used for a pin that has been deleted since. Use a new reference to schedule it again.";

/**
 * Schedules pins. The request as a whole must hold: every profile named must
 * be the caller's, the balance must pay for every pin placed, the queue must
 * have room (otherwise nothing is scheduled). Each pin then succeeds or is
 * refused on its own: a SpecificDate must be in the future, the 48-hour rule
 * holds unless `allowDuplicate`, a reference must not name a pin deleted since.
 * A batch (`batch`) answers its refused pins in `failedPins` and schedules the
 * others; a single pin's refusal is the call's error. Every new pin's credit is
 * charged once (image 1, video 5); refused pins cost nothing and let their
 * reference go. A pin's `reference` is its idempotency key (decision 017): a
 * replay with the same content answers the pin as first scheduled, with nothing
 * charged; the same reference with other content is refused (409).
 * `fieldPrefix(i)` names fields in messages.
 */
export async function schedulePins(
  env: Env,
  user: User,
  pins: NewScheduledPin[],
  options: { batch: boolean; fieldPrefix: (index: number) => string },
): Promise<ScheduleResponse> {
  const { fieldPrefix } = options;
  const now = Date.now();
  const firstWithReference = new Map<string, number>();
  pins.forEach((pin, index) => {
    if (pin.reference === undefined) return;
    const earlier = firstWithReference.get(pin.reference);
    if (earlier !== undefined) throw new ServiceError(400, `reference repeats the one of pin ${earlier + 1}`, `${fieldPrefix(index)}reference`);
    firstWithReference.set(pin.reference, index);
  });
  const profiles = new Map((await listProfiles(env, user.id)).map((profile) => [profile.username, profile]));
  pins.forEach((pin, index) => {
    if (!profiles.has(pin.pinterestProfileUsername)) {
      throw new ServiceError(404, `No Pinterest profile named ${pin.pinterestProfileUsername} is connected.`, `${fieldPrefix(index)}pinterestProfileUsername`);
    }
  });
  const renders = await rendersToUnlock(
    env,
    user.id,
    pins.map((pin, index) => ({ imageURL: pin.imageURL, field: `${fieldPrefix(index)}imageURL` })),
  );

  // 0. Claim the idempotency keys: finished ones answer as first scheduled.
  const referenced = [...firstWithReference.values()];
  const claimList = await claimKeys(
    env,
    user.id,
    SCHEDULE_OPERATION,
    await Promise.all(
      referenced.map(async (index) => ({
        key: pins[index].reference as string,
        hash: await requestHash(pins[index]),
        field: `${fieldPrefix(index)}reference`,
      })),
    ),
    now,
  );
  const claims = new Map(referenced.map((index, i) => [index, claimList[i]]));
  const replayed = new Map<number, ScheduledPinAnswer>();
  for (const [index, claim] of claims) if (claim.done) replayed.set(index, claim.response as ScheduledPinAnswer);

  // Pins refused on their own, by their place in the request.
  const failures = new Map<number, PinScheduleFailure>();
  const fail = (index: number, failure: Omit<PinScheduleFailure, "index" | "reference">) =>
    failures.set(index, { index, reference: pins[index].reference ?? null, ...failure });

  // Group the pins to place by profile, keeping each pin's place in the request.
  const groups = new Map<string, { profile: PinterestProfile; inputs: NewPinInput[]; indexes: number[] }>();
  const idOf = new Map<number, string>();
  // The ids are hashed all at once (not one await per pin).
  const newIds = await Promise.all(
    pins.map((pin, index) =>
      replayed.has(index) ? null : pinIdFor((profiles.get(pin.pinterestProfileUsername) as PinterestProfile).id, claims.get(index)?.id),
    ),
  );
  for (const [index, pin] of pins.entries()) {
    if (replayed.has(index)) continue;
    const profile = profiles.get(pin.pinterestProfileUsername) as PinterestProfile;
    const id = newIds[index] as string;
    idOf.set(index, id);
    // A replay answers as first scheduled, whenever it comes; a pin to place must be due in the future.
    if (pin.type === "SpecificDate" && (pin.scheduledTime ?? 0) <= now) {
      fail(index, { status: 400, reason: "past", error: "scheduledTime must be in the future", field: `${fieldPrefix(index)}scheduledTime` });
      continue;
    }
    const group = groups.get(profile.id) ?? { profile, inputs: [], indexes: [] };
    const { reference: _reference, pinterestProfileUsername: _username, scheduledTime, ...fields } = pin;
    group.inputs.push({ ...fields, id, media_id: pin.media_id ?? null, scheduledTime: pin.type === "SpecificDate" ? (scheduledTime ?? null) : null });
    group.indexes.push(index);
    groups.set(profile.id, group);
  }
  // Keys are let go again where nothing was done under them, so a corrected request may reuse them.
  const newClaim = ([index, claim]: [number, Claim]) => claim.fresh && !claim.done && idOf.has(index);
  const letGo = (which: (index: number) => boolean) =>
    releaseKeys(
      env,
      user.id,
      SCHEDULE_OPERATION,
      [...claims.entries()]
        .filter((entry) => newClaim(entry) && which(entry[0]))
        .map(([index, claim]) => ({ claim, chargedReference: `scheduled:${idOf.get(index)}` })),
    );

  // 1. Reserve the places in each queue (held: not posted until confirmed).
  const reserved: { profile: PinterestProfile; ids: string[]; held: { pin: NewPinInput; index: number; scheduledFor: number }[] }[] = [];
  const releaseAll = () => Promise.all(reserved.map(({ profile, held }) => schedulerFor(env, profile.id).release(held.map(({ pin }) => pin.id))));
  const refuse = async (error: unknown): Promise<never> => {
    await releaseAll();
    await letGo(() => true);
    throw error;
  };
  for (const { profile, inputs, indexes } of groups.values()) {
    const answer = await schedulerFor(env, profile.id).reserve({
      profileKey: profile.id,
      username: profile.username,
      userId: user.id,
      settings: schedulingSettingsOf(profile),
      pins: inputs,
      fieldPrefixes: indexes.map(fieldPrefix),
    });
    if (!answer.ok) await refuse(new ServiceError(answer.status, answer.message, answer.field));
    const placed = (answer as Reserved).pins;
    const ids: string[] = [];
    const held: { pin: NewPinInput; index: number; scheduledFor: number }[] = [];
    placed.forEach((result, i) => {
      const index = indexes[i];
      if (result.state === "refused") {
        const { status, message, field, conflict } = result.refusal;
        fail(index, { status, reason: "duplicate", error: message, field, conflict });
      } else if (result.state === "gone") {
        fail(index, { status: 409, reason: "deleted", error: PIN_DELETED_SINCE_MESSAGE, field: `${fieldPrefix(index)}reference` });
      } else {
        ids.push(result.id);
        if (result.state === "held") held.push({ pin: inputs[i], index, scheduledFor: result.scheduledTime });
      }
    });
    reserved.push({ profile, ids, held });
  }
  // A single pin's refusal is the call's answer.
  const refusedAlone = [...failures.values()].sort((a, b) => a.index - b.index);
  if (!options.batch && refusedAlone.length > 0) await refuse(new ServiceError(refusedAlone[0].status, refusedAlone[0].error, refusedAlone[0].field));

  // 2. Charge the credits of the new pins (once per pin id), unlocking the renders they use.
  let creditsCharged = 0;
  try {
    creditsCharged = await chargeScheduledPins(
      env,
      user,
      reserved.flatMap(({ profile, held }) =>
        held.map(({ pin, index, scheduledFor }) => ({ username: profile.username, pin, scheduledFor, render: renders.get(index) })),
      ),
    );
  } catch (error) {
    await refuse(error);
  }

  // 3. Queue them, and remember each referenced pin's answer.
  const pinsById = new Map<string, ScheduledPin>();
  const repeatingById = new Map<string, RepeatingPin>();
  for (const { profile, ids } of reserved) {
    if (ids.length === 0) continue;
    const answer = await schedulerFor(env, profile.id).confirm(ids, profile.status, profile.lastError, await approvalRequired(env, profile.id));
    for (const pin of answer.scheduledPins) pinsById.set(pin.id, pin);
    for (const pin of answer.repeatingPins) repeatingById.set(pin.id, pin);
  }
  await letGo((index) => failures.has(index));
  const answers = pins.map((_, index): ScheduledPinAnswer | null => {
    const replay = replayed.get(index);
    if (replay) return replay;
    if (failures.has(index)) return null;
    const id = idOf.get(index) as string;
    const scheduledPin = pinsById.get(id);
    return scheduledPin ? { scheduledPin, repeatingPin: repeatingById.get(`${id}-repeat`) ?? null } : null;
  });
  await finishKeys(
    env,
    user.id,
    SCHEDULE_OPERATION,
    [...claims.entries()].flatMap(([index, claim]) => (!claim.done && answers[index] ? [{ claim, response: answers[index] }] : [])),
  );
  const found = answers.filter((answer): answer is ScheduledPinAnswer => answer !== null);
  if (found.length > 0) await tickOnboardingStep(env.DB, user, "schedulePins");
  return {
    scheduledPins: found.map((answer) => answer.scheduledPin),
    repeatingPins: found.flatMap((answer) => (answer.repeatingPin ? [answer.repeatingPin] : [])),
    failedPins: refusedAlone,
    creditsCharged,
  };
}

/**
 * Charges each new pin's credit with its "scheduled" pin history entry (image
 * 1, video 5; reference `scheduled:<pin id>`; the time it was placed at),
 * after checking that the balance pays them all. Answers the credits charged
 * now (a retried pin was charged before).
 */
async function chargeScheduledPins(
  env: Env,
  user: User,
  charges: { username: string; pin: NewPinInput; scheduledFor: number; render?: string }[],
): Promise<number> {
  // A video made here paid for its first pin when it was made (decision 032).
  const paidAtCreation = await videoPinsPaidAtCreation(
    env,
    user.id,
    charges.flatMap(({ pin }) => (pin.mediaType === "video" ? [{ id: pin.id, videoURL: pin.videoURL }] : [])),
  );
  const costOf = (pin: NewPinInput) => (paidAtCreation.has(pin.id) ? 0 : CREDIT_COSTS[pin.mediaType]);
  await requireCredits(
    env,
    user.id,
    charges.reduce((sum, { pin }) => sum + costOf(pin), 0),
  );
  // One call (one D1 batch) for every pin of the request: MAX_PINS_PER_SCHEDULE is at most MAX_PIN_HISTORY_BATCH.
  const results = await addPinHistories(
    env,
    user.id,
    charges.map(({ username, pin, scheduledFor, render }) => ({
      details: pinHistoryDetails({ ...pin, pinterestProfileUsername: username }, "scheduled", null),
      spend: {
        category: pin.mediaType,
        amount: costOf(pin),
        reason: paidAtCreation.has(pin.id) ? "Pin scheduled (paid when its video was made)" : "Pin scheduled",
        reference: `scheduled:${pin.id}`,
      },
      pin: { id: pin.id, scheduledFor },
      unlocksRender: render,
      // The history says what the pin cost: a video's first pin shows the price paid when the video was made.
      shownCredits: paidAtCreation.has(pin.id) ? CREDIT_COSTS.video : undefined,
    })),
  );
  let charged = 0;
  results.forEach((result, i) => {
    if (result.charged) charged += costOf(charges[i].pin);
  });
  return charged;
}

// ------------------------------------------------------------------ reading the queue

type QueuePageQuery = { lastPinId?: string; sortBy: SortOrder; status: QueueView };

/** A read of a queue page started before the caller's ownership of the profile was known (decision 062). */
export interface EarlyPageRead {
  profileId: string;
  read: Promise<PageText | Refusal>;
}

/**
 * The profile id last seen for a (user, profile name) whose owner opened its queue, so that the next
 * page's Durable Object read can start while D1 checks the sign-in and the ownership. A guess only:
 * its page is used when D1 confirms that the caller owns exactly that profile (scheduledPinsPageText).
 * At most PROFILE_ID_GUESSES entries per isolate; the oldest go first.
 */
const profileIdGuesses = new Map<string, string>();
const PROFILE_ID_GUESSES = 1_000;
const guessKey = (userId: string, username: string) => `${userId}\n${username}`;

function rememberProfileId(userId: string, username: string, profileId: string) {
  const key = guessKey(userId, username);
  if (profileIdGuesses.get(key) === profileId) return;
  profileIdGuesses.delete(key);
  profileIdGuesses.set(key, profileId);
  if (profileIdGuesses.size > PROFILE_ID_GUESSES) profileIdGuesses.delete(profileIdGuesses.keys().next().value!);
}

/**
 * Starts reading a queue page from the Durable Object of the profile this user last opened by this
 * name, before anything about the caller is known to hold: the read changes nothing, and its page is
 * thrown away unless scheduledPinsPageText confirms the caller owns that profile. Null when no profile id
 * is known for the name (the page then waits for D1).
 */
export function startEarlyPageRead(env: Env, userId: string, username: string, query: QueuePageQuery): EarlyPageRead | null {
  const profileId = profileIdGuesses.get(guessKey(userId, username));
  if (!profileId) return null;
  const read = schedulerFor(env, profileId).pageText({ view: query.status, sortBy: query.sortBy, lastPinId: query.lastPinId }) as Promise<PageText | Refusal>;
  // Nobody may await it (a refused caller's request ends first): its failure must not go unhandled.
  read.catch(() => undefined);
  return { profileId, read };
}

/**
 * A page of the caller's profile's queue, as the JSON text of a ScheduledPinsPage (written by the
 * profile's Durable Object). `found` is the profile as read with the sign-in (requireUserAndProfile:
 * null when the caller has none by that name), else it is looked up here. An `early` read is used only
 * when `found` is the profile it read and the queue already holds the profile's status; otherwise the
 * Durable Object is asked again, telling it the status.
 */
export async function scheduledPinsPageText(
  env: Env,
  user: User,
  username: string,
  query: QueuePageQuery,
  timings?: { profileMs: number; queueMs: number; earlyUsed?: boolean },
  found?: { profile: PinterestProfile | null; early?: EarlyPageRead | null },
): Promise<string> {
  const started = performance.now();
  const profile = found ? ownedProfile(found.profile, username) : await ownProfile(env, user, username);
  const looked = performance.now();
  if (timings) timings.profileMs = looked - started;
  rememberProfileId(user.id, username, profile.id);
  // A read that failed is asked again below, as if none had been started.
  const earlyAnswer = found?.early && found.early.profileId === profile.id ? await found.early.read.catch(() => null) : null;
  const early = earlyAnswer ? unwrap(earlyAnswer) : null;
  const usable = early && !statusNoteChanges(early.noted, profile.status, profile.lastError) ? early : null;
  if (timings) timings.earlyUsed = usable !== null;
  const page =
    usable ??
    unwrap(
      (await schedulerFor(env, profile.id).pageText(
        { view: query.status, sortBy: query.sortBy, lastPinId: query.lastPinId },
        { profileStatus: profile.status, profileError: profile.lastError },
      )) as PageText | Refusal,
    );
  if (timings) timings.queueMs = performance.now() - looked;
  return page.json;
}

export async function listRepeatingPins(env: Env, user: User, username: string, lastPinId?: string): Promise<RepeatingPinsPage> {
  const profile = await ownProfile(env, user, username);
  return unwrap(await schedulerFor(env, profile.id).listRepeating({ lastPinId }));
}

/** The caller's profile whose queue holds this pin (404 for anyone else's, or an unknown id). */
async function profileHolding(env: Env, user: User, pinId: string, kind: "scheduled" | "repeating", field: string): Promise<PinterestProfile> {
  const profiles = await listProfiles(env, user.id);
  const found = await Promise.all(
    profiles.map(async (profile) => {
      const stub = schedulerFor(env, profile.id);
      return (kind === "scheduled" ? await stub.findPin(pinId) : await stub.findRepeating(pinId)) ? profile : null;
    }),
  );
  const profile = found.find((p) => p !== null);
  if (!profile) throw new ServiceError(404, `No ${kind} pin with id ${pinId}`, field);
  return profile;
}

// ------------------------------------------------------------------ changing the queue

function changesOf(update: ScheduledPinUpdate) {
  return { ...update, scheduledTime: update.scheduledTime };
}

export async function updateScheduledPin(env: Env, user: User, update: ScheduledPinUpdate): Promise<ScheduledPin> {
  const profile = await profileHolding(env, user, update.id, "scheduled", "pin.id");
  const answer = unwrap(await schedulerFor(env, profile.id).updatePins([changesOf(update)], schedulingSettingsOf(profile), ["pin."]));
  return answer.pins[0];
}

export async function updateScheduledPins(env: Env, user: User, username: string, updates: ScheduledPinUpdate[]): Promise<ScheduledPin[]> {
  const profile = await ownProfile(env, user, username, "pinterestUsername");
  const answer = unwrap(
    await schedulerFor(env, profile.id).updatePins(
      updates.map(changesOf),
      schedulingSettingsOf(profile),
      updates.map((_, i) => `pinsToUpdate.${i}.`),
    ),
  );
  return answer.pins;
}

export async function deleteScheduledPin(env: Env, user: User, pinId: string): Promise<ScheduledPin> {
  const profile = await profileHolding(env, user, pinId, "scheduled", "pinId");
  return unwrap(await schedulerFor(env, profile.id).deletePin(pinId)).pin;
}

export async function deleteAllScheduledPins(env: Env, user: User, username: string): Promise<number> {
  const profile = await ownProfile(env, user, username, "pinterestProfileUsername");
  return (await schedulerFor(env, profile.id).deleteAll()).deletedCount;
}

/** Re-slots every Queue pin of the profile from now with its current settings. */
export async function resetScheduledTimes(env: Env, user: User, username: string): Promise<number> {
  const profile = await ownProfile(env, user, username);
  try {
    return (await schedulerFor(env, profile.id).resetQueueTimes(schedulingSettingsOf(profile))).updatedCount;
  } catch (error) {
    console.error(`resetScheduledTimes for profile ${profile.id} failed:`, error);
    throw new ServiceError(500, RESET_TIMES_FAILED_MESSAGE);
  }
}

export async function updateRepeatingPin(env: Env, user: User, update: RepeatingPinUpdate): Promise<RepeatingPin> {
  const profile = await profileHolding(env, user, update.id, "repeating", "pin.id");
  return unwrap(await schedulerFor(env, profile.id).updateRepeating([update], ["pin."])).pins[0];
}

export async function updateRepeatingPins(env: Env, user: User, username: string, updates: RepeatingPinUpdate[]): Promise<RepeatingPin[]> {
  const profile = await ownProfile(env, user, username, "pinterestUsername");
  return unwrap(
    await schedulerFor(env, profile.id).updateRepeating(
      updates,
      updates.map((_, i) => `pinsToUpdate.${i}.`),
    ),
  ).pins;
}

export async function deleteRepeatingPin(env: Env, user: User, pinId: string): Promise<RepeatingPin> {
  const profile = await profileHolding(env, user, pinId, "repeating", "pinId");
  return unwrap(await schedulerFor(env, profile.id).deleteRepeating(pinId)).pin;
}

/** Forgets a profile's whole queue (called when the profile is disconnected). */
export async function clearProfileQueue(env: Env, profileId: string): Promise<void> {
  await schedulerFor(env, profileId).clear();
}
