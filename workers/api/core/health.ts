import { sql } from "drizzle-orm";
import { database } from "../../db/client.ts";
import { APP_VERSION } from "../../version.ts";
import { router } from "./hono.ts";

export const health = router();

/** Liveness plus a D1 round trip: 503 when the database does not answer. */
health.get("/", async (c) => {
  try {
    await database(c.env.DB).run(sql`SELECT 1`);
  } catch (error) {
    console.error("health: database check failed", error);
    return c.json({ status: "error", version: APP_VERSION }, 503);
  }
  return c.json({ status: "ok", version: APP_VERSION });
});
