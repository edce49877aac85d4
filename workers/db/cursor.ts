import { and, eq, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client.ts";

/**
 * A list read newest first, a page at a time after the row the client last saw (its id, the cursor), in
 * ONE D1 round trip: the cursor row's time is read by a subquery in the page's own statement (computed
 * once by SQLite), and the check that the cursor is the owner's goes in the same batch. A page deep in a
 * long list then costs what the first page costs (bench/growth.ts, docs/scale.md).
 *
 * `time` and `id` are the list's order (time descending, ties by id descending); `owner` = `ownerId` is the
 * row's owner.
 */
export interface Cursor {
  table: SQLiteTable;
  time: SQLiteColumn;
  id: SQLiteColumn;
  owner: SQLiteColumn;
  cursorId: string;
  ownerId: string;
}

/** The page's condition: rows after the cursor row (matches nothing when the cursor is not the owner's). */
export function olderThanCursor({ table, time, id, owner, cursorId, ownerId }: Cursor): SQL {
  const cursorTime = sql`(SELECT cursor_row.${sql.identifier(time.name)} FROM ${table} AS cursor_row WHERE cursor_row.${sql.identifier(id.name)} = ${cursorId} AND cursor_row.${sql.identifier(owner.name)} = ${ownerId})`;
  // The first bound is implied by the OR, but lets SQLite seek to the page instead of walking every newer entry.
  return and(lte(time, cursorTime), or(lt(time, cursorTime), and(eq(time, cursorTime), lt(id, cursorId))))!;
}

/**
 * Reads `page` (filtered by olderThanCursor(cursor) when there is a cursor) in one round trip with the
 * cursor's check: its rows, or null when the cursor is not one of the owner's rows.
 */
export async function pageAfterCursor<Row>(db: Database, page: BatchItem<"sqlite"> & PromiseLike<Row[]>, cursor: Cursor | null): Promise<Row[] | null> {
  if (!cursor) return page;
  const check = db.select({ id: cursor.id }).from(cursor.table).where(and(eq(cursor.id, cursor.cursorId), eq(cursor.owner, cursor.ownerId)));
  const [found, rows] = (await db.batch([check, page])) as [unknown[], Row[]];
  return found.length === 0 ? null : rows;
}
