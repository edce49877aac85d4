import { applyD1Migrations, env } from "cloudflare:test";

// Every test file starts from the migrated schema (applying is a no-op when already applied).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
