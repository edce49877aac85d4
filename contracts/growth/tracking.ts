import * as v from "valibot";
import { body, PlanId } from "../fields.ts";

/**
 * Conversion tracking calls (live configuration only): /api/facebook/{addToCart,subscribe,completeRegistration}
 * and /api/tiktok/{addToCart,subscribe,signup}. The e-mail is the signed-in user's, hashed with SHA-256
 * on the server; the value is in USD.
 */
export const TrackingBody = body({
  value: v.optional(v.pipe(v.number("value must be a number"), v.minValue(0, "value must not be negative"), v.maxValue(100_000, "value is too large")), 0),
  /** The plan the event was about, when it was about one. */
  planId: v.optional(v.union([v.literal(""), PlanId("planId")], "planId must be a plan id such as starter-monthly"), ""),
  /** The page the event happened on. */
  eventSourceUrl: v.optional(v.pipe(v.string(), v.maxLength(2048)), ""),
  /** Deduplication id shared with the browser pixel, when there is one. */
  eventId: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9:_.-]{0,100}$/, "eventId must be at most 100 letters, digits or :_.-")), ""),
});

export interface TrackingResponse {
  /** False when tracking is off in this configuration (local and test), or not configured. */
  sent: boolean;
  reason?: string;
}
