import { beforeAll, describe, expect, it } from "vitest";
import { WORDPRESS_KEY_MISSING, WORDPRESS_KEY_REFUSED } from "../../../contracts/shops/wordpress.ts";
import { sha256Hex } from "../../../workers/auth/tokens.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { RATE_LIMITS } from "../../../workers/services/accounts/rate-limit.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, pinterestName, remainingCredits, type ConnectedProfile } from "../pinterest/scheduling-support.ts";
import { app, read, testEnv } from "../support.ts";

/**
 * Issue 20, the WordPress hand-off (decision 054): the access key made on
 * /profile (only its hash kept; rotated and revoked keys refused at once) and
 * the plugin's calls authenticated by that key alone.
 */

const picture = (file: string) => `${testEnv.SANDBOX_URL}/blog-demo/images/${file}`;

const asUser = (user: TestUser, path: string, method = "GET") => app(path, { method, headers: bearer(user.tokens) });
const withKey = (key: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
  app(path, body === undefined ? { headers: { authorization: `Bearer ${key}`, ...extra } } : json(body, { authorization: `Bearer ${key}`, ...extra }));

async function makeKey(user: TestUser): Promise<string> {
  const response = await asUser(user, "/api/wordpress/accessKey", "POST");
  expect(response.status).toBe(201);
  return (await read(response)).key;
}

async function credentials(user: TestUser) {
  return (await read(await asUser(user, "/api/user"))).credentials;
}

let postCount = 0;
function wordpressPost(fields: Record<string, unknown> = {}) {
  postCount += 1;
  return {
    url: `https://linenandlark.example/${Date.now().toString(36)}/amalfi-${postCount}`,
    title: `Three days on the Amalfi coast (${postCount})`,
    excerpt: "Where to stay, what to eat and the walk from Positano to Nocelle.",
    images: [picture("amalfi-coast-itinerary-1.jpg"), picture("amalfi-coast-itinerary-2.jpg")],
    destination: "draft",
    ...fields,
  };
}

/** Makes a design-settings profile active: this standard template only, this many pins per post. */
async function useDesign(user: TestUser, templateId: string, pinsPerSource: number) {
  const response = await app(
    "/api/user/saveDesignSettings",
    json(
      {
        designSettings: { templateSelections: [templateId], pinsPerSource, useOneOfEachTemplate: false, useOneOfEachImage: false },
        newProfileName: `WordPress ${templateId}`,
      },
      bearer(user.tokens),
    ),
  );
  expect(response.status).toBe(200);
}

async function standardTemplates(user: TestUser): Promise<{ templateId: string; title: string }[]> {
  const { templates } = await read(await asUser(user, "/api/templates/standardTemplates"));
  return templates
    .filter((t: { templateId: string; family?: string }) => t.templateId.startsWith("std-") && t.family !== "video")
    .map((t: { templateId: string; title: string }) => ({ templateId: t.templateId, title: t.title }));
}

describe("the access key", () => {
  it("is shown once; only its hash is stored; the credentials carry its first characters; the key works and a wrong one is refused", async () => {
    const user = await signUpUser({ firstName: "Wren" });
    expect((await credentials(user)).wordpressAccessKey).toBeNull();
    expect(await read(await asUser(user, "/api/wordpress/accessKey"))).toEqual({ wordpressAccessKey: null });

    const made = await read(await asUser(user, "/api/wordpress/accessKey", "POST"));
    const key: string = made.key;
    expect(key).toMatch(/^pbwp_[A-Za-z0-9_-]{43}$/);
    expect(made.wordpressAccessKey.shown).toBe(`${key.slice(0, 9)}…`);

    const row = await testEnv.DB.prepare("SELECT * FROM wordpress_access_keys WHERE user_id = ?1").bind(user.userId).first<Record<string, unknown>>();
    expect(row!.key_hash).toBe(await sha256Hex(key));
    expect(JSON.stringify(row)).not.toContain(key);
    // Shown once: later reads carry the first characters only.
    const later = JSON.stringify(await read(await asUser(user, "/api/wordpress/accessKey")));
    expect(later).not.toContain(key);
    expect((await credentials(user)).wordpressAccessKey).toBe(`${key.slice(0, 9)}…`);
    expect(JSON.stringify(await credentials(user))).not.toContain(key.slice(9));

    const account = await withKey(key, "/api/wordpress/account");
    expect(account.status).toBe(200);
    expect(await read(account)).toMatchObject({ handle: expect.any(String), firstName: "Wren", pinterestProfiles: [] });
    expect((await read(await asUser(user, "/api/wordpress/accessKey"))).wordpressAccessKey.lastUsedAt).not.toBeNull();

    const last = key.at(-1) === "A" ? "B" : "A";
    for (const wrong of [`${key.slice(0, -1)}${last}`, key.slice(0, -1), "pbwp_", "not-a-key"]) {
      const refused = await withKey(wrong, "/api/wordpress/account");
      expect(refused.status).toBe(401);
      expect((await read(refused)).error).toBe(WORDPRESS_KEY_REFUSED);
    }
    // A second key is refused: there is one, to rotate.
    expect((await asUser(user, "/api/wordpress/accessKey", "POST")).status).toBe(409);
  });

  it("is the only thing the plugin's calls accept: no key, the user's sign-in token or session cookie are refused", async () => {
    const user = await signUpUser();
    await makeKey(user);
    const none = await app("/api/wordpress/pins", json(wordpressPost()));
    expect(none.status).toBe(401);
    expect((await read(none)).error).toBe(WORDPRESS_KEY_MISSING);
    expect((await app("/api/wordpress/account", { headers: bearer(user.tokens) })).status).toBe(401);
    expect((await app("/api/wordpress/account", { headers: { cookie: user.cookie } })).status).toBe(401);
    // A bad body without a key is refused for the key, before anything is read.
    expect((await app("/api/wordpress/pins", json({ url: 5 }))).status).toBe(401);
  });

  it("rotated: the old key is refused at once and the new one works", async () => {
    const user = await signUpUser();
    const old = await makeKey(user);
    expect((await withKey(old, "/api/wordpress/account")).status).toBe(200);
    const rotated = await read(await asUser(user, "/api/wordpress/accessKey/rotate", "POST"));
    expect(rotated.key).not.toBe(old);
    const refused = await withKey(old, "/api/wordpress/account");
    expect(refused.status).toBe(401);
    expect((await read(refused)).error).toBe(WORDPRESS_KEY_REFUSED);
    expect((await withKey(rotated.key, "/api/wordpress/account")).status).toBe(200);
    expect((await credentials(user)).wordpressAccessKey).toBe(`${rotated.key.slice(0, 9)}…`);
  });

  it("revoked: refused at once, and gone from the profile and the credentials", async () => {
    const user = await signUpUser();
    const key = await makeKey(user);
    expect((await withKey(key, "/api/wordpress/account")).status).toBe(200);
    const revoked = await asUser(user, "/api/wordpress/accessKey", "DELETE");
    expect(revoked.status).toBe(200);
    expect((await withKey(key, "/api/wordpress/account")).status).toBe(401);
    expect(await read(await asUser(user, "/api/wordpress/accessKey"))).toEqual({ wordpressAccessKey: null });
    expect((await credentials(user)).wordpressAccessKey).toBeNull();
    // Nothing left to rotate or revoke; a new one can be made.
    expect((await asUser(user, "/api/wordpress/accessKey/rotate", "POST")).status).toBe(404);
    expect((await asUser(user, "/api/wordpress/accessKey", "DELETE")).status).toBe(404);
    const fresh = await makeKey(user);
    expect((await withKey(fresh, "/api/wordpress/account")).status).toBe(200);
  });
});

describe("a blocked account", () => {
  it("has its key refused at once, and accepted again once unblocked", async () => {
    const user = await signUpUser();
    const key = await makeKey(user);
    expect((await withKey(key, "/api/wordpress/account")).status).toBe(200);
    const admin = await signUpUser({ firstName: "Ada", lastName: "Admin" });
    await testEnv.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?1").bind(admin.userId).run();
    expect((await app(`/api/admin/users/${user.userId}/block`, json({}, bearer(admin.tokens)))).status).toBe(200);
    expect((await withKey(key, "/api/wordpress/account")).status).toBe(401);
    expect((await app(`/api/admin/users/${user.userId}/unblock`, json({}, bearer(admin.tokens)))).status).toBe(200);
    expect((await withKey(key, "/api/wordpress/account")).status).toBe(200);
  });
});

describe("a deleted account", () => {
  it("takes its key with it", async () => {
    const user = await signUpUser();
    const key = await makeKey(user);
    expect((await asUser(user, "/api/user/deleteUserAccount", "DELETE")).status).toBe(200);
    expect((await withKey(key, "/api/wordpress/account")).status).toBe(401);
    expect(await testEnv.DB.prepare("SELECT count(*) AS n FROM wordpress_access_keys WHERE user_id = ?1").bind(user.userId).first("n")).toBe(0);
  });
});

describe("the plugin's post to pins", () => {
  let user: TestUser;
  let key: string;
  let profile: ConnectedProfile;
  let template: { templateId: string; title: string };

  beforeAll(async () => {
    user = await signUpUser({ firstName: "Pia" });
    key = await makeKey(user);
    profile = await connectProfile(user, pinterestName("wp"));
    const all = await standardTemplates(user);
    template = all[0];
    const other = all.find((t) => t.title !== template.title)!;
    // Two design profiles: the one saved last is the active one, and only it draws the plugin's pins.
    await useDesign(user, other.templateId, 3);
    await useDesign(user, template.templateId, 2);
  }, 60_000);

  it("answers 400 naming the field for bad input", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: "" }, "url"],
      [{ url: "ftp://example.com/x" }, "url"],
      [{ title: "" }, "title"],
      [{ images: ["not a web address"] }, "images.0"],
      [{ destination: "printer" }, "destination"],
      [{ destination: "queue", boardId: "1" }, "pinterestProfileUsername"],
      [{ destination: "queue", pinterestProfileUsername: profile.username }, "boardId"],
      [{ reference: "short" }, "reference"],
    ];
    for (const [fields, field] of cases) {
      const response = await withKey(key, "/api/wordpress/pins", wordpressPost(fields));
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect((await read(response)).field, JSON.stringify(fields)).toBe(field);
    }
  });

  it("makes a draft with the user's active design settings, in the user's drafts, for no credits", async () => {
    const before = await remainingCredits(user);
    const sent = wordpressPost();
    const response = await withKey(key, "/api/wordpress/pins", sent);
    expect(response.status).toBe(201);
    const answer = await read(response);
    expect(answer).toMatchObject({ destination: "draft", creditsCharged: 0, draft: { name: `WordPress: ${sent.title}` } });
    // pinsPerSource 2 with one template selected: two pins, both drawn with it.
    expect(answer.pins).toHaveLength(2);
    for (const pin of answer.pins) expect(pin).toMatchObject({ templateName: template.title, url: sent.url });

    const { drafts } = await read(await asUser(user, "/api/user/drafts/getDrafts"));
    expect(drafts.map((d: { draftId: string }) => d.draftId)).toContain(answer.draft.draftId);
    const { draft } = await read(await asUser(user, `/api/user/drafts/getDraft/${answer.draft.draftId}`));
    expect(draft.posts).toHaveLength(2);
    expect(draft.posts[0]).toMatchObject({ title: sent.title, url: sent.url, template: { title: template.title } });
    expect(draft.posts[0].allImages).toEqual(sent.images);
    expect(await remainingCredits(user)).toBe(before);
  });

  it("queues the pins on the chosen profile and board, charging one credit per pin once, even when the request is sent twice", async () => {
    await grantCredits(user, 20);
    const before = await remainingCredits(user);
    const sent = wordpressPost({
      destination: "queue",
      pinterestProfileUsername: profile.username,
      boardId: profile.boards[0].id,
      boardName: profile.boards[0].name,
    });
    const reference = `wp-post-${crypto.randomUUID()}`;
    const first = await withKey(key, "/api/wordpress/pins", sent, { "idempotency-key": reference });
    expect(first.status).toBe(201);
    const answer = await read(first);
    expect(answer).toMatchObject({ destination: "queue", creditsCharged: 2, pinterestProfileUsername: profile.username, boardId: profile.boards[0].id });
    expect(answer.pins).toHaveLength(2);
    expect(await remainingCredits(user)).toBe(before - 2);

    const queue = await read(await asUser(user, `/api/scheduling/getScheduledPins/${profile.username}`));
    const queued = queue.scheduledPins.filter((pin: { url: string }) => pin.url === sent.url);
    expect(queued.map((pin: { id: string }) => pin.id).sort()).toEqual(answer.pins.map((pin: { scheduledPinId: string }) => pin.scheduledPinId).sort());
    for (const pin of queued) expect(pin).toMatchObject({ boardId: profile.boards[0].id, title: sent.title, status: "scheduled" });
    // The drawn pin is paid for, so it is served.
    expect((await app(new URL(answer.pins[0].imageURL).pathname)).status).toBe(200);

    // The same request again (a plugin retrying): the first answer, nothing charged or queued again.
    const again = await withKey(key, "/api/wordpress/pins", sent, { "idempotency-key": reference });
    expect(again.status).toBe(201);
    expect(await read(again)).toEqual(answer);
    expect(await remainingCredits(user)).toBe(before - 2);
    const queueAfter = await read(await asUser(user, `/api/scheduling/getScheduledPins/${profile.username}`));
    expect(queueAfter.scheduledPins.filter((pin: { url: string }) => pin.url === sent.url)).toHaveLength(2);
    // The same key for another post is refused.
    const other = await withKey(key, "/api/wordpress/pins", { ...sent, title: "Another post" }, { "idempotency-key": reference });
    expect(other.status).toBe(409);
  });

  it("refuses to queue without the credits, charging and queueing nothing", async () => {
    const poor = await signUpUser();
    const poorKey = await makeKey(poor);
    const poorProfile = await connectProfile(poor, pinterestName("wpp"));
    await ledgerOf(testEnv, poor.userId)
      .prepare(`INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES (?1, ?2, ?3, 'image', 'test spend', ?4, ?5)`)
      .bind(crypto.randomUUID(), poor.userId, -(await remainingCredits(poor)), `test-spend:${crypto.randomUUID()}`, Date.now())
      .run();
    expect(await remainingCredits(poor)).toBe(0);
    const response = await withKey(
      poorKey,
      "/api/wordpress/pins",
      wordpressPost({ destination: "queue", pinterestProfileUsername: poorProfile.username, boardId: poorProfile.boards[0].id }),
    );
    expect(response.status).toBe(402);
    const queue = await read(await asUser(poor, `/api/scheduling/getScheduledPins/${poorProfile.username}`));
    expect(queue.scheduledPins).toEqual([]);
  });
});

describe("one user's key and another user's things", () => {
  it("never reaches another user's profile or boards", async () => {
    const [alice, bob] = await Promise.all([signUpUser({ firstName: "Alice" }), signUpUser({ firstName: "Bob" })]);
    const aliceKey = await makeKey(alice);
    await grantCredits(alice, 20);
    const bobProfile = await connectProfile(bob, pinterestName("wpb"));
    const bobCredits = await remainingCredits(bob);

    const queued = await withKey(
      aliceKey,
      "/api/wordpress/pins",
      wordpressPost({ destination: "queue", pinterestProfileUsername: bobProfile.username, boardId: bobProfile.boards[0].id }),
    );
    expect(queued.status).toBe(404);
    expect((await read(queued)).field).toBe("pinterestProfileUsername");
    const boards = await withKey(aliceKey, `/api/wordpress/boards/${bobProfile.username}`);
    expect(boards.status).toBe(404);
    expect(await boards.text()).not.toContain(bobProfile.boards[0].name);

    const bobQueue = await read(await asUser(bob, `/api/scheduling/getScheduledPins/${bobProfile.username}`));
    expect(bobQueue.scheduledPins).toEqual([]);
    expect(await remainingCredits(bob)).toBe(bobCredits);
    // Alice's key names Alice: her account, not Bob's.
    expect((await read(await withKey(aliceKey, "/api/wordpress/account"))).firstName).toBe("Alice");

    // Bob's own key reaches his boards.
    const bobKey = await makeKey(bob);
    const own = await withKey(bobKey, `/api/wordpress/boards/${bobProfile.username}`);
    expect(own.status).toBe(200);
    expect((await read(own)).boards.map((board: { id: string }) => board.id)).toContain(bobProfile.boards[0].id);
  });
});

describe("the rate limit", () => {
  it("holds each key to its limit per hour (429 with a plain message), other keys unaffected", async () => {
    const [busy, calm] = await Promise.all([signUpUser(), signUpUser()]);
    const [busyKey, calmKey] = await Promise.all([makeKey(busy), makeKey(calm)]);
    const limit = RATE_LIMITS.wordpressPerKey.limit;
    for (let sent = 0; sent < limit; sent += 10) {
      const answers = await Promise.all(Array.from({ length: Math.min(10, limit - sent) }, () => withKey(busyKey, "/api/wordpress/account")));
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    }
    const limited = await withKey(busyKey, "/api/wordpress/account");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await read(limited)).error).toMatch(/^Too many requests with this WordPress access key\. Please try again in \d+ minutes?\.$/);
    // Rotating does not reset the limit; another user's key is not held back.
    const rotated = await read(await asUser(busy, "/api/wordpress/accessKey/rotate", "POST"));
    expect((await withKey(rotated.key, "/api/wordpress/account")).status).toBe(429);
    expect((await withKey(calmKey, "/api/wordpress/account")).status).toBe(200);
  });
});
