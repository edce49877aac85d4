import { describe, expect, it } from "vitest";
import { applyD1Migrations } from "cloudflare:test";
import { seedStatements } from "../../../workers/db/seed.ts";
import { testEnv } from "../support.ts";

async function tableNames() {
  const { results } = await testEnv.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/** Runs the seed on `db` (the shared DB unless told), answering how many rows it changed. */
async function seed(db: D1Database = testEnv.DB) {
  let changes = 0;
  for (const statement of seedStatements()) changes += (await db.prepare(statement).run()).meta.changes;
  return changes;
}

async function dump(table: string, db: D1Database = testEnv.DB) {
  return (await db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()).results;
}

describe("migrations", () => {
  it("create the schema on an empty database and record themselves, and applying again changes nothing", async () => {
    // The test setup applied every migration to this D1 (a fresh one for the first test file of each workerd).
    expect(await tableNames()).toEqual(expect.arrayContaining(["d1_migrations", "plans", "scheduler_index", "video_jobs"]));
    const applied = (await dump("d1_migrations")).map((row) => row.name);
    expect(applied).toEqual(testEnv.TEST_MIGRATIONS.map((m) => m.name));

    await applyD1Migrations(testEnv.DB, testEnv.TEST_MIGRATIONS);
    expect((await dump("d1_migrations")).map((row) => row.name)).toEqual(applied);
  });
});

describe("seed", () => {
  it("loads the plans, and running it twice changes nothing", async () => {
    // A database of its own: the shared one is seeded already and other files put accounts on its plans.
    const db = testEnv.SEED_TEST_DB;
    await applyD1Migrations(db, testEnv.TEST_MIGRATIONS);
    await db.prepare("DELETE FROM plans").run();
    expect(await seed(db)).toBeGreaterThan(0);
    const first = await dump("plans", db);
    expect(first.map((p) => p.id)).toEqual([
      "agency-annual",
      "agency-monthly",
      "free",
      "growth-annual",
      "growth-monthly",
      "lifetime",
      "pro-annual",
      "pro-monthly",
      "starter-annual",
      "starter-monthly",
    ]);
    expect(first.find((p) => p.id === "starter-monthly")).toMatchObject({ price: 16.99, credits_per_month: 150, free_trial_days: 7 });

    expect(await seed(db)).toBe(0);
    expect(await dump("plans", db)).toEqual(first);
  });

  it("repairs a row that drifted from the seed data", async () => {
    const db = testEnv.SEED_TEST_DB;
    await applyD1Migrations(db, testEnv.TEST_MIGRATIONS);
    await seed(db);
    await db.prepare("UPDATE plans SET price = 1 WHERE id = 'pro-monthly'").run();
    expect(await seed(db)).toBe(1);
    expect((await dump("plans", db)).find((p) => p.id === "pro-monthly")).toMatchObject({ price: 29.99 });
  });
});
