import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DRAFTS_PAGE_SIZE, MAX_DRAFTS } from "../../../contracts/content/library.ts";
import { drafts } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

const get = (user: TestUser, path: string) => app(path, { headers: bearer(user.tokens) });
const post = (user: TestUser, path: string, body: unknown) => app(path, json(body, bearer(user.tokens)));
const del = (user: TestUser, path: string) => app(path, { method: "DELETE", headers: bearer(user.tokens) });

const aPost = (id: string, title = `Post ${id}`) => ({
  id,
  title,
  description: "Five cosy soups for cold evenings, each ready in thirty minutes.",
  url: "https://linenandlark.com/soups",
  allImages: ["https://linenandlark.com/images/soup.jpg"],
  isLocked: id.endsWith("1"),
});

async function create(user: TestUser, name: string | undefined, posts: unknown[], date = "22/11/2026, 09:15:00") {
  const response = await post(user, "/api/user/drafts/createDraft", { posts, ...(name === undefined ? {} : { name }), date });
  expect(response.status).toBe(201);
  return (await read(response)).draft;
}

/** Drafts written straight to the table with chosen update times (for paging order). */
async function insertDrafts(user: TestUser, count: number, startAt: number) {
  const db = ledgerOf(testEnv, user.userId).db;
  const rows = Array.from({ length: count }, (_, i) =>
    db.insert(drafts).values({
      id: `d-${user.userId.slice(0, 8)}-${String(i).padStart(3, "0")}`,
      userId: user.userId,
      name: `Draft ${i}`,
      date: "1/1/2026",
      posts: [aPost(`p${i}`)],
      postCount: 1,
      updatedAt: startAt + i * 1000,
    }),
  );
  const [first, ...rest] = rows;
  await db.batch([first, ...rest]);
}

describe("drafts", () => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await signUpUser({ firstName: "Alice" });
    bob = await signUpUser({ firstName: "Bob" });
  });

  it("creates a draft and reads it back whole", async () => {
    const draft = await create(alice, "Soup week", [aPost("a1"), aPost("a2")]);
    expect(draft).toMatchObject({ name: "Soup week", date: "22/11/2026, 09:15:00", postCount: 2 });
    expect(Date.parse(draft.updatedAt)).toBeGreaterThan(0);

    const response = await get(alice, `/api/user/drafts/getDraft/${draft.draftId}`);
    expect(response.status).toBe(200);
    const { draft: full } = await read(response);
    expect(full).toMatchObject({ draftId: draft.draftId, name: "Soup week", postCount: 2 });
    expect(full.posts.map((p: { id: string }) => p.id)).toEqual(["a1", "a2"]);
    expect(full.posts[0]).toMatchObject({ title: "Post a1", isLocked: true, allImages: ["https://linenandlark.com/images/soup.jpg"] });
    // Defaults of the Post contract are filled in.
    expect(full.posts[1]).toMatchObject({ isLocked: false, isScheduled: false, useUpperCaseFont: true, colorIndex: 1 });
  });

  it("keeps one Autosave per user: creating Autosave again updates it", async () => {
    const user = await signUpUser();
    const first = await create(user, "Autosave", [aPost("x1")], "22/11/2026, 10:00:00");
    const second = await create(user, "Autosave", [aPost("y1"), aPost("y2"), aPost("y3")], "22/11/2026, 10:05:00");
    expect(second.draftId).toBe(first.draftId);
    expect(second).toMatchObject({ name: "Autosave", postCount: 3, date: "22/11/2026, 10:05:00" });

    const list = await read(await get(user, "/api/user/drafts/getDrafts"));
    expect(list.drafts).toHaveLength(1);
    const { draft } = await read(await get(user, `/api/user/drafts/getDraft/${first.draftId}`));
    expect(draft.posts.map((p: { id: string }) => p.id)).toEqual(["y1", "y2", "y3"]);

    // Two autosaves at once still leave one draft.
    await Promise.all([create(user, "Autosave", [aPost("z1")]), create(user, "Autosave", [aPost("z2")])]);
    expect((await read(await get(user, "/api/user/drafts/getDrafts"))).drafts).toHaveLength(1);
  });

  it("an update without a name takes the date; with a name it takes the name", async () => {
    const draft = await create(alice, "Weekend batch", [aPost("w1")]);
    const response = await post(alice, "/api/user/drafts/updateDraft", {
      draftId: draft.draftId,
      posts: [aPost("w1"), aPost("w2")],
      date: "23/11/2026, 14:05:09",
    });
    expect(response.status).toBe(200);
    const updated = (await read(response)).draft;
    expect(updated).toMatchObject({ draftId: draft.draftId, name: "23/11/2026, 14:05:09", date: "23/11/2026, 14:05:09", postCount: 2 });

    const named = await read(
      await post(alice, "/api/user/drafts/updateDraft", { draftId: draft.draftId, posts: [aPost("w3")], name: "Gift guide", date: "23/11/2026, 15:00:00" }),
    );
    expect(named.draft).toMatchObject({ name: "Gift guide", postCount: 1 });
    const { draft: full } = await read(await get(alice, `/api/user/drafts/getDraft/${draft.draftId}`));
    expect(full.posts.map((p: { id: string }) => p.id)).toEqual(["w3"]);
  });

  it("renames a draft, and refuses a second Autosave", async () => {
    const user = await signUpUser();
    const draft = await create(user, "Holiday pins", [aPost("h1")]);
    const response = await post(user, "/api/user/drafts/renameDraft", { draftId: draft.draftId, newName: "  Christmas pins " });
    expect(response.status).toBe(200);
    expect((await read(response)).draft).toMatchObject({ draftId: draft.draftId, name: "Christmas pins" });

    await create(user, "Autosave", [aPost("a1")]);
    const clash = await post(user, "/api/user/drafts/renameDraft", { draftId: draft.draftId, newName: "autosave" });
    expect(clash.status).toBe(409);
    expect(await read(clash)).toEqual({ error: "You already have a draft named Autosave. Please choose another name.", field: "newName" });
    expect((await read(await get(user, `/api/user/drafts/getDraft/${draft.draftId}`))).draft.name).toBe("Christmas pins");

    const empty = await post(user, "/api/user/drafts/renameDraft", { draftId: draft.draftId, newName: " " });
    expect(empty.status).toBe(400);
    expect((await read(empty)).field).toBe("newName");
  });

  it("latestDraft is the most recently updated draft with at least one post", async () => {
    const user = await signUpUser();
    expect(await read(await get(user, "/api/user/drafts/latestDraft"))).toEqual({ draft: null });

    const full = await create(user, "Has posts", [aPost("l1"), aPost("l2")]);
    const empty = await create(user, "Empty one", []);
    // Make sure the empty draft is the newest of all.
    await ledgerOf(testEnv, user.userId)
      .db.update(drafts)
      .set({ updatedAt: Date.now() + 60_000 })
      .where(eq(drafts.id, empty.draftId));
    expect((await read(await get(user, "/api/user/drafts/getDrafts"))).drafts[0].name).toBe("Empty one");
    const latest = await read(await get(user, "/api/user/drafts/latestDraft"));
    expect(latest.draft).toMatchObject({ draftId: full.draftId, name: "Has posts", postCount: 2 });
    expect(latest.draft.posts).toHaveLength(2);

    const newer = await create(user, "Newer", [aPost("n1")]);
    await ledgerOf(testEnv, user.userId)
      .db.update(drafts)
      .set({ updatedAt: Date.now() + 120_000 })
      .where(eq(drafts.id, newer.draftId));
    expect((await read(await get(user, "/api/user/drafts/latestDraft"))).draft.draftId).toBe(newer.draftId);
  });

  it("lists drafts newest first, 20 a page, paged by the last draft id", async () => {
    const user = await signUpUser();
    await insertDrafts(user, DRAFTS_PAGE_SIZE + 5, Date.now() - 100_000);
    const first = await read(await get(user, "/api/user/drafts/getDrafts"));
    expect(first.drafts).toHaveLength(DRAFTS_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(first.drafts[0]).toMatchObject({ name: "Draft 24", postCount: 1, date: "1/1/2026" });
    expect(first.drafts[0]).not.toHaveProperty("posts");
    const last = first.drafts.at(-1).draftId;
    const second = await read(await get(user, `/api/user/drafts/getDrafts?lastDraftId=${last}`));
    expect(second.hasMore).toBe(false);
    const names = [...first.drafts, ...second.drafts].map((d: { name: string }) => d.name);
    expect(names).toEqual(Array.from({ length: DRAFTS_PAGE_SIZE + 5 }, (_, i) => `Draft ${DRAFTS_PAGE_SIZE + 4 - i}`));
    // The last draft as the cursor: an empty page, not an error.
    const end = await get(user, `/api/user/drafts/getDrafts?lastDraftId=${second.drafts.at(-1).draftId}`);
    expect(end.status).toBe(200);
    expect(await read(end)).toEqual({ drafts: [], hasMore: false });

    const foreign = await get(bob, `/api/user/drafts/getDrafts?lastDraftId=${last}`);
    expect(foreign.status).toBe(400);
    expect((await read(foreign)).field).toBe("lastDraftId");
  });

  it("validates posts, naming the field, and refuses a draft too large for its row", async () => {
    const badPost = await post(alice, "/api/user/drafts/createDraft", {
      name: "Bad",
      date: "now",
      posts: [aPost("1"), aPost("2"), aPost("3"), { ...aPost("4"), title: 42 }],
    });
    expect(badPost.status).toBe(400);
    expect(await read(badPost)).toEqual({ error: "title must be text", field: "posts.3.title" });

    const noDate = await post(alice, "/api/user/drafts/createDraft", { name: "No date", posts: [] });
    expect(noDate.status).toBe(400);
    expect(await read(noDate)).toMatchObject({ error: "date is required" });

    const tooMany = await post(alice, "/api/user/drafts/createDraft", {
      name: "Huge",
      date: "now",
      posts: Array.from({ length: 201 }, (_, i) => aPost(`m${i}`)),
    });
    expect(tooMany.status).toBe(400);
    expect(await read(tooMany)).toMatchObject({ error: "posts may hold at most 200 posts", field: "posts" });

    const longUrl = `https://linenandlark.com/images/${"a".repeat(1990)}.jpg`;
    const heavy = Array.from({ length: 20 }, (_, i) => ({ ...aPost(`big${i}`), allImages: Array.from({ length: 40 }, () => longUrl) }));
    const before = (await read(await get(alice, "/api/user/drafts/getDrafts"))).drafts.length;
    const tooLarge = await post(alice, "/api/user/drafts/createDraft", { name: "Heavy", date: "now", posts: heavy });
    expect(tooLarge.status).toBe(413);
    const body = await read(tooLarge);
    expect(body.field).toBe("posts");
    expect(body.error).toMatch(/^This draft is too large to save \(1\.\d MB; the limit is 1\.5 MB\)\. Remove some posts and try again\.$/);
    expect((await read(await get(alice, "/api/user/drafts/getDrafts"))).drafts.length).toBe(before);
  });

  it("caps the number of drafts per user, with a clear message", async () => {
    const user = await signUpUser();
    await insertDrafts(user, MAX_DRAFTS, Date.now() - 1_000_000);
    const response = await post(user, "/api/user/drafts/createDraft", { name: "One more", date: "now", posts: [aPost("o1")] });
    expect(response.status).toBe(409);
    expect((await read(response)).error).toBe(`You can keep up to ${MAX_DRAFTS} drafts. Please delete some drafts before saving a new one.`);
  });

  it("deletes a draft", async () => {
    const draft = await create(alice, "Short-lived", [aPost("s1")]);
    const response = await del(alice, `/api/user/drafts/deleteDraft/${draft.draftId}`);
    expect(response.status).toBe(200);
    expect(await read(response)).toEqual({ deletedId: draft.draftId });
    expect((await get(alice, `/api/user/drafts/getDraft/${draft.draftId}`)).status).toBe(404);
    expect((await del(alice, `/api/user/drafts/deleteDraft/${draft.draftId}`)).status).toBe(404);
  });

  it("refuses another user's draft ids with 404 and changes nothing", async () => {
    const draft = await create(alice, "Alice only", [aPost("q1")]);
    const before = await read(await get(alice, `/api/user/drafts/getDraft/${draft.draftId}`));

    expect((await get(bob, `/api/user/drafts/getDraft/${draft.draftId}`)).status).toBe(404);
    const update = await post(bob, "/api/user/drafts/updateDraft", { draftId: draft.draftId, posts: [], name: "Mine", date: "now" });
    expect(update.status).toBe(404);
    expect(await read(update)).toEqual({ error: "Draft not found" });
    expect((await post(bob, "/api/user/drafts/renameDraft", { draftId: draft.draftId, newName: "Mine" })).status).toBe(404);
    expect((await del(bob, `/api/user/drafts/deleteDraft/${draft.draftId}`)).status).toBe(404);
    // Bob's Autosave never touches Alice's drafts, and his latest draft is not hers.
    await create(bob, "Autosave", [aPost("b1")]);
    expect((await read(await get(bob, "/api/user/drafts/latestDraft"))).draft.name).toBe("Autosave");

    expect(await read(await get(alice, `/api/user/drafts/getDraft/${draft.draftId}`))).toEqual(before);
  });

  it("needs a signed-in user", async () => {
    expect((await app("/api/user/drafts/latestDraft")).status).toBe(401);
    expect((await app("/api/user/drafts/createDraft", json({ posts: [], name: "x", date: "now" }))).status).toBe(401);
  });
});
