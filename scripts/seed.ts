// `npm run db:seed` loads the seed into the local D1 database (idempotent).
// `npm run db:seed -- --remote` loads it into the production database.
import { join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { seedSql } from "../workers/db/seed.ts";
import { ROOT, run } from "./process.ts";
import { prepareDatabase } from "./stack.ts";

if (process.argv.includes("--remote")) {
  const file = join(ROOT, ".wrangler", "seed.sql");
  mkdirSync(join(ROOT, ".wrangler"), { recursive: true });
  writeFileSync(file, seedSql());
  await run(join(ROOT, "node_modules", ".bin", "wrangler"), ["d1", "execute", "DB", "--remote", "--file", file, "--yes"]);
} else {
  await prepareDatabase(join(ROOT, ".wrangler", "state"));
}
