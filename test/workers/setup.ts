import { applyD1Migrations, env } from "cloudflare:test";
import { seedStatements } from "../../workers/db/seed.ts";

// Every test file starts from the migrated, seeded schema (both are no-ops when already applied: the files share
// one workerd and its storage, decision 075).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await env.DB.batch(seedStatements().map((statement) => env.DB.prepare(statement)));
