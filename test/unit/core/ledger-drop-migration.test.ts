import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MOVED_TABLES } from "../../../durable-objects/ledger/schema.ts";

// Decision 084: the per-pin tables' D1 copies are dropped by a migration that waits in migrations/after-the-move
// until production's sweep has marked every user moved. Applied after every migration in migrations/, it drops
// exactly the moved tables (with their triggers), and leaves everything else as it was.

const MIGRATIONS = join(import.meta.dirname, "../../../migrations");
const WAITING_NAME = "0050_drop_moved_tables.sql";
const WAITING = join(MIGRATIONS, "after-the-move", WAITING_NAME);

function apply(db: DatabaseSync, file: string) {
  for (const statement of readFileSync(file, "utf8").split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
}

const objects = (db: DatabaseSync, type: string) =>
  (db.prepare(`SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name`).all(type) as { name: string }[]).map(
    (row) => row.name,
  );

describe("the migration waiting for the end of the move", () => {
  it("is not among the migrations applied today, and drops exactly the moved tables after them", () => {
    const applied = readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith(".sql"))
      .sort();
    expect(applied).not.toContain(WAITING_NAME);
    expect(Number(applied.at(-1)!.slice(0, 4)), "its number comes after the last applied one").toBeLessThan(Number(WAITING_NAME.slice(0, 4)));

    const db = new DatabaseSync(":memory:");
    for (const name of applied) apply(db, join(MIGRATIONS, name));
    const tablesBefore = objects(db, "table");
    for (const table of MOVED_TABLES) expect(tablesBefore).toContain(table);

    apply(db, WAITING);
    const tablesAfter = objects(db, "table");
    expect(tablesAfter).toEqual(tablesBefore.filter((table) => !(MOVED_TABLES as readonly string[]).includes(table)));
    expect(objects(db, "trigger").filter((name) => name.startsWith("credit_ledger"))).toEqual([]);
    expect(tablesAfter).toEqual(expect.arrayContaining(["users", "plans", "subscriptions"]));
  });
});
