import { MOVED_COLUMNS, MOVED_TABLES, type MovedTable } from "./schema.ts";

/**
 * The move of a user's per-pin records from D1 into their UserLedger object (docs/decisions/084-user-ledger.md).
 *
 * - Runs before the object answers anything, the first time it wakes (and from the cron's sweep for users
 *   nobody touched): nothing reads or writes the object while a move is under way.
 * - Copies each table by D1 rowid, a page at a time, with INSERT OR IGNORE: a page copied twice changes nothing.
 *   Each page and the place it reached are one transaction of the object, so a move cut short (the object
 *   evicted, D1 unreachable) resumes from the page after the last one it kept.
 * - The month totals go last: the ledger's triggers find no month row to move while the ledger is copied, and
 *   the copied rows carry D1's sums as they were.
 * - Verified by counts: every table's rows for the user in D1 must all be in the object (compared by count,
 *   table by table). A difference (a write that reached D1 during the move) copies again from the start.
 * - Then the object notes it is done, the user's rows leave D1 (a page at a time) and `users.ledger_moved_at`
 *   is set, which the sweep reads to find who is left. A move that stops after the note finishes the clean-up
 *   the next time it is asked.
 */

export const PAGE_ROWS = 500;
const DELETE_ROWS = 2_000;
const MAX_PASSES = 3;

type Meta = { get(key: string): string | null; set(key: string, value: string): void };

export interface MoveOutcome {
  /** Rows copied now, by table (0 everywhere for a user who had nothing, or was moved before). */
  copied: Record<MovedTable, number>;
  /** Whether this call did the move (false: it was done before). */
  moved: boolean;
}

export async function moveFromD1(
  db: D1Database,
  sql: SqlStorage,
  storage: DurableObjectStorage,
  meta: Meta,
  userId: string,
  now = Date.now(),
): Promise<MoveOutcome> {
  const copied = Object.fromEntries(MOVED_TABLES.map((table) => [table, 0])) as Record<MovedTable, number>;
  if (meta.get("moved") === "done") {
    if (meta.get("d1_cleared") !== "done") await clearD1(db, meta, userId, now);
    return { copied, moved: false };
  }
  const markDone = () =>
    storage.transactionSync(() => {
      meta.set("moved", "done");
      meta.set("moved_at", String(now));
      meta.set("d1_cleared", "done");
    });
  // A user marked moved in D1 (every one made since the change, and every one moved) has nothing there: the D1
  // tables are not read, so they can be dropped once every user is marked (migrations/after-the-move/).
  const user = await db.prepare(`SELECT ledger_moved_at FROM users WHERE id = ?1`).bind(userId).first<{ ledger_moved_at: number | null }>();
  if (user?.ledger_moved_at != null) {
    markDone();
    return { copied, moved: true };
  }
  // One round trip tells whether the user has anything in D1, and marks them moved when they have not.
  const first = await d1Counts(db, userId, now);
  if (MOVED_TABLES.every((table) => first[table] === 0)) {
    markDone();
    return { copied, moved: true };
  }
  for (let pass = 0; ; pass++) {
    for (const table of MOVED_TABLES) copied[table] += await copyTable(db, sql, storage, meta, userId, table);
    const counts = await d1Counts(db, userId);
    const differ = MOVED_TABLES.filter((table) => objectCount(sql, table) < counts[table]);
    if (differ.length === 0) break;
    if (pass + 1 >= MAX_PASSES) throw new Error(`UserLedger ${userId}: the move left ${differ.join(", ")} short after ${MAX_PASSES} passes`);
    // Rows reached D1 behind the copy's place: copy everything again (what is here already is ignored).
    storage.transactionSync(() => {
      for (const table of MOVED_TABLES) meta.set(`move:${table}`, "0");
    });
  }
  meta.set("moved", "done");
  meta.set("moved_at", String(now));
  await clearD1(db, meta, userId, now);
  return { copied, moved: true };
}

async function copyTable(db: D1Database, sql: SqlStorage, storage: DurableObjectStorage, meta: Meta, userId: string, table: MovedTable): Promise<number> {
  const columns = MOVED_COLUMNS[table];
  const insert = `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  let after = Number(meta.get(`move:${table}`) ?? "0");
  let copied = 0;
  for (;;) {
    const page = await db
      .prepare(`SELECT rowid AS moved_rowid, ${columns.join(", ")} FROM ${table} WHERE user_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ${PAGE_ROWS}`)
      .bind(userId, after)
      .raw<SqlStorageValue[]>();
    if (page.length === 0) return copied;
    storage.transactionSync(() => {
      for (const row of page) sql.exec(insert, ...row.slice(1));
      after = Number(page[page.length - 1][0]);
      meta.set(`move:${table}`, String(after));
    });
    copied += page.length;
    if (page.length < PAGE_ROWS) return copied;
  }
}

/** The user's rows in each table of D1. With `markIfEmpty`, the same batch marks the user moved when they have none. */
async function d1Counts(db: D1Database, userId: string, markIfEmpty?: number): Promise<Record<MovedTable, number>> {
  const counts = MOVED_TABLES.map((table) => db.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?1`).bind(userId));
  const none = MOVED_TABLES.map((table) => `NOT EXISTS (SELECT 1 FROM ${table} WHERE user_id = ?1)`).join(" AND ");
  const mark =
    markIfEmpty === undefined
      ? []
      : [db.prepare(`UPDATE users SET ledger_moved_at = ?2 WHERE id = ?1 AND ledger_moved_at IS NULL AND ${none}`).bind(userId, markIfEmpty)];
  const results = await db.batch<{ n: number }>([...counts, ...mark]);
  return Object.fromEntries(MOVED_TABLES.map((table, i) => [table, results[i].results[0]?.n ?? 0])) as Record<MovedTable, number>;
}

function objectCount(sql: SqlStorage, table: MovedTable): number {
  return sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).one().n;
}

/** The user's rows leave D1 once the object holds them all (a page at a time, so no statement runs long). */
async function clearD1(db: D1Database, meta: Meta, userId: string, now: number) {
  for (const table of MOVED_TABLES) {
    for (;;) {
      const result = await db
        .prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE user_id = ?1 LIMIT ${DELETE_ROWS})`)
        .bind(userId)
        .run();
      if ((result.meta.changes ?? 0) < DELETE_ROWS) break;
    }
  }
  await db.prepare(`UPDATE users SET ledger_moved_at = ?2 WHERE id = ?1 AND ledger_moved_at IS NULL`).bind(userId, now).run();
  meta.set("d1_cleared", "done");
}
