import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../workers/app.ts";
import { purgeExpiredRateLimits } from "../../../workers/services/accounts/rate-limit.ts";
import { testEnv } from "../support.ts";

/** rate_limits only grew: the cron sweep now forgets expired windows (issue 37, point 7; decision 083). */

const bucketsLike = async (prefix: string) =>
  (
    await testEnv.DB.prepare("SELECT bucket FROM rate_limits WHERE substr(bucket, 1, length(?1)) = ?1 ORDER BY bucket").bind(prefix).all<{ bucket: string }>()
  ).results.map((row) => row.bucket);

async function fill(prefix: string, expired: number, live: number, now: number) {
  const rows = [
    ...Array.from({ length: expired }, (_, i) => [`${prefix}expired:${String(i).padStart(5, "0")}`, now - 1_000 - i]),
    ...Array.from({ length: live }, (_, i) => [`${prefix}live:${String(i).padStart(5, "0")}`, now + 60_000 + i]),
  ] as const;
  await testEnv.DB.batch(
    rows.map(([bucket, resetAt]) => testEnv.DB.prepare("INSERT INTO rate_limits (bucket, count, reset_at) VALUES (?1, 1, ?2)").bind(bucket, resetAt)),
  );
}

describe("expired rate-limit windows", () => {
  it("are forgotten by the cron sweep, and windows still running are kept", async () => {
    const prefix = `test-purge-${crypto.randomUUID()}:`;
    const now = Date.now();
    await fill(prefix, 30, 3, now);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "*/5 * * * *" }), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(await bucketsLike(prefix)).toEqual([`${prefix}live:00000`, `${prefix}live:00001`, `${prefix}live:00002`]);
  });

  it("are forgotten a bounded batch at a time, oldest first, so one run never writes without limit", async () => {
    const prefix = `test-purge-batch-${crypto.randomUUID()}:`;
    // Long ago, so that these are the oldest expired windows in the shared database whatever other files left.
    const then = Date.UTC(2001, 0, 1);
    await fill(prefix, 12, 1, then);
    expect(await purgeExpiredRateLimits(testEnv.DB, then, 5)).toBe(5);
    expect((await bucketsLike(`${prefix}expired:`)).length).toBe(7);
    expect(await purgeExpiredRateLimits(testEnv.DB, then, 100)).toBe(7);
    expect(await bucketsLike(prefix)).toEqual([`${prefix}live:00000`]);
    await testEnv.DB.prepare("DELETE FROM rate_limits WHERE substr(bucket, 1, length(?1)) = ?1").bind(prefix).run();
  });
});
