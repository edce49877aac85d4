import { providerFetch } from "./http.ts";

/**
 * Meta (Facebook) Conversions API: `POST {META_CAPI_URL}/{pixel id}/events`
 * with the access token as a query parameter, as Meta documents
 * (https://developers.facebook.com/docs/marketing-api/conversions-api). The
 * base URL is https://graph.facebook.com/v21.0 in production and the sandbox locally.
 */
export interface MetaEnv {
  META_CAPI_URL: string;
  META_PIXEL_ID: string;
  META_CAPI_TOKEN: string;
}

export interface MetaServerEvent {
  event_name: "AddToCart" | "Subscribe" | "CompleteRegistration";
  /** Seconds since the epoch. */
  event_time: number;
  event_id: string;
  action_source: "website";
  event_source_url?: string;
  user_data: { em?: string[]; client_ip_address?: string; client_user_agent?: string };
  custom_data?: { currency: "USD"; value: number; content_name?: string };
}

export async function sendMetaEvents(env: MetaEnv, events: MetaServerEvent[]): Promise<{ events_received: number }> {
  const url = `${env.META_CAPI_URL}/${encodeURIComponent(env.META_PIXEL_ID)}/events?access_token=${encodeURIComponent(env.META_CAPI_TOKEN)}`;
  const response = await providerFetch("meta", url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ data: events }),
    timeoutMs: 5_000,
  });
  return (await response.json()) as { events_received: number };
}
