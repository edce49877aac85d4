import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { UserLedger } from "../../../durable-objects/user-ledger.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { mediaUrl } from "../../../workers/media/store.ts";
import { archiveKey, monthOf, monthStart } from "../../../contracts/pinterest/history-archives.ts";
import { KEY_TTL_MS } from "../../../workers/services/core/idempotency.ts";
import { POSTED_RENDER_TTL_MS, recordUnpaidRender, UNPAID_RENDER_TTL_MS } from "../../../workers/services/content/pin-renders.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, imagePin, pinterestName, post, sandboxPins } from "../pinterest/scheduling-support.ts";
import { app, eventually, read, testEnv } from "../support.ts";

// Issue 38, decision 084: each user's ledger keeps its records only as long as they serve, on its own alarm.

const stubOf = (userId: string) => testEnv.USER_LEDGER.get(testEnv.USER_LEDGER.idFromName(userId));
const DAY = 86_400_000;
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);

/** Rings the ledger's alarm (when it is set; it may have rung by itself already) and answers when `check` holds. */
async function afterAlarm<T>(user: TestUser, check: () => Promise<T | undefined>, what: string): Promise<T> {
  return eventually(
    async () => {
      await runDurableObjectAlarm(stubOf(user.userId));
      return check();
    },
    15_000,
    what,
  );
}

async function renderFor(user: TestUser, paid: boolean, createdAt = Date.now()) {
  const key = `users/${user.userId}/pin-renders/${crypto.randomUUID().slice(0, 8)}/pin.jpg`;
  await recordUnpaidRender(testEnv, user.userId, key, createdAt);
  if (paid) await ledgerOf(testEnv, user.userId).prepare(`UPDATE pin_renders SET paid_at = ?2 WHERE media_key = ?1`).bind(key, createdAt).run();
  await testEnv.MEDIA.put(key, JPEG, { httpMetadata: { contentType: "image/jpeg" } });
  return key;
}

describe("what a user's ledger forgets, and when", () => {
  it("deletes a render 30 days after its pin is posted, and the history then shows Pinterest's copy", async () => {
    const user = await signUpUser({ firstName: "Runa" });
    const profile = await connectProfile(user, pinterestName("runa_keep"));
    await grantCredits(user, 5);
    const key = await renderFor(user, false);
    const imageURL = `http://app.test/media/${key}`;
    const scheduled = await post(
      user,
      "/api/scheduling/schedulePin",
      imagePin(profile, { imageURL, type: "SpecificDate", scheduledTime: new Date(Date.now() + 300).toISOString() }),
    );
    expect(scheduled.status).toBe(201);
    const [posted] = await eventually(
      async () => {
        const pins = await sandboxPins(profile.username);
        return pins.length === 1 ? pins : undefined;
      },
      15_000,
      "the pin to post",
    );
    const entry = async () =>
      (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory[0] as { state: string; imageUrl: string; pinterestPinId: string };
    const before = await eventually(
      async () => {
        const found = await entry();
        return found.state === "posted" ? found : undefined;
      },
      15_000,
      "the history to say posted",
    );
    expect(before.imageUrl, "our render while it is kept").toBe(imageURL);
    const served = await app(`/media/${key}`);
    expect(served.status).toBe(200);
    await served.arrayBuffer();

    const ledger = ledgerOf(testEnv, user.userId);
    const record = await ledger
      .prepare(`SELECT posted_at, pin_id FROM pin_renders WHERE media_key = ?1`)
      .bind(key)
      .first<{ posted_at: number | null; pin_id: string }>();
    expect(record?.posted_at, "the render knows when its pin was posted").not.toBeNull();
    // A day short of 30: kept.
    await ledger
      .prepare(`UPDATE pin_renders SET posted_at = ?2 WHERE media_key = ?1`)
      .bind(key, Date.now() - POSTED_RENDER_TTL_MS + DAY)
      .run();
    await runDurableObjectAlarm(stubOf(user.userId));
    expect(await testEnv.MEDIA.head(key), "kept until 30 days after posting").not.toBeNull();
    // Past 30 days: gone, and the entry shows Pinterest's image.
    await ledger
      .prepare(`UPDATE pin_renders SET posted_at = ?2 WHERE media_key = ?1`)
      .bind(key, Date.now() - POSTED_RENDER_TTL_MS - 1_000)
      .run();
    await afterAlarm(user, async () => ((await testEnv.MEDIA.head(key)) === null ? true : undefined), "the render to be deleted");
    const after = await entry();
    expect(after.state).toBe("posted");
    expect(after.imageUrl, "Pinterest's own copy of the picture").toBe(`${testEnv.SANDBOX_URL}/pinterest/images/${posted.id}`);
    const gone = await app(`/media/${key}`);
    expect(gone.status).toBe(404);
    await gone.arrayBuffer();
    expect(await ledger.prepare(`SELECT count(*) AS n FROM pin_renders WHERE media_key = ?1`).bind(key).first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("deletes a render never paid for after a day, and forgets idempotency keys after 30 days", async () => {
    const user = await signUpUser({ firstName: "Tove" });
    const fresh = await renderFor(user, false);
    const old = await renderFor(user, false, Date.now() - UNPAID_RENDER_TTL_MS - 1_000);
    const paid = await renderFor(user, true, Date.now() - UNPAID_RENDER_TTL_MS - 1_000);
    const ledger = ledgerOf(testEnv, user.userId);
    const now = Date.now();
    await ledger
      .prepare(
        `INSERT INTO idempotency_keys (user_id, operation, key, request_hash, id, status, response, created_at, updated_at)
         VALUES (?1, 'schedule', 'old', 'h', 'c1', 'done', '{}', ?2, ?2), (?1, 'schedule', 'new', 'h', 'c2', 'done', '{}', ?3, ?3)`,
      )
      .bind(user.userId, now - KEY_TTL_MS - 1_000, now)
      .run();
    await afterAlarm(user, async () => ((await testEnv.MEDIA.head(old)) === null ? true : undefined), "the unpaid render to be deleted");
    expect(await testEnv.MEDIA.head(fresh), "a render made today is kept").not.toBeNull();
    expect(await testEnv.MEDIA.head(paid), "a paid render is not an unpaid one").not.toBeNull();
    const keys = await ledger.prepare(`SELECT key FROM idempotency_keys ORDER BY key`).all<{ key: string }>();
    expect(keys.results.map((row) => row.key)).toEqual(["new"]);
    // The next alarm is set for the next thing due: the fresh render's day.
    const alarm = await runInDurableObject(stubOf(user.userId), (_instance: UserLedger, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeGreaterThan(Date.now() + UNPAID_RENDER_TTL_MS - 60_000);
  });

  it("archives history older than 13 months as one gzip NDJSON file per month, served only to its owner", async () => {
    const user = await signUpUser({ firstName: "Halvard" });
    const other = await signUpUser({ firstName: "Liv" });
    const thisMonth = monthOf(Date.now());
    const at = (monthsBack: number, day: number) => monthStart(thisMonth, -monthsBack) + day * DAY + 3_600_000;
    const entries: [string, number][] = [
      ["Oldest, 14 months back", at(14, 2)],
      ["Also 14 months back", at(14, 20)],
      ["13 months back", at(13, 5)],
      ["12 months back: still on the page", at(12, 1)],
      ["This month", Date.now() - 60_000],
    ];
    // The oldest and the one still on the page were downloads whose JPEGs we keep; the others show a blog's picture.
    const downloaded = [0, 3].map((i) => `users/${user.userId}/pins/dl00000${i}/pin-${i}.jpeg`);
    for (const key of downloaded) await testEnv.MEDIA.put(key, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
    const pictureOf = (i: number) =>
      i === 0 ? mediaUrl(testEnv.APP_URL, downloaded[0]) : i === 3 ? mediaUrl(testEnv.APP_URL, downloaded[1]) : "https://example.com/a.jpg";
    const ledger = ledgerOf(testEnv, user.userId);
    await ledger.batch(
      entries.map(([title, createdAt], i) =>
        ledger
          .prepare(
            `INSERT INTO pin_history (id, user_id, action, category, credits, title, url, image_url, reference, created_at)
             VALUES (?1, ?2, 'downloaded', 'image', 1, ?3, 'https://example.com/post', ?6, ?4, ?5)`,
          )
          .bind(`archive-${i}-${user.userId}`, user.userId, title, `archive:${i}`, createdAt, pictureOf(i)),
      ),
    );
    const get = (who: TestUser, path: string) => app(path, { headers: bearer(who.tokens) });
    const listed = await afterAlarm(
      user,
      async () => {
        const answer = await read(await get(user, "/api/user/pinHistory/archives"));
        return answer.archives.length === 2 ? answer.archives : undefined;
      },
      "two months to be archived",
    );
    const [newer, older] = [monthOf(at(13, 5)), monthOf(at(14, 2))];
    expect(listed.map((archive: { month: string; entries: number }) => [archive.month, archive.entries])).toEqual([
      [newer, 1],
      [older, 2],
    ]);

    const file = await get(user, `/api/user/pinHistory/archives/${older}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/gzip");
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="pin-history-${older}.ndjson.gz"`);
    expect(file.headers.get("x-content-type-options"), "the security headers on the new route").toBe("nosniff");
    const text = await new Response(file.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(
      lines.map((line) => line.title),
      "oldest first",
    ).toEqual(["Oldest, 14 months back", "Also 14 months back"]);
    expect(lines[0]).toMatchObject({ action: "downloaded", credits: 1, url: "https://example.com/post", createdAt: new Date(at(14, 2)).toISOString() });
    // A download's JPEG goes with its month; a picture that is not ours is named as it was; a month still on the page keeps its JPEG.
    expect(lines.map((line) => line.imageUrl)).toEqual([null, "https://example.com/a.jpg"]);
    expect(await testEnv.MEDIA.head(downloaded[0]), "the archived download's JPEG").toBeNull();
    expect(await testEnv.MEDIA.head(downloaded[1]), "the JPEG of a download still on the page").not.toBeNull();

    const page = (await read(await post(user, "/api/user/getPinHistory", {}))).pinHistory as { title: string }[];
    expect(
      page.map((entry) => entry.title),
      "the page keeps 13 months",
    ).toEqual(["This month", "12 months back: still on the page"]);

    const theirs = await get(other, `/api/user/pinHistory/archives/${older}`);
    expect(theirs.status, "another user names only their own months").toBe(404);
    expect((await read(theirs)).error).toBe("There is no archive of your pin history for that month.");
    expect((await read(await get(other, "/api/user/pinHistory/archives"))).archives).toEqual([]);
    const bad = await get(user, "/api/user/pinHistory/archives/2025-13");
    expect(bad.status).toBe(400);
    expect((await read(bad)).field).toBe("month");

    expect((await app("/api/user/deleteUserAccount", { method: "DELETE", headers: bearer(user.tokens) })).status).toBe(200);
    expect(await testEnv.MEDIA.head(archiveKey(user.userId, older)), "deleted with the account").toBeNull();
  });
});
