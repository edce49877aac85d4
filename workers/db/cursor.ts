import { and, eq, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { BaseSQLiteDatabase, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type * as schema from "./schema.ts";

/**
 * A list read newest first, a page at a time after the row the client last saw (its id, the cursor), in
 * ONE statement (of a user's ledger, decision 084): the cursor row's time is read by a subquery in the page's own statement (computed
 * once by SQLite), and the cursor is checked on its own only when the page is empty (pageAfterCursor).
 * A page deep in a long list then costs what the first page costs (bench/growth.ts, docs/scale.md).
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
 * Reads `page` (filtered by olderThanCursor(cursor) when there is a cursor): its rows, or null when the
 * cursor is not one of the owner's rows. A page with rows proves its cursor (olderThanCursor matches
 * nothing for anyone else's), so the cursor is looked up only when the page comes back empty: the end
 * of the list, or a cursor that is not the owner's. Most pages are one statement.
 */
export async function pageAfterCursor<Row>(
  db: Pick<BaseSQLiteDatabase<"async", unknown, typeof schema>, "select">,
  page: PromiseLike<Row[]>,
  cursor: Cursor | null,
): Promise<Row[] | null> {
  const rows = await page;
  if (!cursor || rows.length > 0) return rows;
  const found = await db
    .select({ id: cursor.id })
    .from(cursor.table)
    .where(and(eq(cursor.id, cursor.cursorId), eq(cursor.owner, cursor.ownerId)))
    .limit(1);
  return found.length === 0 ? null : rows;
}
