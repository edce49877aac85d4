import type { PinContent } from "../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../contracts/pinterest/scheduling.ts";
import { assignQueueSlots, DUPLICATE_WINDOW_MS, duplicateKeyOf, linkKey } from "../../workers/domain/pin-queue.ts";
import { ACTIVE_STATES, LINK_STATES, type PinRow, type QueueStore } from "./queue-store.ts";
import { changedContent, refusal, type DuplicateRefusal, type NewPinInput, type PinChanges, type ReservedPin, type ReserveRequest } from "./requests.ts";

/**
 * Where pins go in the queue: new pins take their time or the next free slots
 * (workers/domain/pin-queue.ts), changed pins move, and every placement keeps
 * the 48-hour rule (the same link is not posted to the same board twice within
 * 48 hours unless the pin allows it). Each function here is one transaction's
 * body: a refusal it throws rolls the whole change back (requests.ts, refusalOf).
 */

/**
 * Places new pins (held: not postable until confirmed): Queue pins take the
 * next free slots that keep the 48-hour rule, SpecificDate pins keep their
 * time and are refused on their own ("refused", with the 409 a single pin's
 * call answers) when they break it; the others are placed all the same. A pin
 * id already here answers "existing" (a retried schedule). A full queue
 * refuses them all (NoFreeSlot).
 */
export function placeNewPins(store: QueueStore, request: ReserveRequest, now: number): ReservedPin[] {
  const result: ReservedPin[] = [];
  const fresh: { pin: NewPinInput; index: number }[] = [];
  // What is already known of these ids: two queries for the whole request, not two per pin.
  const ids = JSON.stringify(request.pins.map((pin) => pin.id));
  const known = new Map(
    store.sql
      .exec<{ id: string; status: string; scheduled_time: number }>(
        `SELECT id, status, scheduled_time FROM pins WHERE id IN (SELECT value FROM json_each(?))`,
        ids,
      )
      .toArray()
      .map((row) => [row.id, row]),
  );
  const retired = new Set(
    store.sql
      .exec<{ id: string }>(`SELECT id FROM retired_pins WHERE id IN (SELECT value FROM json_each(?))`, ids)
      .toArray()
      .map((row) => row.id),
  );
  request.pins.forEach((pin, index) => {
    const existing = known.get(pin.id);
    if (existing)
      result.push(existing.status === "held" ? { id: pin.id, state: "held", scheduledTime: existing.scheduled_time } : { id: pin.id, state: "existing" });
    else if (retired.has(pin.id)) result.push({ id: pin.id, state: "gone" });
    else {
      result.push({ id: pin.id, state: "held", scheduledTime: 0 });
      fresh.push({ pin, index });
    }
  });
  const queued = fresh.filter(({ pin }) => pin.type === "Queue");
  const keyTimes = new Map<string, number[]>();
  for (const { pin } of queued) {
    const key = pin.allowDuplicate ? null : duplicateKeyOf(pin.boardId, linkKey(pin.url));
    if (key !== null && !keyTimes.has(key)) keyTimes.set(key, timesOfLink(store, pin.boardId, linkKey(pin.url)));
  }
  // SpecificDate pins first: Queue pins then keep 48 hours from them too.
  for (const { pin, index } of fresh) {
    if (pin.type !== "SpecificDate") continue;
    const at = pin.scheduledTime as number;
    const clash = duplicateOf(store, pin.id, pin.boardId, pin.url, pin.boardName, pin.title, at, pin.allowDuplicate, request.fieldPrefixes[index]);
    if (clash) {
      result[index] = { id: pin.id, state: "refused", refusal: clash };
      continue;
    }
    store.insertPin(pin, request, at, "held", now);
    result[index] = { id: pin.id, state: "held", scheduledTime: at };
    const key = pin.allowDuplicate ? null : duplicateKeyOf(pin.boardId, linkKey(pin.url));
    if (key !== null && keyTimes.has(key)) keyTimes.get(key)!.push(at);
  }
  if (queued.length > 0) {
    const slots = assignQueueSlots(
      request.settings,
      now,
      takenTimes(store, now),
      queued.map(({ pin }) => ({ duplicateKey: pin.allowDuplicate ? null : duplicateKeyOf(pin.boardId, linkKey(pin.url)) })),
      keyTimes,
    );
    queued.forEach(({ pin, index }, i) => {
      store.insertPin(pin, request, slots[i], "held", now);
      result[index] = { id: pin.id, state: "held", scheduledTime: slots[i] };
    });
  }
  return result;
}

/**
 * Applies changes to scheduled pins, all or none. A new time must be in the
 * future; `type: 'Queue'` without a time moves the pin to the next free
 * slot; a failed pin that is changed is queued again. Pins being posted or
 * already posted cannot change (409).
 */
export function changePins(store: QueueStore, changes: PinChanges[], settings: SchedulingSettings, fieldPrefixes: string[], now: number) {
  const reslot: { id: string; key: string | null }[] = [];
  const checks: { row: PinRow; prefix: string }[] = [];
  changes.forEach((change, index) => {
    const prefix = fieldPrefixes[index] ?? "";
    const row = store.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ? AND status != 'held'`, change.id).toArray()[0];
    if (!row) throw refusal(404, `No scheduled pin with id ${change.id}`, `${prefix}id`);
    if (row.status === "posting") throw refusal(409, `"${titleOf(row)}" is being posted right now and can no longer be changed.`, `${prefix}id`);
    if (row.status === "posted") throw refusal(409, `"${titleOf(row)}" was already posted to Pinterest and can no longer be changed.`, `${prefix}id`);
    const content = changedContent(JSON.parse(row.data) as PinContent, change, prefix);
    let type = change.type ?? row.type;
    let time = row.scheduled_time;
    if (change.scheduledTime !== undefined) {
      if (change.scheduledTime <= now) throw refusal(400, "scheduledTime must be in the future", `${prefix}scheduledTime`);
      time = change.scheduledTime;
    } else if (change.type === "Queue") {
      type = "Queue";
      reslot.push({ id: row.id, key: content.allowDuplicate ? null : duplicateKeyOf(content.boardId, linkKey(content.url)) });
    }
    const status = row.status === "failed" ? "scheduled" : row.status;
    store.sql.exec(
      `UPDATE pins SET type = ?, status = ?, scheduled_time = ?, next_attempt_at = ?, board_id = ?, link_key = ?, allow_duplicate = ?, data = ?,
         failures = CASE WHEN ? = 'failed' THEN 0 ELSE failures END, last_error = CASE WHEN ? = 'failed' THEN NULL ELSE last_error END, updated_at = ?
       WHERE id = ?`,
      type,
      status,
      time,
      time === row.scheduled_time && row.status !== "failed" ? row.next_attempt_at : time,
      content.boardId,
      linkKey(content.url),
      content.allowDuplicate ? 1 : 0,
      JSON.stringify(content),
      row.status,
      row.status,
      now,
      row.id,
    );
    const placementChanged =
      time !== row.scheduled_time ||
      content.boardId !== row.board_id ||
      linkKey(content.url) !== row.link_key ||
      (!content.allowDuplicate && row.allow_duplicate === 1);
    if (placementChanged || row.status === "failed") checks.push({ row: { ...row, scheduled_time: time }, prefix });
  });
  moveToNextFreeSlots(store, reslot, settings, now);
  for (const { row, prefix } of checks) {
    const current = store.sql.exec<PinRow>(`SELECT * FROM pins WHERE id = ?`, row.id).one();
    const content = JSON.parse(current.data) as PinContent;
    const clash = duplicateOf(
      store,
      current.id,
      current.board_id,
      content.url,
      content.boardName,
      content.title,
      current.scheduled_time,
      current.allow_duplicate === 1,
      prefix,
    );
    if (clash) throw refusal(clash.status, clash.message, clash.field);
  }
}

/**
 * Moves these pins (in this order) to the next free slots from now that keep the 48-hour rule: a Queue pin
 * sent to the back, or a pin whose time passed while it waited for approval. Answers each pin's new time.
 */
export function moveToNextFreeSlots(store: QueueStore, pins: { id: string; key: string | null }[], settings: SchedulingSettings, now: number): number[] {
  if (pins.length === 0) return [];
  const ids = new Set(pins.map((r) => r.id));
  const keyTimes = new Map<string, number[]>();
  for (const { id, key } of pins) {
    if (key === null || keyTimes.has(key)) continue;
    const row = store.sql.exec<PinRow>(`SELECT board_id, link_key FROM pins WHERE id = ?`, id).one();
    keyTimes.set(key, timesOfLink(store, row.board_id, row.link_key, ids));
  }
  const taken = takenTimes(store, now, ids);
  const slots = assignQueueSlots(
    settings,
    now,
    taken,
    pins.map((r) => ({ duplicateKey: r.key })),
    keyTimes,
  );
  pins.forEach(({ id }, i) => {
    store.sql.exec(`UPDATE pins SET scheduled_time = ?, next_attempt_at = ? WHERE id = ?`, slots[i], slots[i], id);
  });
  return slots;
}

/** Gives every Queue pin not posted yet the next free slots from now under these settings, in queue order. Answers how many moved. */
export function reslotQueue(store: QueueStore, settings: SchedulingSettings, now: number): number {
  const rows = store.sql
    .exec<PinRow>(
      `SELECT id, board_id, link_key, allow_duplicate FROM pins WHERE type = 'Queue' AND status IN ('scheduled', 'awaiting', 'paused') ORDER BY scheduled_time, id`,
    )
    .toArray();
  if (rows.length === 0) return 0;
  const ids = new Set(rows.map((row) => row.id));
  const keyTimes = new Map<string, number[]>();
  const requests = rows.map((row) => {
    const key = row.allow_duplicate === 1 ? null : duplicateKeyOf(row.board_id, row.link_key);
    if (key !== null && !keyTimes.has(key)) keyTimes.set(key, timesOfLink(store, row.board_id, row.link_key, ids));
    return { duplicateKey: key };
  });
  const slots = assignQueueSlots(settings, now, takenTimes(store, now, ids), requests, keyTimes);
  rows.forEach((row, i) => {
    store.sql.exec(`UPDATE pins SET scheduled_time = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?`, slots[i], slots[i], now, row.id);
  });
  return rows.length;
}

/** The 48-hour rule's refusal of a pin at `at` (null when it keeps the rule): the message and the pin it would clash with. */
function duplicateOf(
  store: QueueStore,
  id: string,
  boardId: string,
  url: string,
  boardName: string,
  title: string,
  at: number,
  allowDuplicate: boolean,
  prefix: string,
): DuplicateRefusal | null {
  const key = linkKey(url);
  if (allowDuplicate || key === null) return null;
  const other = store.sql
    .exec<{ id: string; at: number; data: string; status: string }>(
      `SELECT id, data, status, CASE WHEN status = 'posted' THEN posted_at ELSE scheduled_time END AS at FROM pins
         WHERE board_id = ? AND link_key = ? AND id != ? AND status IN ${LINK_STATES}
           AND ABS((CASE WHEN status = 'posted' THEN posted_at ELSE scheduled_time END) - ?) < ? LIMIT 1`,
      boardId,
      key,
      id,
      at,
      DUPLICATE_WINDOW_MS,
    )
    .toArray()[0];
  if (!other) return null;
  const otherContent = JSON.parse(other.data) as PinContent;
  const when = new Date(other.at).toISOString().replace(".000Z", "Z");
  return {
    status: 409,
    message:
      `"${title || url}" links to ${url}, which ${other.status === "posted" ? "was posted" : "is scheduled"} to board ${boardName ? `"${boardName}"` : boardId} at ${when}${otherContent.title ? ` ("${otherContent.title}")` : ""}. ` +
      `The same link is not posted to the same board twice within 48 hours: pick a time at least 48 hours apart, or set allowDuplicate to post it anyway.`,
    field: `${prefix}scheduledTime`,
    conflict: {
      title: otherContent.title,
      state: other.status === "posted" ? "posted" : "scheduled",
      at: new Date(other.at).toISOString(),
      atUTCTimestamp: other.at,
      boardName: otherContent.boardName || boardName,
    },
  };
}

/** Times (scheduled, or posted) of pins with this board and link that the 48-hour rule counts. */
function timesOfLink(store: QueueStore, boardId: string, key: string | null, except: ReadonlySet<string> = new Set()): number[] {
  if (key === null) return [];
  return store.sql
    .exec<{ id: string; at: number }>(
      `SELECT id, CASE WHEN status = 'posted' THEN posted_at ELSE scheduled_time END AS at FROM pins
         WHERE board_id = ? AND link_key = ? AND status IN ${LINK_STATES}`,
      boardId,
      key,
    )
    .toArray()
    .filter((row) => !except.has(row.id))
    .map((row) => row.at);
}

/** Slot instants already used by pins waiting to post. */
function takenTimes(store: QueueStore, now: number, except: ReadonlySet<string> = new Set()): Set<number> {
  const taken = new Set<number>();
  for (const row of store.sql.exec<{ id: string; scheduled_time: number }>(
    `SELECT id, scheduled_time FROM pins WHERE status IN ${ACTIVE_STATES} AND scheduled_time > ?`,
    now,
  )) {
    if (!except.has(row.id)) taken.add(row.scheduled_time);
  }
  return taken;
}

function titleOf(row: PinRow) {
  return (JSON.parse(row.data) as PinContent).title || row.id;
}
