import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { database } from "../../../workers/db/client.ts";
import { pinterestOauthStates, pinterestProfiles } from "../../../workers/db/schema.ts";
import { sha256Hex } from "../../../workers/auth/tokens.ts";
import { oauthBindingCookieName, OTHER_BROWSER_MESSAGE } from "../../../workers/services/pinterest/pinterest-connection.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv, cookiesSetBy } from "../support.ts";

const db = database(testEnv.DB);
let counter = 0;
/** A Pinterest username unique to this run (the sandbox keeps accounts between tests). */
const pinterestName = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter += 1)}`.slice(0, 30);

/** Connects a Pinterest account the way a browser does: state check, consent (auto-approved), callback. */
async function connect(user: TestUser, username: string, redirectUrl = "/scheduling") {
  const stateCheck = `state-${crypto.randomUUID()}`;
  const started = await app("/api/pinterestAPI/recordPinterestStateCheck", json({ stateCheck, redirectUrl }, bearer(user.tokens)));
  expect(started.status).toBe(200);
  const { authorizeUrl } = await read(started);
  const consent = await fetch(`${authorizeUrl}&auto_approve=1&username=${username}`, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get("location")!);
  expect(back.pathname).toBe("/api/pinterestAPI/oauthCallback");
  expect(back.searchParams.get("state")).toBe(stateCheck);
  const callback = await app(`${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie: cookiesSetBy(started) } });
  return { authorizeUrl: new URL(authorizeUrl), callback, callbackPath: `${back.pathname}${back.search}`, cookie: cookiesSetBy(started) };
}

async function activate(user: TestUser, username: string) {
  return app("/api/pinterestAPI/activatePinterestProfile", json({ username }, bearer(user.tokens)));
}

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await signUpUser({ firstName: "Alice" });
  bob = await signUpUser({ firstName: "Bob" });
});

describe("connecting a Pinterest profile", () => {
  it("sends the user to Pinterest with our client id, the read/write scopes and the state, then stores the profile", async () => {
    const username = pinterestName("alice");
    const { authorizeUrl, callback, callbackPath, cookie } = await connect(alice, username);
    expect(authorizeUrl.searchParams.get("client_id")).toBe(testEnv.PINTEREST_CLIENT_ID);
    expect(authorizeUrl.searchParams.get("redirect_uri")).toBe("http://app.test/api/pinterestAPI/oauthCallback");
    expect(authorizeUrl.searchParams.get("scope")!.split(",")).toEqual(
      expect.arrayContaining(["boards:read", "boards:write", "pins:read", "pins:write", "user_accounts:read"]),
    );
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`/scheduling?pinterestConnected=${username}`);

    const me = await read(await app("/api/user", { headers: bearer(alice.tokens) }));
    expect(me.credentials.authorizedPinterestProfiles).toContainEqual(expect.objectContaining({ username, isActive: true, status: "ok" }));

    // Tokens are sealed at rest: nothing in the row reads as a Pinterest token.
    const [row] = await db.select().from(pinterestProfiles).where(eq(pinterestProfiles.username, username));
    expect(row.accessTokenSealed).toMatch(/^v1\./);
    expect(row.refreshTokenSealed).toMatch(/^v1\./);
    expect(`${row.accessTokenSealed}${row.refreshTokenSealed}`).not.toMatch(/pina_|pinr_/);

    // The state is good once, even in the browser that started it.
    const replay = await app(callbackPath, { redirect: "manual", headers: { cookie } });
    expect(replay.headers.get("location")).toContain("pinterestError=");
  });

  it("refuses a redirect that leaves the site and a state that was never recorded", async () => {
    const bad = await app(
      "/api/pinterestAPI/recordPinterestStateCheck",
      json({ stateCheck: "abcdefghijklmnopqrstuvwxyz", redirectUrl: "https://evil.example/" }, bearer(alice.tokens)),
    );
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "redirectUrl" });
    const forged = await app("/api/pinterestAPI/oauthCallback?code=abc&state=never-recorded-state", { redirect: "manual" });
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toContain("pinterestError=");
  });
});

describe("a connection belongs to the browser that started it", () => {
  it("refuses a callback in another browser: an attacker's link connects nothing to the attacker's account", async () => {
    const username = pinterestName("victim");
    // The attacker records a state on their own account and keeps its cookie to themselves...
    const stateCheck = `state-${crypto.randomUUID()}`;
    const started = await app("/api/pinterestAPI/recordPinterestStateCheck", json({ stateCheck, redirectUrl: "/scheduling" }, bearer(bob.tokens)));
    const { authorizeUrl } = await read(started);
    // ...and sends the authorize URL to the victim, whose browser consents and comes back.
    const consent = await fetch(`${authorizeUrl}&auto_approve=1&username=${username}`, { redirect: "manual" });
    const back = new URL(consent.headers.get("location")!);
    const victimSession = await app(`${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie: "pb_pinterest_0123456789abcdef=forged" } });
    expect(victimSession.status).toBe(302);
    const location = new URL(victimSession.headers.get("location")!, "http://app.test");
    expect(location.searchParams.get("pinterestError")).toBe(OTHER_BROWSER_MESSAGE);
    expect(location.searchParams.get("pinterestConnected")).toBeNull();
    expect(await db.select().from(pinterestProfiles).where(eq(pinterestProfiles.username, username))).toEqual([]);
    const me = await read(await app("/api/user", { headers: bearer(bob.tokens) }));
    expect(me.credentials.authorizedPinterestProfiles.map((p: { username: string }) => p.username)).not.toContain(username);
  });

  it.each([
    "/.//evil.example/x",
    "/%2e//evil.example",
    "//evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/\t/evil.example",
  ])("refuses the redirect %j, which could leave the site", async (redirectUrl) => {
    const bad = await app(
      "/api/pinterestAPI/recordPinterestStateCheck",
      json({ stateCheck: `state-${crypto.randomUUID()}`, redirectUrl }, bearer(alice.tokens)),
    );
    expect(bad.status).toBe(400);
    expect(await read(bad)).toMatchObject({ field: "redirectUrl" });
  });

  it("never answers a Location that leaves the site, whatever the stored path", async () => {
    for (const stored of ["/.//evil.example/x", "/%2e//evil.example", "//evil.example/x"]) {
      const stateCheck = `state-${crypto.randomUUID()}`;
      const binding = "test-binding-secret";
      await db.insert(pinterestOauthStates).values({
        stateHash: await sha256Hex(stateCheck),
        userId: alice.userId,
        redirectUrl: stored,
        browserHash: await sha256Hex(binding),
        expiresAt: Date.now() + 60_000,
      });
      const cookie = `${await oauthBindingCookieName(stateCheck)}=${binding}`;
      const answer = await app(`/api/pinterestAPI/oauthCallback?state=${stateCheck}&error=x`, { redirect: "manual", headers: { cookie } });
      const location = answer.headers.get("location")!;
      expect(location.startsWith("/") && !location.startsWith("//") && !location.includes("\\")).toBe(true);
      expect(new URL(location, "http://app.test").origin).toBe("http://app.test");
    }
  });
});

describe("activating a profile and reading boards", () => {
  it("answers our own short-lived handles, never Pinterest's tokens, and lists every board across pages", async () => {
    const username = pinterestName("many_boards");
    await connect(alice, username);
    const response = await activate(alice, username);
    expect(response.status).toBe(200);
    const activated = await read(response);
    expect(activated.schedulingSettings).toMatchObject({ numberOfPinsPerDay: 20, postingIntervalInSeconds: 900 });
    expect(activated.authorizedPinterestProfiles.filter((p: { isActive: boolean }) => p.isActive)).toEqual([expect.objectContaining({ username })]);
    expect(activated.authToken).not.toMatch(/^pina_/);
    expect(activated.expiresAt - Date.now()).toBeLessThanOrEqual(3600_000);

    const boards = await read(await app("/api/pinterestAPI/getAllUserPinterestBoards", json({ access_token: activated.authToken }, bearer(alice.tokens))));
    expect(boards.items).toHaveLength(30);
    const sections = await app(
      "/api/pinterestAPI/getBoardSections",
      json({ access_token: activated.authToken, boardId: boards.items[0].id }, bearer(alice.tokens)),
    );
    expect(sections.status).toBe(200);
    expect(Array.isArray((await read(sections)).items)).toBe(true);
    const created = await app(
      "/api/pinterestAPI/createPinterestBoard",
      json({ access_token: activated.authToken, boardName: "Autumn tables", boardDescription: "Linen and candles" }, bearer(alice.tokens)),
    );
    expect(created.status).toBe(201);
    expect((await read(created)).board).toMatchObject({ name: "Autumn tables" });

    const renewed = await read(
      await app("/api/pinterestAPI/refreshPinterestAccessToken", json({ refresh_token: activated.refreshToken }, bearer(alice.tokens))),
    );
    expect(renewed.authToken).toBeTruthy();

    // Bob can use neither Alice's profile nor her handle.
    expect((await activate(bob, username)).status).toBe(404);
    const stolen = await app("/api/pinterestAPI/getAllUserPinterestBoards", json({ access_token: activated.authToken }, bearer(bob.tokens)));
    expect(stolen.status).toBe(401);
    expect((await app("/api/pinterestAPI/removeAuthorizedPinterestProfile", json({ username }, bearer(bob.tokens)))).status).toBe(404);
  });

  it("refreshes an expired Pinterest token once, storing the rotated refresh token", async () => {
    const username = pinterestName("carol");
    await connect(alice, username);
    const { authToken } = await read(await activate(alice, username));
    const [before] = await db.select().from(pinterestProfiles).where(eq(pinterestProfiles.username, username));
    await sandbox("/pinterest/expire-token", { method: "POST", json: { username } });
    const boards = await app("/api/pinterestAPI/getAllUserPinterestBoards", json({ access_token: authToken }, bearer(alice.tokens)));
    expect(boards.status).toBe(200);
    const [after] = await db.select().from(pinterestProfiles).where(eq(pinterestProfiles.username, username));
    expect(after.refreshTokenSealed).not.toBe(before.refreshTokenSealed);
    expect(after.status).toBe("ok");
  });

  it("asks for re-authentication when Pinterest revoked the connection, and 423 when the account is blocked", async () => {
    const revoked = pinterestName("dave");
    await connect(alice, revoked);
    await sandbox("/pinterest/revoke", { method: "POST", json: { username: revoked } });
    const reauth = await activate(alice, revoked);
    expect(reauth.status).toBe(401);
    expect(await read(reauth)).toMatchObject({ error: "User needs to reauthenticate" });
    const failing = await read(await app("/api/pinterestAPI/failingPinterestProfiles", { headers: bearer(alice.tokens) }));
    expect(failing.failingPinterestProfiles).toContainEqual(expect.objectContaining({ username: revoked, status: "reauth" }));

    const blocked = pinterestName("erin");
    await connect(alice, blocked);
    await sandbox("/pinterest/block", { method: "POST", json: { username: blocked } });
    const refused = await activate(alice, blocked);
    expect(refused.status).toBe(423);
    expect(await read(refused)).toMatchObject({ error: "Pinterest profile is blocked" });

    // Reconnecting fixes a profile that needed it.
    await connect(alice, revoked);
    expect((await activate(alice, revoked)).status).toBe(200);
  });

  it("removes a profile", async () => {
    const username = pinterestName("frank");
    await connect(bob, username);
    const removed = await read(await app("/api/pinterestAPI/removeAuthorizedPinterestProfile", json({ username }, bearer(bob.tokens))));
    expect(removed.authorizedPinterestProfiles.map((p: { username: string }) => p.username)).not.toContain(username);
  });
});
