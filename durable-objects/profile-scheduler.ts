import { DurableObject } from "cloudflare:workers";
import type { QueueView, RepeatingPin, RepeatingPinsPage, ScheduledPin, ScheduledPinsPage } from "../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../contracts/pinterest/scheduling.ts";
import type { SortOrder } from "../workers/domain/pin-queue.ts";
import type { Env } from "../workers/env.ts";
import { recordSchedulerState } from "../workers/services/pinterest/scheduler-index.ts";
import type { AnalyticsOverview, AnalyticsPinsPage, AnalyticsSort, AnalyticsWindow } from "../contracts/pinterest/analytics.ts";
import type { AudienceCell } from "../workers/domain/best-times.ts";
import { QueueAlarm } from "./scheduler/alarm.ts";
import type { BulkAnalyticsPin } from "../contracts/pinterest/analytics.ts";
import { type AnalyticsStep, PinAnalytics } from "./scheduler/analytics.ts";
import { ApprovalQueue, type ReviewDecision, type ReviewOutcome } from "./scheduler/approvals.ts";
import { HistoryMirror } from "./scheduler/history-mirror.ts";
import { changePins, placeNewPins, reslotQueue } from "./scheduler/placement.ts";
import { PostingEngine } from "./scheduler/posting.ts";
import { pauseReason, QueueStore, repeatingIdOf, type NotedStatus, type PinState } from "./scheduler/queue-store.ts";
import { RepeatingPins } from "./scheduler/repeating.ts";
import {
  refusalOf,
  type PinChanges,
  type PinHistoryState,
  type ProfileStatus,
  type Refusal,
  type RepeatingChanges,
  type Reserved,
  type ReservedPin,
  type ReserveRequest,
} from "./scheduler/requests.ts";

export { pinterestRequestOf } from "./scheduler/posting.ts";

/** A queue page as the JSON text of a ScheduledPinsPage, and what the queue holds of the profile's status. */
export interface PageText {
  ok: true;
  json: string;
  noted: NotedStatus;
}
export { NOT_AWAITING_MESSAGE, type ReviewDecision, type ReviewOutcome, type ReviewedPin } from "./scheduler/approvals.ts";
export type {
  DuplicateRefusal,
  NewPinInput,
  PinChanges,
  PinHistoryState,
  ProfileStatus,
  Refusal,
  RepeatingChanges,
  Reserved,
  ReservedPin,
  ReserveRequest,
} from "./scheduler/requests.ts";

/**
 * One per connected Pinterest profile (named by the pinterest_profiles row id).
 * Its SQLite storage holds the profile's queue: scheduled pins, repeating pins
 * and the posting state; its single alarm is the next moment something is due.
 * This class is the object's request API (what the worker calls over RPC); the
 * work is done by the parts in scheduler/:
 *
 * - queue-store.ts: the storage (schema, rows and views, meta);
 * - placement.ts: where pins go (free slots, the 48-hour rule);
 * - posting.ts: posting due pins exactly once (docs/decisions/012-scheduling-engine.md);
 * - alarm.ts: the alarm's run and when it rings next;
 * - repeating.ts: repeating pins;
 * - approvals.ts: pins awaiting a reviewer's approval (docs/decisions/052-post-approvals.md);
 * - history-mirror.ts: each waiting pin's state written to its pin-history entry (docs/decisions/066);
 * - analytics.ts: Pinterest's figures for the posted pins, read daily, kept 90 days, with rollups (docs/decisions/093);
 * - requests.ts: the shapes of requests, answers and refusals.
 */
export class ProfileScheduler extends DurableObject<Env> {
  private readonly store: QueueStore;
  private readonly repeating: RepeatingPins;
  private readonly posting: PostingEngine;
  private readonly queueAlarm: QueueAlarm;
  private readonly approvals: ApprovalQueue;
  private readonly mirror: HistoryMirror;
  private readonly analytics: PinAnalytics;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new QueueStore(ctx.storage);
    this.repeating = new RepeatingPins(env, this.store);
    this.posting = new PostingEngine(env, this.store);
    this.mirror = new HistoryMirror(env, this.store);
    this.analytics = new PinAnalytics(env, this.store);
    this.queueAlarm = new QueueAlarm(env, ctx.storage, this.store, this.posting, this.repeating, this.mirror, this.analytics);
    this.approvals = new ApprovalQueue(this.store);
    ctx.blockConcurrencyWhile(async () => {
      this.store.migrate();
      this.approvals.migrate();
      this.mirror.migrate();
      this.analytics.migrate();
    });
  }

  // ================================================================ adding pins

  /**
   * Places new pins, held (not postable) until `confirm` (placement.ts,
   * placeNewPins). A full queue refuses them all.
   */
  reserve(request: ReserveRequest): Reserved | Refusal {
    this.store.remember(request.profileKey);
    this.store.setMeta("posting_interval_ms", String(request.settings.postingIntervalInSeconds * 1000));
    const now = Date.now();
    let pins: ReservedPin[] = [];
    const refused = refusalOf(() => this.store.transaction(() => (pins = placeNewPins(this.store, request, now))));
    return refused ?? { ok: true, pins };
  }

  /** Queues held pins (their credits were charged), awaiting approval when the profile requires it, and arms the alarm. */
  async confirm(
    ids: string[],
    profileStatus: ProfileStatus,
    profileError: string | null,
    awaitingApproval = false,
  ): Promise<{ scheduledPins: ScheduledPin[]; repeatingPins: RepeatingPin[] }> {
    const now = Date.now();
    const reason = profileStatus !== "ok" ? pauseReason(profileStatus, profileError) : null;
    this.store.transaction(() => this.store.confirmAllHeld(ids, reason, now, awaitingApproval));
    await this.queueAlarm.arm();
    const views = this.store.pinViews(ids);
    const repeating = this.store.repeatingViews(ids.map(repeatingIdOf));
    const scheduledPins = ids.map((id) => views.get(id)).filter((pin): pin is ScheduledPin => pin !== undefined);
    const repeatingPins = ids.map((id) => repeating.get(repeatingIdOf(id))).filter((pin): pin is RepeatingPin => pin !== undefined);
    return { scheduledPins, repeatingPins };
  }

  /** Drops held pins whose credits were refused. */
  async release(ids: string[]): Promise<void> {
    this.store.transaction(() => {
      for (const id of ids) this.store.dropHeld(id);
    });
    await this.queueAlarm.arm();
  }

  // ================================================================ reading

  async list(options: {
    view: QueueView;
    sortBy: SortOrder;
    lastPinId?: string;
    limit?: number;
    profileStatus?: ProfileStatus;
    profileError?: string | null;
  }): Promise<ScheduledPinsPage | Refusal> {
    if (options.profileStatus && this.noteProfileStatus(options.profileStatus, options.profileError ?? null)) await this.queueAlarm.arm();
    return this.store.listPins(options);
  }

  /**
   * A page of the queue as its JSON text (written here, so the worker sends it on as it is, without
   * reading and writing it again), with the profile status the queue holds. Without `status` it
   * changes nothing: the worker may ask it before it knows the caller owns the profile, and uses the
   * page only when the caller does and telling the status would change nothing (statusNoteChanges,
   * decision 062). With `status`, the queue is told the profile's status first, as `list` does.
   */
  async pageText(
    options: { view: QueueView; sortBy: SortOrder; lastPinId?: string; limit?: number },
    status?: { profileStatus: ProfileStatus; profileError: string | null },
  ): Promise<PageText | Refusal> {
    if (status && this.noteProfileStatus(status.profileStatus, status.profileError)) await this.queueAlarm.arm();
    const json = this.store.listPinsJson(options);
    if (typeof json !== "string") return json;
    return { ok: true, json, noted: this.store.notedStatus() };
  }

  findPin(id: string): ScheduledPin | null {
    return this.store.pinView(id);
  }

  /**
   * Where each of these pins stands, for pin-history entries this queue has not mirrored (written before
   * the mirror existed, decision 066; every later change is written to the entry): its status, time,
   * posting and error; "deleted" for a pin taken out of the queue (its id is
   * retired, or unknown here). A pin posted and forgotten long ago is answered
   * "deleted" too: the history knows it was posted.
   */
  historyStates(ids: string[]): Record<string, PinHistoryState> {
    return this.store.historyStates(ids);
  }

  findRepeating(id: string): RepeatingPin | null {
    return this.repeating.find(id);
  }

  listRepeating(options: { lastPinId?: string; limit?: number }): RepeatingPinsPage | Refusal {
    return this.repeating.list(options);
  }

  /** How many pins are in each state (tests, benchmarks, the cron index). */
  counts(): Record<PinState, number> {
    return this.store.counts();
  }

  // ================================================================ changing pins

  /**
   * Applies changes to scheduled pins, all or none (placement.ts, changePins):
   * a new time must be in the future, `type: 'Queue'` without a time moves the
   * pin to the next free slot, pins being posted or posted cannot change.
   */
  async updatePins(changes: PinChanges[], settings: SchedulingSettings, fieldPrefixes: string[]): Promise<{ ok: true; pins: ScheduledPin[] } | Refusal> {
    const now = Date.now();
    const refused = refusalOf(() => this.store.transaction(() => changePins(this.store, changes, settings, fieldPrefixes, now)));
    if (refused) return refused;
    await this.queueAlarm.arm();
    return { ok: true, pins: changes.map((c) => this.store.pinView(c.id)).filter((p): p is ScheduledPin => p !== null) };
  }

  async deletePin(id: string): Promise<{ ok: true; pin: ScheduledPin } | Refusal> {
    const pin = this.store.pinView(id);
    if (!pin) return { ok: false, status: 404, message: `No scheduled pin with id ${id}`, field: "pinId" };
    if (pin.status === "posting")
      return { ok: false, status: 409, message: `"${pin.title || pin.id}" is being posted right now and can no longer be deleted.`, field: "pinId" };
    this.store.retirePin(id);
    await this.queueAlarm.arm();
    return { ok: true, pin };
  }

  /** Deletes every pin not posted yet (a pin being posted right now finishes). */
  async deleteAll(): Promise<{ deletedCount: number }> {
    const deleted = this.store.retireWaiting();
    await this.queueAlarm.arm();
    return { deletedCount: deleted };
  }

  /** Gives every Queue pin not posted yet the next free slots from now under the current settings, in queue order. */
  async resetQueueTimes(settings: SchedulingSettings): Promise<{ updatedCount: number }> {
    const now = Date.now();
    const updated = this.store.transaction(() => reslotQueue(this.store, settings, now));
    await this.queueAlarm.arm();
    return { updatedCount: updated };
  }

  // ================================================================ repeating pins

  async updateRepeating(changes: RepeatingChanges[], fieldPrefixes: string[]): Promise<{ ok: true; pins: RepeatingPin[] } | Refusal> {
    const now = Date.now();
    const refused = refusalOf(() => this.store.transaction(() => this.repeating.change(changes, fieldPrefixes, now)));
    if (refused) return refused;
    await this.queueAlarm.arm();
    return { ok: true, pins: changes.map((c) => this.repeating.find(c.id)).filter((p): p is RepeatingPin => p !== null) };
  }

  async deleteRepeating(id: string): Promise<{ ok: true; pin: RepeatingPin } | Refusal> {
    const pin = this.repeating.delete(id);
    if (!pin) return { ok: false, status: 404, message: `No repeating pin with id ${id}`, field: "pinId" };
    await this.queueAlarm.arm();
    return { ok: true, pin };
  }

  // ================================================================ approvals

  /** The pins waiting for a reviewer's approval, soonest first. */
  awaitingApproval(): ScheduledPin[] {
    return this.approvals.awaiting();
  }

  /** Applies a reviewer's decisions, each on its own (approvals.ts), and arms the alarm for the approved pins. */
  async review(decisions: ReviewDecision[], settings: SchedulingSettings, profileStatus: ProfileStatus, profileError: string | null): Promise<ReviewOutcome[]> {
    const reason = profileStatus !== "ok" ? pauseReason(profileStatus, profileError) : null;
    const outcomes = this.approvals.review(decisions, settings, reason, Date.now());
    await this.queueAlarm.arm();
    return outcomes;
  }

  /** Approval was turned off: every waiting pin joins the queue (late ones at the next free slots). */
  async releaseAwaiting(settings: SchedulingSettings, profileStatus: ProfileStatus, profileError: string | null): Promise<{ releasedCount: number }> {
    const reason = profileStatus !== "ok" ? pauseReason(profileStatus, profileError) : null;
    const releasedCount = this.approvals.releaseAll(settings, reason, Date.now());
    await this.queueAlarm.arm();
    return { releasedCount };
  }

  // ================================================================ the profile

  /** Forgets the whole queue (the profile was disconnected). */
  async clear(): Promise<void> {
    const profileKey = this.store.profileKey();
    this.store.clear();
    this.mirror.clear();
    this.analytics.clear();
    await this.ctx.storage.deleteAlarm();
    if (profileKey) await recordSchedulerState(this.env.DB, profileKey, null, 0);
  }

  /**
   * Does the alarm's work now, due or not: what a second delivery of an alarm
   * that already ran does (alarms are delivered at least once). A run already
   * going is joined, not doubled. Only the dev control calls it (local runs,
   * tests and `npm run bench:faults`; never in production).
   */
  async rerunAlarm(): Promise<Record<PinState, number>> {
    await this.alarm();
    return this.counts();
  }

  /** Sets the alarm again from storage; the cron sweep calls it when an alarm went missing. */
  async rearm(): Promise<{ nextDueAt: number | null }> {
    return { nextDueAt: await this.queueAlarm.arm() };
  }

  /** The profile's connection state as the worker just read it: pauses or resumes posting at once. Answers whether anything changed. */
  private noteProfileStatus(status: ProfileStatus, error: string | null): boolean {
    return status === "ok" ? this.store.resume() : this.store.pauseAll(pauseReason(status, error));
  }

  // ================================================================ insights (issue 41)

  /** The window's totals, daily series and breakdowns (the caller adds the username, zone and e-mail choice). */
  analyticsOverview(days: AnalyticsWindow): Omit<AnalyticsOverview, "username" | "days" | "timeZone" | "weeklySummary"> {
    return this.analytics.overview(days);
  }

  analyticsPins(
    days: AnalyticsWindow,
    sortBy: AnalyticsSort,
    limit: number,
    cursor: string | null,
  ): Omit<AnalyticsPinsPage, "username" | "days" | "sortBy"> | Refusal {
    const page = this.analytics.pins(days, sortBy, limit, cursor);
    return "error" in page ? { ok: false, status: 400, message: page.error, field: "cursor" } : page;
  }

  analyticsAudience(): AudienceCell[] {
    return this.analytics.audience();
  }

  analyticsFamilies(): { family: string; pins: number; impressions: number; engagements: number }[] {
    return this.analytics.families();
  }

  analyticsExport(days: AnalyticsWindow) {
    return this.analytics.exportRows(days);
  }

  /**
   * Reads the figures now, due or not, until the pass ends or waits (a 429's reset, a back-off, a profile to
   * reconnect): the dev control "sync this profile's analytics now" (tests, e2e, the benchmark; never in production).
   * `now` moves the object's clock for retention tests.
   */
  async syncAnalyticsNow(profile: Parameters<PinAnalytics["step"]>[0], options: { maxSteps?: number; now?: number } = {}): Promise<AnalyticsStep[]> {
    const steps: AnalyticsStep[] = [];
    for (let i = 0; i < (options.maxSteps ?? 200); i += 1) {
      const step = await this.analytics.step(profile, { force: true, now: options.now });
      steps.push(step);
      if (step.done || step.waitingUntil !== null || step.stopped !== null) break;
    }
    await this.queueAlarm.arm();
    return steps;
  }

  /** Moves posted pins `days` back in time (the dev control of the same name: tests and the benchmark only). */
  backdatePostedPins(days: number): number {
    return this.analytics.backdate(days);
  }

  /** Writes posted pins and their figures in bulk, as tonight's pass would have read them (the dev control of the same name: the benchmark only). */
  fillAnalyticsForBench(profile: Parameters<PinAnalytics["step"]>[0], pins: BulkAnalyticsPin[], now?: number): { pins: number; days: number } {
    return this.analytics.fillForBench(profile, pins, now ?? Date.now());
  }

  // ================================================================ the alarm

  async alarm(): Promise<void> {
    return this.queueAlarm.ring();
  }
}
