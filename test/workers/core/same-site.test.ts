import { beforeAll, describe, expect, it } from "vitest";
import type { ScheduledPin } from "../../../contracts/pinterest/scheduling-api.ts";
import { NOT_FROM_OUR_SITE } from "../../../workers/auth/middleware.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, get, grantCredits, imagePin, pinterestName, post, type ConnectedProfile } from "../pinterest/scheduling-support.ts";
import { app, read } from "../support.ts";

// Issue 12, point 7: a call that changes state, GET included, needs proof that our own pages sent
// it (Origin, or Sec-Fetch-Site: same-origin) when the session cookie alone signs it in.

const CROSS_SITE = [
  ["no Origin and no fetch metadata", {}],
  ["a cross-site navigation", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }],
  ["another site's Origin", { origin: "https://evil.example" }],
  ["a same-site but other-origin page", { "sec-fetch-site": "same-site" }],
] as const;

async function queueTimes(user: TestUser, profile: ConnectedProfile): Promise<number[]> {
  const page = await read(await get(user, `/api/scheduling/getScheduledPins/${profile.username}?status=all`));
  return page.scheduledPins.map((pin: ScheduledPin) => pin.scheduledTimeUTCTimestamp);
}

describe("resetScheduledTimes (a GET that changes pins)", () => {
  let user: TestUser;
  let profile: ConnectedProfile;
  beforeAll(async () => {
    user = await signUpUser({ firstName: "Gwen" });
    await grantCredits(user, 20);
    profile = await connectProfile(user, pinterestName("reset"));
    // Pins placed with a slot an hour apart, so a reset would move them.
    for (const when of [5, 6, 7]) {
      const response = await post(
        user,
        "/api/scheduling/schedulePin",
        imagePin(profile, { type: "SpecificDate", scheduledTime: Date.now() + when * 3_600_000 }),
      );
      expect(response.status).toBe(201);
    }
    for (let i = 0; i < 3; i += 1) expect((await post(user, "/api/scheduling/schedulePin", imagePin(profile))).status).toBe(201);
  });

  it.each(CROSS_SITE)("refuses the cookie alone with %s, and changes nothing", async (_what, headers) => {
    const before = await queueTimes(user, profile);
    const response = await app(`/highMemLimitApi/scheduling/resetScheduledTimes/${profile.username}`, { headers: { cookie: user.cookie, ...headers } });
    expect(response.status).toBe(403);
    expect(await read(response)).toEqual({ error: NOT_FROM_OUR_SITE });
    expect(await queueTimes(user, profile)).toEqual(before);
  });

  it("answers our own pages (same-origin fetch metadata or Origin) and bearer callers", async () => {
    const proofs: Record<string, string>[] = [
      { cookie: user.cookie, "sec-fetch-site": "same-origin" },
      { cookie: user.cookie, origin: "http://app.test" },
      bearer(user.tokens),
    ];
    for (const headers of proofs) {
      const response = await app(`/highMemLimitApi/scheduling/resetScheduledTimes/${profile.username}`, { headers });
      expect(response.status).toBe(200);
      expect((await read(response)).updatedCount).toBe(3);
    }
  });
});

describe("logout", () => {
  it.each(CROSS_SITE)("refuses the cookie alone with %s, and the session stays signed in", async (_what, headers) => {
    const user = await signUpUser({ firstName: "Lars" });
    const response = await app("/api/logout", json({}, { cookie: user.cookie, ...headers }));
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await app("/api/user", { headers: { cookie: user.cookie } })).status).toBe(200);
  });

  it("signs out from our own page with the cookie", async () => {
    const user = await signUpUser({ firstName: "Lena" });
    const response = await app("/api/logout", json({}, { cookie: user.cookie, origin: "http://app.test" }));
    expect(response.status).toBe(200);
    expect((await app("/api/user", { headers: { cookie: user.cookie } })).status).toBe(401);
  });
});
