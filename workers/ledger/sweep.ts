import type { Env } from "../env.ts";
import { ledgerOf } from "./client.ts";

/** Users moved per cron run (each a few D1 pages; the 5-minute cron moves 6,000 users an hour). */
export const MOVES_PER_RUN = 50;

/**
 * The cron's part of the move to per-user ledgers (decision 084): users nobody touched since the change are moved
 * by asking their object to move, oldest accounts first, a bounded number per run. Each move is idempotent and
 * resumable, so a run cut short, or two runs at once, only repeat pages. Answers how many users were moved now and
 * how many failed (tried again next run).
 */
export async function sweepLedgerMoves(env: Env, limit = MOVES_PER_RUN): Promise<{ moved: number; failed: number; left: boolean }> {
  const rows = await env.DB.prepare(`SELECT id FROM users WHERE ledger_moved_at IS NULL ORDER BY created_at LIMIT ?1`).bind(limit).all<{ id: string }>();
  let moved = 0;
  let failed = 0;
  await Promise.all(
    rows.results.map(async ({ id }) => {
      try {
        await ledgerOf(env, id).move();
        moved++;
      } catch (error) {
        failed++;
        console.warn(`cron: the ledger of user ${id} was not moved yet:`, error instanceof Error ? error.message : error);
      }
    }),
  );
  return { moved, failed, left: rows.results.length === limit };
}
