import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../../workers/app.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import {
  connectProfile,
  grantCredits,
  imagePin,
  pinterestName,
  post,
  runAlarm,
  sandboxPins,
  schedulerOf,
  type ConnectedProfile,
} from "../pinterest/scheduling-support.ts";
import { eventually, read, testEnv } from "../support.ts";

/** The dev control that re-runs a profile's alarm (bench:faults, the fault campaign): never in production. */

let user: TestUser;
let profile: ConnectedProfile;
beforeAll(async () => {
  user = await signUpUser({ firstName: "Ilse" });
  await grantCredits(user, 20);
  profile = await connectProfile(user, pinterestName("ilse_rerun"));
});

const rerun = (who: TestUser, username: unknown) => post(who, "/api/dev/scheduling/rerunAlarm", { pinterestProfileUsername: username });

describe("POST /api/dev/scheduling/rerunAlarm", () => {
  it("runs an alarm that already ran again, at once and twice together, and nothing is posted twice", async () => {
    const due = Date.now() + 1_500;
    const pins = [imagePin(profile, { type: "SpecificDate", scheduledTime: due }), imagePin(profile, { type: "SpecificDate", scheduledTime: due + 1 })];
    expect((await post(user, "/api/scheduling/schedulePin", { pins })).status).toBe(201);
    await eventually(async () => (Date.now() > due + 10 ? true : undefined), 5_000, "the pins to fall due");
    await runAlarm(profile);
    await eventually(async () => ((await schedulerOf(profile).counts()).posted === 2 ? true : undefined), 20_000, "both pins to be posted");

    const answers = await Promise.all([rerun(user, profile.username), rerun(user, profile.username), rerun(user, profile.username)]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect((await read(answer)).counts).toMatchObject({ posted: 2, scheduled: 0, posting: 0 });
    }
    expect(await sandboxPins(profile.username)).toHaveLength(2);
  });

  it("answers 400 naming the field for a bad body, and 404 for a profile of another user", async () => {
    const bad = await rerun(user, 42);
    expect(bad.status).toBe(400);
    expect((await read(bad)).field).toBe("pinterestProfileUsername");
    const stranger = await signUpUser({ firstName: "Mads" });
    const theirs = await rerun(stranger, profile.username);
    expect(theirs.status).toBe(404);
    expect((await read(theirs)).field).toBe("pinterestProfileUsername");
  });

  it('does not exist unless DEV_CONTROLS is exactly "on": not in production, nor in a staging deploy or any other APP_ENV', async () => {
    const { DEV_CONTROLS: _on, ...withoutControls } = testEnv;
    const environments = [
      { ...testEnv, APP_ENV: "production", DEV_CONTROLS: "off" },
      { ...withoutControls, APP_ENV: "staging" },
      { ...testEnv, APP_ENV: "development", DEV_CONTROLS: "yes" },
    ];
    for (const env of environments) {
      const ctx = createExecutionContext();
      const request = new Request("http://app.test/api/dev/scheduling/rerunAlarm", json({ pinterestProfileUsername: profile.username }, bearer(user.tokens)));
      const answer = await worker.fetch(request, env as typeof testEnv, ctx);
      await waitOnExecutionContext(ctx);
      expect(answer.status).toBe(404);
      expect(await read(answer)).toEqual({ error: "Not found" });
    }
  });
});
