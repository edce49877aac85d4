import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema.ts";

/** A drizzle client over the D1 binding. */
export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof database>;

/** A drizzle query as a plain D1 statement, for an `env.DB.batch` that holds raw statements too. */
export function d1Statement(d1: D1Database, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql, params } = query.toSQL();
  return d1.prepare(sql).bind(...params);
}
