import { KEY_TTL_MS } from "../../workers/services/idempotency.ts";
import { UNPAID_RENDER_TTL_MS } from "../../workers/services/pin-renders.ts";

/**
 * What a user's ledger forgets, on its own alarm (docs/decisions/084-user-ledger.md): each object keeps its own
 * records in bounds, so no cron walks every user's rows.
 *
 * - renders never paid for: deleted (bytes and record) a day after they were made (decision 017);
 * - idempotency keys: forgotten 30 days after their request (decision 017).
 *
 * `nextDue` is the first moment something will be due, from the oldest row of each kind (each read by an index).
 */
export class LedgerRetention {
  private readonly sql: SqlStorage;
  private readonly media: R2Bucket;

  constructor(sql: SqlStorage, media: R2Bucket) {
    this.sql = sql;
    this.media = media;
  }

  /** Does what is due at `now`. Answers what it did. */
  async run(now: number): Promise<{ renders: number; keys: number }> {
    let renders = 0;
    for (;;) {
      const keys = this.sql
        .exec<{ media_key: string }>(`SELECT media_key FROM pin_renders WHERE paid_at IS NULL AND created_at < ? LIMIT 500`, now - UNPAID_RENDER_TTL_MS)
        .toArray()
        .map((row) => row.media_key);
      if (keys.length === 0) break;
      // The bytes first: a record whose bytes are gone is harmless, bytes without a record would never be deleted.
      await this.media.delete(keys);
      for (const key of keys) this.sql.exec(`DELETE FROM pin_renders WHERE media_key = ? AND paid_at IS NULL`, key);
      renders += keys.length;
      if (keys.length < 500) break;
    }
    const keys = this.sql.exec(`DELETE FROM idempotency_keys WHERE created_at < ?`, now - KEY_TTL_MS).rowsWritten;
    return { renders, keys };
  }

  /** When something will next be due (ms), or null when nothing ever will. */
  nextDue(): number | null {
    const times: number[] = [];
    const render = this.sql.exec<{ t: number | null }>(`SELECT min(created_at) AS t FROM pin_renders WHERE paid_at IS NULL`).one().t;
    if (render !== null) times.push(render + UNPAID_RENDER_TTL_MS);
    const key = this.sql.exec<{ t: number | null }>(`SELECT min(created_at) AS t FROM idempotency_keys`).one().t;
    if (key !== null) times.push(key + KEY_TTL_MS);
    return times.length > 0 ? Math.min(...times) : null;
  }
}
