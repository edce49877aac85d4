import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { UserLedger } from "../../../durable-objects/user-ledger.ts";
import { moveFromD1, PAGE_ROWS } from "../../../durable-objects/ledger/move.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { sweepLedgerMoves } from "../../../workers/ledger/sweep.ts";
import { bearer, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

// Issue 38, decision 084: a user made before the per-user ledger keeps exactly what they had: the same history
// (every entry once, in the same order), the same balance, the same renders served, the same idempotency keys.

const MOVED = ["credit_ledger", "pin_history", "pin_renders", "idempotency_keys", "drafts", "user_media", "credit_month_totals"] as const;
/** What D1 holds of a moved user: nothing, in every moved table. */
const NOTHING = Object.fromEntries(MOVED.map((table) => [table, 0]));

const stubOf = (userId: string) => testEnv.USER_LEDGER.get(testEnv.USER_LEDGER.idFromName(userId));

/** The test D1, showing `see` every statement prepared on it before it is (see may throw, as a failing D1 would). */
function d1Seeing(see: (sql: string) => unknown): D1Database {
  return new Proxy(testEnv.DB, {
    get(target, name) {
      if (name !== "prepare") return Reflect.get(target, name).bind?.(target) ?? Reflect.get(target, name);
      return (sql: string) => {
        see(sql);
        return target.prepare(sql);
      };
    },
  });
}

/** Makes a signed-up user look like one made before the change: an object that never woke, nothing moved. */
async function asBeforeTheChange(user: TestUser) {
  await runInDurableObject(stubOf(user.userId), async (instance: UserLedger, state) => {
    await state.storage.deleteAll();
    const fields = instance as unknown as { ready: unknown; userId: unknown; migrate(): void };
    fields.ready = null;
    fields.userId = null;
    fields.migrate();
  });
  await testEnv.DB.prepare(`UPDATE users SET ledger_moved_at = NULL WHERE id = ?1`).bind(user.userId).run();
}

/** What an older deploy wrote to D1 for this user: a month of spends, a long history, renders and a key. */
async function fillD1(user: TestUser, entries: number) {
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < entries; i++) {
    const at = now - (entries - i) * 1_000;
    statements.push(
      testEnv.DB.prepare(
        `INSERT INTO pin_history (id, user_id, action, category, credits, title, url, image_url, reference, created_at)
         VALUES (?1, ?2, 'downloaded', 'image', ?3, ?4, 'https://example.com/post', 'https://example.com/a.jpg', ?5, ?6)`,
      ).bind(`old-entry-${user.userId}-${String(i).padStart(5, "0")}`, user.userId, i < 3 ? 1 : 0, `Old pin ${i}`, `old:${i}`, at),
    );
  }
  // Three pins were paid for this month (which began when the account was made): 3 credits spent.
  for (let i = 0; i < 3; i++) {
    statements.push(
      testEnv.DB.prepare(
        `INSERT INTO credit_ledger (id, user_id, amount, category, reason, reference, created_at) VALUES (?1, ?2, -1, 'image', 'Pin download', ?3, ?4)`,
      ).bind(crypto.randomUUID(), user.userId, `old:${i}`, now + i),
    );
  }
  statements.push(
    testEnv.DB.prepare(`INSERT INTO pin_renders (media_key, user_id, paid_at, created_at) VALUES (?1, ?2, ?3, ?3)`).bind(
      `users/${user.userId}/pin-renders/paid0001/pin.jpg`,
      user.userId,
      now,
    ),
    testEnv.DB.prepare(`INSERT INTO pin_renders (media_key, user_id, paid_at, created_at) VALUES (?1, ?2, NULL, ?3)`).bind(
      `users/${user.userId}/pin-renders/unpaid01/pin.jpg`,
      user.userId,
      now,
    ),
    testEnv.DB.prepare(
      `INSERT INTO idempotency_keys (user_id, operation, key, request_hash, id, status, response, created_at, updated_at) VALUES (?1, 'schedule', 'key-1', 'hash', 'claim-1', 'done', '{"ok":true}', ?2, ?2)`,
    ).bind(user.userId, now),
    testEnv.DB.prepare(
      `INSERT INTO drafts (id, user_id, name, date, posts, post_count, created_at, updated_at) VALUES (?1, ?2, 'Spring posts', '3/1/2026', '[]', 0, ?3, ?3)`,
    ).bind(`old-draft-${user.userId}`, user.userId, now),
    ...[0, 1].map((i) =>
      testEnv.DB.prepare(
        `INSERT INTO user_media (id, user_id, media_type, object_key, file_name, content_type, size, width, height, created_at)
         VALUES (?1, ?2, 'image', ?3, ?4, 'image/png', 68, 1, 1, ?5)`,
      ).bind(`old-media-${i}-${user.userId}`, user.userId, `users/${user.userId}/media/old-${i}.png`, `old-${i}.png`, now + i),
    ),
  );
  for (let i = 0; i < statements.length; i += 200) await testEnv.DB.batch(statements.slice(i, i + 200));
  await testEnv.MEDIA.put(`users/${user.userId}/pin-renders/paid0001/pin.jpg`, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
  await testEnv.MEDIA.put(`users/${user.userId}/pin-renders/unpaid01/pin.jpg`, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
}

async function d1Rows(userId: string) {
  const results = await testEnv.DB.batch<{ n: number }>(
    MOVED.map((table) => testEnv.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?1`).bind(userId)),
  );
  return Object.fromEntries(MOVED.map((table, i) => [table, results[i].results[0].n]));
}

async function ledgerRows(userId: string) {
  const ledger = ledgerOf(testEnv, userId);
  const results = await ledger.batch<{ n: number }>(MOVED.map((table) => ledger.prepare(`SELECT count(*) AS n FROM ${table}`)));
  return Object.fromEntries(MOVED.map((table, i) => [table, results[i].results[0].n]));
}

/** Every entry of the history, page by page as the page reads it. */
async function wholeHistory(user: TestUser): Promise<{ id: string; title: string; createdAt: string }[]> {
  const all: { id: string; title: string; createdAt: string }[] = [];
  let body: Record<string, unknown> = { startAtDate: null };
  for (;;) {
    const page = (
      await read(
        await app("/api/user/getPinHistory", {
          method: "POST",
          headers: { ...bearer(user.tokens), "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      )
    ).pinHistory as { id: string; title: string; createdAt: string }[];
    all.push(...page);
    if (page.length === 0) return all;
    const last = page[page.length - 1];
    body = { startAtDate: Date.parse(last.createdAt), lastId: last.id };
  }
}

describe("the move of a user's records into their ledger", () => {
  it("keeps the history, the balance, the renders, the keys, the drafts and the media of a user made before the change", async () => {
    const user = await signUpUser({ firstName: "Ingrid" });
    await asBeforeTheChange(user);
    const entries = PAGE_ROWS * 2 + 37;
    await fillD1(user, entries);

    const credits = await read(await app("/api/user/credits", { headers: bearer(user.tokens) }));
    expect(credits, "Free's 10 credits less the 3 spent before the move").toMatchObject({ usedPinCredits: 3, remaining: 7 });

    const history = await wholeHistory(user);
    expect(history).toHaveLength(entries);
    expect(new Set(history.map((entry) => entry.id)).size, "no entry twice").toBe(entries);
    expect(history[0].title, "newest first").toBe(`Old pin ${entries - 1}`);
    expect(history[entries - 1].title).toBe("Old pin 0");

    const paid = await app(`/media/users/${user.userId}/pin-renders/paid0001/pin.jpg`);
    expect(paid.status, "a paid render is still served").toBe(200);
    await paid.arrayBuffer();
    const unpaid = await app(`/media/users/${user.userId}/pin-renders/unpaid01/pin.jpg`);
    expect(unpaid.status, "an unpaid one is still not").toBe(404);
    await unpaid.arrayBuffer();

    const drafts = await read(await app("/api/user/drafts/getDrafts", { headers: bearer(user.tokens) }));
    expect(
      drafts.drafts.map((draft: { name: string }) => draft.name),
      "the same drafts",
    ).toEqual(["Spring posts"]);
    const media = await read(await app("/api/user/media/getUserMedia", { headers: bearer(user.tokens) }));
    expect(
      media.media.map((item: { fileName: string }) => item.fileName),
      "the same media library, newest first",
    ).toEqual(["old-1.png", "old-0.png"]);

    expect(await ledgerRows(user.userId)).toMatchObject({
      credit_ledger: 4,
      pin_history: entries,
      pin_renders: 2,
      idempotency_keys: 1,
      drafts: 1,
      user_media: 2,
    });
    expect(await d1Rows(user.userId), "D1 holds nothing of theirs any more").toEqual(NOTHING);
    const mark = await testEnv.DB.prepare(`SELECT ledger_moved_at AS at FROM users WHERE id = ?1`).bind(user.userId).first<{ at: number | null }>();
    expect(mark?.at).not.toBeNull();

    // Spending after the move counts on what was moved.
    const spent = await app("/api/user/incrementUsedPinCredits", {
      method: "POST",
      headers: { ...bearer(user.tokens), "content-type": "application/json" },
      body: JSON.stringify({ category: "image", reference: "after-the-move" }),
    });
    expect(spent.status).toBe(200);
    expect(await read(await app("/api/user/credits", { headers: bearer(user.tokens) }))).toMatchObject({ usedPinCredits: 4, remaining: 6 });
  });

  it("resumes a move cut short, copies nothing twice, and a second move changes nothing", async () => {
    const user = await signUpUser({ firstName: "Sune" });
    await asBeforeTheChange(user);
    const entries = PAGE_ROWS * 3 + 5;
    await fillD1(user, entries);
    // A move whose D1 fails after its second page of history.
    let pages = 0;
    const flaky = d1Seeing((sql) => {
      if (/FROM pin_history WHERE user_id = \?1 AND rowid > \?2/.test(sql) && ++pages > 2) throw new Error("D1_ERROR: Network connection lost.");
    });
    const cut = await runInDurableObject(stubOf(user.userId), async (instance: UserLedger, state) => {
      const meta = (instance as unknown as { meta: { get(key: string): string | null; set(key: string, value: string): void } }).meta;
      meta.set("user_id", user.userId);
      const error = await moveFromD1(flaky, state.storage.sql, state.storage, meta, user.userId).then(
        () => null,
        (failure: unknown) => failure,
      );
      return { error: String(error), history: state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM pin_history`).one().n, done: meta.get("moved") };
    });
    expect(cut.error).toMatch(/Network connection lost/);
    expect(cut.history, "two pages kept").toBe(PAGE_ROWS * 2);
    expect(cut.done).toBeNull();
    expect((await d1Rows(user.userId)).pin_history, "D1 keeps everything until the move is verified").toBe(entries);

    // The cron's sweep finishes it.
    let outcome: Awaited<ReturnType<typeof sweepLedgerMoves>> | undefined;
    for (let run = 0; run < 20; run++) {
      outcome = await sweepLedgerMoves(testEnv, 500);
      const left = await testEnv.DB.prepare(`SELECT ledger_moved_at AS at FROM users WHERE id = ?1`).bind(user.userId).first<{ at: number | null }>();
      if (left?.at != null) break;
    }
    expect(outcome?.failed).toBe(0);
    expect(await ledgerRows(user.userId)).toMatchObject({
      credit_ledger: 3,
      pin_history: entries,
      pin_renders: 2,
      idempotency_keys: 1,
      drafts: 1,
      user_media: 2,
    });
    expect(await d1Rows(user.userId)).toEqual(NOTHING);

    // Asked again: nothing more.
    const again = await ledgerOf(testEnv, user.userId).move();
    expect(again.moved).toBe(false);
    expect((await ledgerRows(user.userId)).pin_history).toBe(entries);
    expect(await wholeHistory(user)).toHaveLength(entries);
  });

  it("wakes a user marked moved without reading D1's per-pin tables, so the migration waiting in migrations/after-the-move can drop them", async () => {
    const user = await signUpUser({ firstName: "Tove" });
    await asBeforeTheChange(user);
    await testEnv.DB.prepare(`UPDATE users SET ledger_moved_at = ?2 WHERE id = ?1`).bind(user.userId, Date.now()).run();
    const read: string[] = [];
    const recording = d1Seeing((sql) => read.push(sql));
    const outcome = await runInDurableObject(stubOf(user.userId), async (instance: UserLedger, state) => {
      const meta = (instance as unknown as { meta: { get(key: string): string | null; set(key: string, value: string): void } }).meta;
      meta.set("user_id", user.userId);
      const moved = await moveFromD1(recording, state.storage.sql, state.storage, meta, user.userId);
      return { moved: moved.moved, done: meta.get("moved") };
    });
    expect(outcome).toEqual({ moved: true, done: "done" });
    expect(read.filter((sql) => MOVED.some((table) => new RegExp(`\\b${table}\\b`).test(sql)))).toEqual([]);
  });
});
