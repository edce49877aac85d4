import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema.ts";

const clients = new WeakMap<D1Database, ReturnType<typeof newClient>>();
const newClient = (d1: D1Database) => drizzle(d1, { schema });

/**
 * A drizzle client over the D1 binding, made once per binding object (an isolate's `env.DB` is the
 * same object on every request): making one walks the whole schema, on every call of every request
 * before (decision 062). A client holds no state of a request: each query and batch is its own.
 */
export function database(d1: D1Database) {
  let client = clients.get(d1);
  if (!client) {
    client = newClient(d1);
    clients.set(d1, client);
  }
  return client;
}

export type Database = ReturnType<typeof database>;

/** A drizzle query as a plain D1 statement, for an `env.DB.batch` that holds raw statements too. */
export function d1Statement(d1: D1Database, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql, params } = query.toSQL();
  return d1.prepare(sql).bind(...params);
}
