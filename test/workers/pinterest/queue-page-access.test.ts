import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { REAUTHENTICATE_MESSAGE } from "../../../contracts/pinterest/pinterest-connection.ts";
import { database } from "../../../workers/db/client.ts";
import { pinterestProfiles, users } from "../../../workers/db/schema.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, post, type ConnectedProfile } from "./scheduling-support.ts";
import { app, read, testEnv } from "../support.ts";

/**
 * Decision 062: the queue page signs the caller in and reads the profile in one D1 query, and starts its
 * Durable Object read alongside once the token's signature checks out. Whoever may not read the queue
 * still gets nothing of it, on the first request and on every one after (when a read was started early).
 */

let admin: TestUser;
let owner: TestUser;
let stranger: TestUser;
let profile: ConnectedProfile;
let titles: string[];

const pagePath = (username = profile.username) => `/api/scheduling/getScheduledPins/${username}`;
/** How the page was read, from its Server-Timing header: "alongside the check" or "after the check". */
const readWay = (response: Response) => /read;desc="([^"]+)"/.exec(response.headers.get("server-timing") ?? "")?.[1];

async function ownerPage(headers: Record<string, string> = bearer(owner.tokens)) {
  const response = await app(pagePath(), { headers });
  expect(response.status).toBe(200);
  return { way: readWay(response), page: await read(response) };
}

/** Asserts an answer refused the caller and holds nothing of the queue. */
async function expectRefused(response: Response, status: number, message: string) {
  expect(response.status).toBe(status);
  const text = await response.text();
  expect(JSON.parse(text)).toEqual(status === 404 ? { error: message, field: "username" } : { error: message });
  for (const title of titles) expect(text).not.toContain(title);
}

beforeAll(async () => {
  [admin, owner, stranger] = await Promise.all([signUpUser({ firstName: "Ada" }), signUpUser({ firstName: "Orla" }), signUpUser({ firstName: "Stig" })]);
  await database(testEnv.DB).update(users).set({ role: "admin" }).where(eq(users.id, admin.userId));
  await grantCredits(owner, 10);
  profile = await connectProfile(owner, pinterestName("orla_queue"));
  const pins = [imagePin(profile), imagePin(profile), imagePin(profile)];
  titles = pins.map((pin) => pin.title);
  expect((await post(owner, "/api/scheduling/schedulePin", { pins })).status).toBe(201);
});

describe("the queue page after its sign-in and profile checks became one query", () => {
  it("shows the owner their queue, the same whether its read started alongside the check or after it, by token or by cookie", async () => {
    const first = await ownerPage();
    expect(first.page.totalCount).toBe(3);
    expect(first.page.scheduledPins.map((pin: { title: string }) => pin.title).sort()).toEqual([...titles].sort());
    const again = await ownerPage();
    expect(again.way).toBe("alongside the check");
    expect(again.page).toEqual(first.page);
    const byCookie = await ownerPage({ cookie: owner.cookie });
    expect(byCookie.way).toBe("after the check");
    expect(byCookie.page).toEqual(first.page);
  });

  it("refuses a visitor, a bad token and another user, and tells no one whether the name exists", async () => {
    await ownerPage();
    await expectRefused(await app(pagePath()), 401, "Please log in to continue.");
    await expectRefused(
      await app(pagePath(), { headers: { authorization: `Bearer ${owner.tokens.idToken}x` } }),
      403,
      "Your sign-in has expired. Please log in again.",
    );
    await expectRefused(await app(pagePath(), { headers: { authorization: "Bearer" } }), 403, "Your sign-in has expired. Please log in again.");
    const notConnected = `No Pinterest profile named ${profile.username} is connected.`;
    await expectRefused(await app(pagePath(), { headers: bearer(stranger.tokens) }), 404, notConnected);
    await expectRefused(await app(pagePath(), { headers: { cookie: stranger.cookie } }), 404, notConnected);
    // The stranger reading a profile of theirs by the same name first changes nothing.
    await expectRefused(await app(pagePath(), { headers: bearer(stranger.tokens) }), 404, notConnected);
  });

  it("refuses a user as soon as an admin blocks them, and serves them again once unblocked and signed in again", async () => {
    expect((await ownerPage()).way).toBe("alongside the check");
    // Marked blocked with a sign-in still open (its token checks out, so a read starts alongside): refused all the same.
    const db = database(testEnv.DB);
    await db.update(users).set({ blockedAt: Date.now() }).where(eq(users.id, owner.userId));
    await expectRefused(await app(pagePath(), { headers: bearer(owner.tokens) }), 403, "Your sign-in has expired. Please log in again.");
    await expectRefused(await app(pagePath(), { headers: { cookie: owner.cookie } }), 401, "Please log in to continue.");
    await db.update(users).set({ blockedAt: null }).where(eq(users.id, owner.userId));
    expect((await ownerPage()).way).toBe("alongside the check");
    expect((await app(`/api/admin/users/${owner.userId}/block`, json({}, bearer(admin.tokens)))).status).toBe(200);
    await expectRefused(await app(pagePath(), { headers: bearer(owner.tokens) }), 403, "Your sign-in has expired. Please log in again.");
    await expectRefused(await app(pagePath(), { headers: { cookie: owner.cookie } }), 401, "Please log in to continue.");
    expect((await app(`/api/admin/users/${owner.userId}/unblock`, json({}, bearer(admin.tokens)))).status).toBe(200);
    // Blocking ended the user's sign-ins: the old token stays refused, a new sign-in reads the queue.
    await expectRefused(await app(pagePath(), { headers: bearer(owner.tokens) }), 403, "Your sign-in has expired. Please log in again.");
    const login = await app("/api/login", json({ email: owner.email, password: owner.password }));
    expect(login.status).toBe(200);
    owner.tokens = await read(login);
    expect((await ownerPage()).page.totalCount).toBe(3);
  });

  it("shows pins paused the moment D1 says the profile needs reconnecting, and queued again once it is fixed", async () => {
    expect((await ownerPage()).way).toBe("alongside the check");
    const db = database(testEnv.DB);
    await db.update(pinterestProfiles).set({ status: "reauth", lastError: "token revoked" }).where(eq(pinterestProfiles.id, profile.profileId));
    const paused = await ownerPage();
    expect(paused.way).toBe("after the check");
    expect(paused.page.scheduledPins.map((pin: { status: string }) => pin.status)).toEqual(["paused", "paused", "paused"]);
    expect(paused.page.scheduledPins[0].error).toContain(REAUTHENTICATE_MESSAGE);
    // Told once: the next page may come from the read started alongside, and is the same.
    const stillPaused = await ownerPage();
    expect(stillPaused.way).toBe("alongside the check");
    expect(stillPaused.page).toEqual(paused.page);
    await db.update(pinterestProfiles).set({ status: "ok", lastError: null }).where(eq(pinterestProfiles.id, profile.profileId));
    const resumed = await ownerPage();
    expect(resumed.way).toBe("after the check");
    expect(resumed.page.scheduledPins.map((pin: { status: string }) => pin.status)).toEqual(["scheduled", "scheduled", "scheduled"]);
  });

  it("refuses the owner's old token once they sign out", async () => {
    const user = await signUpUser({ firstName: "Lone" });
    await grantCredits(user, 5);
    const own = await connectProfile(user, pinterestName("lone_queue"));
    const pin = imagePin(own);
    expect((await post(user, "/api/scheduling/schedulePin", { pins: [pin] })).status).toBe(201);
    const path = `/api/scheduling/getScheduledPins/${own.username}`;
    expect((await app(path, { headers: bearer(user.tokens) })).status).toBe(200);
    const warm = await app(path, { headers: bearer(user.tokens) });
    expect(readWay(warm)).toBe("alongside the check");
    expect((await app("/api/logout", json({}, bearer(user.tokens)))).status).toBe(200);
    const after = await app(path, { headers: bearer(user.tokens) });
    expect(after.status).toBe(403);
    expect(await after.text()).not.toContain(pin.title);
    const byCookie = await app(path, { headers: { cookie: user.cookie } });
    expect(byCookie.status).toBe(401);
  });
});
