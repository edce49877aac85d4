import { ProviderError, providerFetch } from "./http.ts";

/**
 * TikTok Events API 2.0: `POST {TIKTOK_EVENTS_URL}/event/track/` with the
 * `Access-Token` header (https://business-api.tiktok.com/portal/docs?id=1771101027431425).
 * The base URL is https://business-api.tiktok.com/open_api/v1.3 in production
 * and the sandbox locally. TikTok answers 200 with a non-zero `code` on errors.
 */
export interface TikTokEnv {
  TIKTOK_EVENTS_URL: string;
  TIKTOK_PIXEL_CODE: string;
  TIKTOK_ACCESS_TOKEN: string;
}

export interface TikTokEvent {
  event: "AddToCart" | "Subscribe" | "CompleteRegistration";
  /** Seconds since the epoch. */
  event_time: number;
  event_id: string;
  user: { email?: string; ip?: string; user_agent?: string };
  properties?: { currency: "USD"; value: number; content_name?: string };
  page?: { url: string };
}

export async function sendTikTokEvents(env: TikTokEnv, data: TikTokEvent[]): Promise<{ code: number; message: string }> {
  const response = await providerFetch("tiktok", `${env.TIKTOK_EVENTS_URL}/event/track/`, {
    method: "POST",
    headers: { "content-type": "application/json", "access-token": env.TIKTOK_ACCESS_TOKEN },
    body: JSON.stringify({ event_source: "web", event_source_id: env.TIKTOK_PIXEL_CODE, data }),
    timeoutMs: 5_000,
  });
  const answer = (await response.json()) as { code: number; message: string };
  if (answer.code !== 0)
    throw new ProviderError("tiktok", `TikTok refused the event: ${answer.code} ${answer.message}`, response.status, JSON.stringify(answer));
  return answer;
}
