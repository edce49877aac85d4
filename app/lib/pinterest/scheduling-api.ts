import type * as v from "valibot";
import {
  PIN_HISTORY_PAGE_SIZE,
  type NewScheduledPin,
  type PinHistoryItem,
  type PinHistoryPage,
  type QueueView,
  type RepeatingPin,
  type RepeatingPinsPage,
  type RepeatingPinUpdate,
  type ScheduledPinsPage,
  type ScheduledPinUpdate,
  type ScheduleResponse,
  type UpdatedPinResponse,
} from "../../../contracts/pinterest/scheduling-api.ts";
import type { SchedulingSettings } from "../../../contracts/pinterest/scheduling.ts";
import { ApiError, apiJson } from "../api-client.ts";
import { creditsMayHaveChanged } from "../credit-events.ts";

/** The scheduling calls (spec section 7, Scheduling), as the browser makes them. */

export type NewPinBody = v.InferInput<typeof NewScheduledPin>;
export type PinUpdateBody = v.InferInput<typeof ScheduledPinUpdate>;
export type SortBy = "scheduledTimeUTCTimestamp-asc" | "scheduledTimeUTCTimestamp-desc";

const profilePath = (path: string, username: string) => `${path}/${encodeURIComponent(username)}`;

export function getScheduledPins(username: string, options: { lastPinId?: string | null; sortBy?: SortBy; status?: QueueView } = {}) {
  const query = new URLSearchParams();
  if (options.lastPinId) query.set("lastPinId", options.lastPinId);
  if (options.sortBy) query.set("sortBy", options.sortBy);
  if (options.status) query.set("status", options.status);
  const search = query.toString();
  return apiJson<ScheduledPinsPage>(`${profilePath("/api/scheduling/getScheduledPins", username)}${search ? `?${search}` : ""}`);
}

export function getRepeatingPins(username: string, lastPinId?: string | null) {
  return apiJson<RepeatingPinsPage>(
    `${profilePath("/api/scheduling/getRepeatingPins", username)}${lastPinId ? `?lastPinId=${encodeURIComponent(lastPinId)}` : ""}`,
  );
}

export function saveSchedulingSettings(newSettings: SchedulingSettings, pinterestProfileUsername: string) {
  return apiJson<unknown>("/api/scheduling/saveSchedulingSettings", { json: { newSettings, pinterestProfileUsername } });
}

export function updateScheduledPin(pin: PinUpdateBody) {
  return apiJson<unknown>("/api/scheduling/updateScheduledPin", { json: { pin } });
}

export function updateScheduledPins(pinterestUsername: string, pinsToUpdate: PinUpdateBody[]) {
  return apiJson<unknown>("/api/scheduling/updateScheduledPins", { json: { pinterestUsername, pinsToUpdate } });
}

export function deleteScheduledPin(pinId: string) {
  return apiJson<unknown>("/api/scheduling/deleteScheduledPin", { json: { pinId } });
}

export type RepeatingPinUpdateBody = v.InferInput<typeof RepeatingPinUpdate>;

export function updateRepeatingPin(pin: RepeatingPinUpdateBody) {
  return apiJson<UpdatedPinResponse<RepeatingPin>>("/api/scheduling/updateRepeatingPin", { json: { pin } });
}

export function deleteRepeatingPin(pinId: string) {
  return apiJson<unknown>("/api/scheduling/deleteRepeatingPin", { json: { pinId } });
}

export function deleteAllScheduledPins(pinterestProfileUsername: string) {
  return apiJson<unknown>("/highMemLimitApi/scheduling/deleteAllScheduledPins", { json: { pinterestProfileUsername } });
}

export function resetScheduledTimes(username: string) {
  return apiJson<unknown>(profilePath("/highMemLimitApi/scheduling/resetScheduledTimes", username));
}

export interface PinHistoryCursor {
  startAtDate: number | null;
  lastId?: string;
}

export function getPinHistory(cursor: PinHistoryCursor) {
  return apiJson<PinHistoryPage>("/api/user/getPinHistory", { json: cursor });
}

/**
 * The cursor of the next pin history page, or null when there is none: more
 * is asked for only while the count loaded is a multiple of the page size
 * (the last page was full; spec section 7).
 */
export function nextPinHistoryCursor(loadedCount: number, page: readonly PinHistoryItem[]): PinHistoryCursor | null {
  if (page.length === 0 || loadedCount % PIN_HISTORY_PAGE_SIZE !== 0) return null;
  const last = page[page.length - 1];
  return { startAtDate: last.createdAtUTCTimestamp, lastId: last.id };
}

// ------------------------------------------------------------------ schedulePin

export const RETRY_503_MESSAGE = "Please try again - Error 503";

/** What a failed schedulePin shows (spec section 8): 'Please try again - Error 503' after a retried 503, otherwise status - body. */
export function scheduleFailureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.status === 503 ? RETRY_503_MESSAGE : `${error.status} - ${error.message}`;
  if (error instanceof Error && error.message) return `Network error - ${error.message}`;
  return "Network error - Please try again.";
}

/** POST /api/scheduling/schedulePin with {pins}: all or nothing. A 503 is tried once more. */
export async function schedulePins(
  pins: NewPinBody[],
  post: <T>(path: string, body: unknown) => Promise<T> = (path, body) => apiJson(path, { json: body }),
): Promise<ScheduleResponse> {
  const call = () => post<ScheduleResponse>("/api/scheduling/schedulePin", { pins });
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) return call();
    throw error;
  } finally {
    // Scheduled pins are charged: the balance shown is read again.
    creditsMayHaveChanged();
  }
}
