import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema.ts";

/** A drizzle client over the D1 binding. */
export function database(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof database>;
