import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 39 point 5 (decision 089): the browser's data goes through one layer (TanStack Query, app/lib/query.ts),
// not hand-written fetch effects. The app had 125 useEffect calls before; the target is at most 60. A new page that
// needs an effect finds a way under the budget (a query, a callback ref, an event handler) or says why here.
const BUDGET = 60;
const APP = join(import.meta.dirname, "..", "..", "..", "app");

function effectCalls(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of readdirSync(APP, { recursive: true }) as string[]) {
    if (!/\.(ts|tsx)$/.test(file)) continue;
    const source = readFileSync(join(APP, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/(^|[^:])\/\/.*$/gm, "$1");
    const calls = source.match(/\buseEffect\s*\(/g)?.length ?? 0;
    if (calls) counts.set(file, calls);
  }
  return counts;
}

describe("effects in the browser's code", () => {
  it(`stay within the budget of ${BUDGET} useEffect calls`, () => {
    const counts = effectCalls();
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const busiest = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5);
    expect(total, `useEffect calls by file, busiest first: ${JSON.stringify(busiest)}`).toBeLessThanOrEqual(BUDGET);
    // The count is real: the pages that must sync with the browser still have their effects.
    expect(total).toBeGreaterThan(0);
  });
});
