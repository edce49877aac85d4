import { and, eq, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * A list read newest first, a page at a time after the row the client last saw (its id, the cursor), in
 * ONE statement: the cursor row's time is read by a subquery (computed once by SQLite), so a page deep in
 * a long list costs one D1 round trip like the first page, not two (bench/growth.ts, docs/scale.md).
 *
 * `time` and `id` are the list's order (time descending, ties by id descending); the cursor row must belong
 * to the same owner (`owner` = `ownerId`), else the condition matches nothing. Check that it does with
 * `cursorRowExists` in the same batch, so a cursor that is not the caller's answers an error rather than an
 * empty page.
 */
export function olderThanCursor(table: SQLiteTable, columns: { time: SQLiteColumn; id: SQLiteColumn; owner: SQLiteColumn }, cursorId: string, ownerId: string): SQL {
  const { time, id, owner } = columns;
  const cursorTime = sql`(SELECT cursor_row.${sql.identifier(time.name)} FROM ${table} AS cursor_row WHERE cursor_row.${sql.identifier(id.name)} = ${cursorId} AND cursor_row.${sql.identifier(owner.name)} = ${ownerId})`;
  // The first bound is implied by the OR, but lets SQLite seek to the page instead of walking every newer entry.
  return and(lte(time, cursorTime), or(lt(time, cursorTime), and(eq(time, cursorTime), lt(id, cursorId))))!;
}
