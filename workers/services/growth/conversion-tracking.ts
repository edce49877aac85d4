import { sendMetaEvents, type MetaEnv } from "../../integrations/meta-conversions.ts";
import { sendTikTokEvents, type TikTokEnv } from "../../integrations/tiktok-events.ts";
import type { TrackingResponse } from "../../../contracts/growth/tracking.ts";

/**
 * Conversion events for Meta and TikTok, sent server-side. Only the live
 * configuration (APP_ENV=production, with the platform's keys set) sends
 * anything; local and test configurations answer `sent: false` and reach no
 * provider. E-mails leave the worker hashed (SHA-256 of the trimmed,
 * lowercased address), as both platforms require.
 */
export type TrackedEvent = "AddToCart" | "Subscribe" | "CompleteRegistration";

export interface TrackingEnv extends Partial<MetaEnv>, Partial<TikTokEnv> {
  APP_ENV: string;
}

export interface TrackingInput {
  event: TrackedEvent;
  email: string;
  value: number;
  planId: string;
  eventSourceUrl: string;
  eventId: string;
  ip: string | null;
  userAgent: string | null;
}

export async function hashEmail(email: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase()));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const OFF: TrackingResponse = { sent: false, reason: "Conversion tracking is off in this configuration." };

function liveMeta(env: TrackingEnv): MetaEnv | null {
  return env.APP_ENV === "production" && env.META_CAPI_URL && env.META_PIXEL_ID && env.META_CAPI_TOKEN
    ? { META_CAPI_URL: env.META_CAPI_URL, META_PIXEL_ID: env.META_PIXEL_ID, META_CAPI_TOKEN: env.META_CAPI_TOKEN }
    : null;
}

function liveTikTok(env: TrackingEnv): TikTokEnv | null {
  return env.APP_ENV === "production" && env.TIKTOK_EVENTS_URL && env.TIKTOK_PIXEL_CODE && env.TIKTOK_ACCESS_TOKEN
    ? { TIKTOK_EVENTS_URL: env.TIKTOK_EVENTS_URL, TIKTOK_PIXEL_CODE: env.TIKTOK_PIXEL_CODE, TIKTOK_ACCESS_TOKEN: env.TIKTOK_ACCESS_TOKEN }
    : null;
}

const eventTime = () => Math.floor(Date.now() / 1000);
const eventIdOf = (input: TrackingInput) => input.eventId || `${input.event}:${crypto.randomUUID()}`;
const trackedValue = (input: TrackingInput) => (input.event === "CompleteRegistration" ? undefined : input.value);

export async function trackMeta(env: TrackingEnv, input: TrackingInput): Promise<TrackingResponse> {
  const meta = liveMeta(env);
  if (!meta) return OFF;
  const value = trackedValue(input);
  await sendMetaEvents(meta, [
    {
      event_name: input.event,
      event_time: eventTime(),
      event_id: eventIdOf(input),
      action_source: "website",
      ...(input.eventSourceUrl ? { event_source_url: input.eventSourceUrl } : {}),
      user_data: {
        em: [await hashEmail(input.email)],
        ...(input.ip ? { client_ip_address: input.ip } : {}),
        ...(input.userAgent ? { client_user_agent: input.userAgent } : {}),
      },
      ...(value !== undefined ? { custom_data: { currency: "USD" as const, value, ...(input.planId ? { content_name: input.planId } : {}) } } : {}),
    },
  ]);
  return { sent: true };
}

export async function trackTikTok(env: TrackingEnv, input: TrackingInput): Promise<TrackingResponse> {
  const tiktok = liveTikTok(env);
  if (!tiktok) return OFF;
  const value = trackedValue(input);
  await sendTikTokEvents(tiktok, [
    {
      event: input.event,
      event_time: eventTime(),
      event_id: eventIdOf(input),
      user: {
        email: await hashEmail(input.email),
        ...(input.ip ? { ip: input.ip } : {}),
        ...(input.userAgent ? { user_agent: input.userAgent } : {}),
      },
      ...(value !== undefined ? { properties: { currency: "USD" as const, value, ...(input.planId ? { content_name: input.planId } : {}) } } : {}),
      ...(input.eventSourceUrl ? { page: { url: input.eventSourceUrl } } : {}),
    },
  ]);
  return { sent: true };
}
