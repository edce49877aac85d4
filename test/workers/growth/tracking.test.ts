import { beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../../workers/integrations/http.ts";
import { hashEmail, trackMeta, trackTikTok, type TrackingInput } from "../../../workers/services/growth/conversion-tracking.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

interface Recorded {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the recorded request's JSON body, read field by field in assertions.
  body: Record<string, any>;
}
const received = (service: "meta" | "tiktok") => sandbox<Recorded[]>(`/requests?service=${service}`);
const live = { ...testEnv, APP_ENV: "production" };

let user: TestUser;
beforeAll(async () => {
  user = await signUpUser({ email: `Tracked.${Date.now()}@Example.com` });
});

const input = (overrides: Partial<TrackingInput> = {}): TrackingInput => ({
  event: "Subscribe",
  email: user.email,
  value: 16.99,
  planId: "starter-monthly",
  eventSourceUrl: "https://app.pinboard.studio/pricing",
  eventId: `evt-${crypto.randomUUID()}`,
  ip: "203.0.113.9",
  userAgent: "Mozilla/5.0",
  ...overrides,
});

describe("conversion tracking", () => {
  it("is off in the test configuration: the call answers sent false and no provider hears of it", async () => {
    const before = (await received("meta")).length + (await received("tiktok")).length;
    for (const path of [
      "/api/facebook/addToCart",
      "/api/facebook/subscribe",
      "/api/facebook/completeRegistration",
      "/api/tiktok/addToCart",
      "/api/tiktok/subscribe",
      "/api/tiktok/signup",
    ]) {
      const response = await app(path, json({ value: 16.99, planId: "starter-monthly" }, bearer(user.tokens)));
      expect(response.status, path).toBe(200);
      expect(await read(response)).toMatchObject({ sent: false });
    }
    expect((await received("meta")).length + (await received("tiktok")).length).toBe(before);
  });

  it("checks input and sign-in", async () => {
    const bad = await app("/api/facebook/subscribe", json({ value: -5 }, bearer(user.tokens)));
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "value" });
    expect((await app("/api/tiktok/signup", json({}))).status).toBe(401);
  });

  it("sends Meta a subscribe event with the e-mail hashed and the value in USD, in the live configuration", async () => {
    const event = input();
    expect(await trackMeta(live, event)).toEqual({ sent: true });
    const sent = (await received("meta")).find((r) => r.body?.data?.[0]?.event_id === event.eventId)!;
    expect(sent.path).toBe(`/${testEnv.META_PIXEL_ID}/events`);
    const [data] = sent.body.data;
    expect(data.user_data.em).toEqual([await hashEmail(user.email)]);
    expect(data.user_data.em[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(sent.body)).not.toContain(user.email.split("@")[0]);
    expect(data.custom_data).toEqual({ currency: "USD", value: 16.99, content_name: "starter-monthly" });
  });

  it("sends TikTok a sign-up event without a value", async () => {
    const event = input({ event: "CompleteRegistration", value: 0 });
    expect(await trackTikTok(live, event)).toEqual({ sent: true });
    const sent = (await received("tiktok")).find((r) => r.body?.data?.[0]?.event_id === event.eventId)!;
    expect(sent.body).toMatchObject({ event_source: "web", event_source_id: testEnv.TIKTOK_PIXEL_CODE });
    expect(sent.body.data[0]).toMatchObject({ event: "CompleteRegistration", user: { email: await hashEmail(user.email) } });
    expect(sent.body.data[0].properties).toBeUndefined();
  });

  it("hashes the trimmed, lowercased address", async () => {
    expect(await hashEmail("  Maya@Example.COM ")).toBe(await hashEmail("maya@example.com"));
  });

  it("reports a provider failure as a ProviderError (the route then answers sent false)", async () => {
    await sandbox("/faults", { method: "POST", json: { service: "meta", status: 500, times: 1 } });
    await expect(trackMeta(live, input())).rejects.toBeInstanceOf(ProviderError);
  });
});
