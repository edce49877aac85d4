// `npm test`: build, typecheck, lint and format check (Biome), unit tests, workers tests
// (in workerd), end-to-end tests (Chromium against the built app), then a deploy dry run.
// Stops at the first failure.
import { spawn } from "node:child_process";
import { childEnv, ROOT } from "./process.ts";
import { describeMissing, missingNeeds } from "./test-needs.ts";

const steps: { name: string; command: string; args: string[]; env?: Record<string, string> }[] = [
  { name: "build", command: "npm", args: ["run", "build"] },
  { name: "pixel module up to date", command: "node", args: ["scripts/check-pixels-wasm.ts"] },
  { name: "typecheck", command: "npm", args: ["run", "typecheck"] },
  { name: "lint and format", command: "npm", args: ["run", "lint"] },
  { name: "unit tests", command: "npx", args: ["vitest", "run", "--project", "unit"] },
  { name: "workers tests (workerd)", command: "npx", args: ["vitest", "run", "--project", "workers"] },
  { name: "end-to-end tests (Chromium)", command: "npx", args: ["vitest", "run", "--project", "e2e"], env: { E2E_SKIP_BUILD: "1" } },
  { name: "deploy dry run", command: "node", args: ["scripts/deploy-check.ts"] },
];

const only = process.argv.slice(2);
const chosen = steps.filter((step) => only.length === 0 || only.some((word) => step.name.startsWith(word)));
const missing = missingNeeds(chosen.map((step) => step.name));
if (missing.length > 0) {
  console.error(describeMissing(missing));
  process.exit(1);
}
const timings: string[] = [];
for (const step of chosen) {
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(step.command, step.args, { cwd: ROOT, stdio: "inherit", env: childEnv(step.env) });
    child.on("close", (exitCode) => resolve(exitCode ?? 1));
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  timings.push(`  ${code === 0 ? "ok  " : "FAIL"}  ${step.name.padEnd(30)} ${seconds} s`);
  if (code !== 0) {
    console.error(`\n${timings.join("\n")}\n\n${step.name} failed.`);
    process.exit(code);
  }
}
console.log(`\nAll checks passed:\n${timings.join("\n")}`);
