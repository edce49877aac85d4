import { relative } from "node:path";
import type { Reporter, SerializedError, TestCase, TestModule } from "vitest/node";

/**
 * Prints, after vitest's own report, one short line per failed test: its file,
 * its name and the start of its error. The CI log keeps only its last lines,
 * and vitest's report ends with code frames, so without this a failure there
 * (a flaky one above all) could not be told from its log.
 */
export default class FailureSummary implements Reporter {
  private readonly failures: string[] = [];

  onTestCaseResult(testCase: TestCase) {
    const result = testCase.result();
    if (result.state !== "failed") return;
    this.failures.push(`${where(testCase.module)} > ${testCase.fullName}: ${short(result.errors ?? [])}`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    for (const module of modules) {
      const errors = module.errors();
      if (errors.length > 0) this.failures.push(`${where(module)} (the file itself): ${short(errors)}`);
    }
    if (unhandledErrors.length > 0) this.failures.push(`unhandled: ${short(unhandledErrors)}`);
    if (this.failures.length === 0) return;
    console.log(`\nFailed, in short (${this.failures.length}):`);
    for (const line of this.failures.slice(0, 8)) console.log(`  ${line}`);
    if (this.failures.length > 8) console.log(`  and ${this.failures.length - 8} more`);
  }
}

function where(module: TestModule): string {
  return relative(process.cwd(), module.moduleId);
}

function short(errors: ReadonlyArray<{ message?: string }>): string {
  const text = errors
    .map((error) => error.message ?? "")
    .join(" | ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 700 ? `${text.slice(0, 700)}…` : text;
}
