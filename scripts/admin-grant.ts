// `npm run admin:grant -- EMAIL` makes an existing account admin in the local D1 database (the one `npm start`
// uses); `npm run admin:grant -- EMAIL --remote` does it in production. The only way to make the first admin of
// a deployment: no API makes admins (docs/decisions/051-admin-console.md). Writes an audit log entry whose actor
// is "admin:grant script".
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { Email } from "../contracts/fields.ts";
import { adminGrantLookup, adminGrantRefusal, adminGrantStatements, inlineStatements } from "../workers/db/admin-accounts.ts";
import { ROOT, run } from "./process.ts";

const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const args = process.argv.slice(2);
const remote = args.includes("--remote");
const parsed = v.safeParse(Email, args.find((arg) => !arg.startsWith("--")) ?? "");
if (!parsed.success) {
  console.error("Usage: npm run admin:grant -- EMAIL [--remote]\n(the e-mail of an existing account; --remote for the production database)");
  process.exit(2);
}
const email = parsed.output;
const where = remote ? ["--remote"] : ["--local", "--persist-to", join(ROOT, ".wrangler", "state")];

async function lookUp() {
  const output = await run(WRANGLER, ["d1", "execute", "DB", ...where, "--json", "--command", inlineStatements([adminGrantLookup(email)])], { quiet: true });
  const answer = JSON.parse(output.slice(output.indexOf("["))) as { results: { role: string; blocked_at: number | null }[] }[];
  return answer[0]?.results[0];
}

const refusal = adminGrantRefusal(email, await lookUp());
if (refusal) {
  (refusal.failed ? console.error : console.log)(refusal.message);
  process.exit(refusal.failed ? 1 : 0);
}
const file = join(ROOT, ".wrangler", "admin-grant.sql");
mkdirSync(join(ROOT, ".wrangler"), { recursive: true });
writeFileSync(file, inlineStatements(adminGrantStatements(email, Date.now())));
await run(WRANGLER, ["d1", "execute", "DB", ...where, "--file", file, "--yes"], { quiet: true });
if ((await lookUp())?.role !== "admin") {
  console.error(`${email} could not be made an admin (it changed while this ran). Run this again.`);
  process.exit(1);
}
console.log(`${email} is now an admin${remote ? " in production" : " locally"}. The audit log on /admin shows the change.`);
