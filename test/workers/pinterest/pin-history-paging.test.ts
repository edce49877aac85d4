import { describe, expect, it } from "vitest";
import { PIN_HISTORY_PAGE_SIZE } from "../../../contracts/pinterest/scheduling-api.ts";
import { pinHistory } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, testEnv } from "../support.ts";

// The history page seeks to its cursor (decision 058): what a user pages through must be every entry once,
// newest first, however the entries share milliseconds, and never another user's.
const history = (user: TestUser, body: unknown) => app("/api/user/getPinHistory", json(body, bearer(user.tokens)));

describe("pin history paging", () => {
  it("pages through entries recorded in the same millisecond, with the sub-millisecond noise SQLite adds, once each and in order", async () => {
    const user = await signUpUser({ firstName: "Ines" });
    const other = await signUpUser({ firstName: "Oskar" });
    const at = Date.now() - 3_600_000;
    // 100 entries in 8 milliseconds (runs of 13 across every page boundary), stored as created_at is written: ms plus a fraction.
    const entry = (userId: string, i: number) =>
      ledgerOf(testEnv, userId)
        .db.insert(pinHistory)
        .values({
          id: `h-${userId.slice(0, 8)}-${String(i).padStart(3, "0")}`,
          userId,
          action: "downloaded",
          category: "image",
          credits: 1,
          title: `Entry ${i}`,
          reference: `pin:${userId}-${i}`,
          createdAt: at + Math.floor(i / 13) + (i % 13) / 20,
        });
    // Each user's entries go into their own ledger (one transaction each).
    for (const [owner, count] of [
      [user, 100],
      [other, 40],
    ] as const) {
      const [first, ...rest] = Array.from({ length: count }, (_, i) => entry(owner.userId, i));
      await ledgerOf(testEnv, owner.userId).db.batch([first, ...rest]);
    }

    const titles: string[] = [];
    let body: Record<string, unknown> = {};
    for (let page = 0; page < 10; page++) {
      const rows = (await read(await history(user, body))).pinHistory as { id: string; title: string; createdAt: string }[];
      titles.push(...rows.map((row) => row.title));
      if (rows.length < PIN_HISTORY_PAGE_SIZE) break;
      const last = rows[rows.length - 1];
      body = { startAtDate: last.createdAt, lastId: last.id };
    }
    // Newest millisecond first; within one, the larger id first (the fraction is not what orders them).
    const expected = Array.from({ length: 100 }, (_, i) => i)
      .sort((a, b) => Math.floor(b / 13) - Math.floor(a / 13) || b - a)
      .map((i) => `Entry ${i}`);
    expect(titles).toEqual(expected);
  });
});
