import { KEY_TTL_MS } from "../../workers/services/idempotency.ts";
import { POSTED_RENDER_TTL_MS, UNPAID_RENDER_TTL_MS } from "../../workers/services/pin-renders.ts";

/**
 * What a user's ledger forgets, on its own alarm (docs/decisions/084-user-ledger.md): each object keeps its own
 * records in bounds, so no cron walks every user's rows.
 *
 * - renders never paid for: deleted (bytes and record) a day after they were made (decision 017);
 * - idempotency keys: forgotten 30 days after their request (decision 017);
 * - renders of posted pins: deleted 30 days after the posting (Pinterest copied the image when the pin was made);
 *   the pin's history entry then shows Pinterest's copy. A render a repeating pin uses is kept (it is posted again).
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
  async run(now: number): Promise<{ renders: number; keys: number; posted: number }> {
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
    let posted = 0;
    for (;;) {
      const rows = this.sql
        .exec<{ media_key: string; pin_id: string | null }>(
          `SELECT media_key, pin_id FROM pin_renders WHERE posted_at IS NOT NULL AND posted_at < ? AND keep = 0 ORDER BY posted_at LIMIT 500`,
          now - POSTED_RENDER_TTL_MS,
        )
        .toArray();
      if (rows.length === 0) break;
      await this.media.delete(rows.map((row) => row.media_key));
      for (const row of rows) {
        this.sql.exec(`DELETE FROM pin_renders WHERE media_key = ? AND keep = 0`, row.media_key);
        if (row.pin_id !== null) {
          this.sql.exec(
            `UPDATE pin_history SET image_url = coalesce(pinterest_image_url, ''), render_deleted_at = ? WHERE pin_id = ? AND render_deleted_at IS NULL`,
            now,
            row.pin_id,
          );
        }
      }
      posted += rows.length;
      if (rows.length < 500) break;
    }
    return { renders, keys, posted };
  }

  /** When something will next be due (ms), or null when nothing ever will. */
  nextDue(): number | null {
    const times: number[] = [];
    const render = this.sql.exec<{ t: number | null }>(`SELECT min(created_at) AS t FROM pin_renders WHERE paid_at IS NULL`).one().t;
    if (render !== null) times.push(render + UNPAID_RENDER_TTL_MS);
    const key = this.sql.exec<{ t: number | null }>(`SELECT min(created_at) AS t FROM idempotency_keys`).one().t;
    if (key !== null) times.push(key + KEY_TTL_MS);
    const posted = this.sql.exec<{ t: number | null }>(`SELECT min(posted_at) AS t FROM pin_renders WHERE posted_at IS NOT NULL`).one().t;
    if (posted !== null) times.push(posted + POSTED_RENDER_TTL_MS);
    return times.length > 0 ? Math.min(...times) : null;
  }
}
