import { archiveKey, HISTORY_ONLINE_MONTHS, monthOf, monthStart } from "../../contracts/pinterest/history-archives.ts";
import { mediaKeyOf, userMediaPrefix } from "../../workers/media/store.ts";
import { KEY_TTL_MS } from "../../workers/services/core/idempotency.ts";
import { POSTED_RENDER_TTL_MS, UNPAID_RENDER_TTL_MS } from "../../workers/services/content/pin-renders.ts";

/**
 * What a user's ledger forgets, on its own alarm (docs/decisions/084-user-ledger.md): each object keeps its own
 * records in bounds, so no cron walks every user's rows.
 *
 * - renders never paid for: deleted (bytes and record) a day after they were made (decision 017);
 * - idempotency keys: forgotten 30 days after their request (decision 017);
 * - renders of posted pins: deleted 30 days after the posting (Pinterest copied the image when the pin was made);
 *   the pin's history entry then shows Pinterest's copy. A render a repeating pin uses is kept (it is posted again);
 * - pin history older than 13 months: each month goes to R2 as one gzip NDJSON file (archiveKey), written whole
 *   before its rows are deleted in one transaction, so a run cut short writes the same file again next time. The
 *   JPEGs of the month's downloads (`users/<id>/pins/`, shown by those entries only) are deleted with it.
 *
 * `nextDue` is the first moment something will be due, from the oldest row of each kind (each read by an index).
 */
export class LedgerRetention {
  private readonly sql: SqlStorage;
  private readonly media: R2Bucket;
  private readonly storage: DurableObjectStorage;
  /** The user whose ledger this is (the archives' folder). */
  userId: string | null = null;

  private readonly appUrl: string;

  constructor(storage: DurableObjectStorage, media: R2Bucket, appUrl: string) {
    this.storage = storage;
    this.sql = storage.sql;
    this.media = media;
    this.appUrl = appUrl;
  }

  /** Does what is due at `now`. Answers what it did. */
  async run(now: number): Promise<{ renders: number; keys: number; posted: number; archived: number }> {
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
          // By (user_id, pin_id): every row holds the one user, and naming them lets SQLite seek its index.
          this.sql.exec(
            `UPDATE pin_history SET image_url = coalesce(pinterest_image_url, ''), render_deleted_at = ?
             WHERE user_id = ? AND pin_id = ? AND render_deleted_at IS NULL`,
            now,
            this.userId,
            row.pin_id,
          );
        }
      }
      posted += rows.length;
      if (rows.length < 500) break;
    }
    const archived = await this.archiveHistory(now);
    return { renders, keys, posted, archived };
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
    const oldest = this.oldestEntry();
    // An entry is archived once its month is more than 13 months back: on the first day of the 14th month after it.
    if (oldest !== null) times.push(monthStart(monthOf(oldest), HISTORY_ONLINE_MONTHS + 1));
    return times.length > 0 ? Math.min(...times) : null;
  }

  /**
   * The oldest entry's time, read from the (user_id, created_at) index: without the user named, min() walks the whole
   * index (14 ms at 300,000 entries, measured), and nextDue runs after every write.
   */
  private oldestEntry(): number | null {
    if (this.userId === null) return null;
    return this.sql.exec<{ t: number | null }>(`SELECT min(created_at) AS t FROM pin_history WHERE user_id = ?`, this.userId).one().t;
  }

  /** Archives every month of history older than the 13 months kept online, oldest first. Answers the entries archived. */
  private async archiveHistory(now: number): Promise<number> {
    if (this.userId === null) return 0;
    // The first month still online: this month and the 12 before it.
    const keepFrom = monthStart(monthOf(now), -(HISTORY_ONLINE_MONTHS - 1));
    let archived = 0;
    for (;;) {
      const oldest = this.oldestEntry();
      if (oldest === null || oldest >= keepFrom) return archived;
      const month = monthOf(oldest);
      const [from, to] = [monthStart(month, 0), monthStart(month, 1)];
      const body = await this.monthFile(from, to);
      await this.media.put(archiveKey(this.userId, month), body.bytes, {
        httpMetadata: { contentType: "application/gzip" },
        customMetadata: { entries: String(body.entries) },
      });
      // The month's downloaded JPEGs go with its entries (the file names them without a picture); a run cut short
      // deletes what is left next time, before the rows go.
      for (let i = 0; i < body.downloads.length; i += 1000) await this.media.delete(body.downloads.slice(i, i + 1000));
      this.storage.transactionSync(() => {
        archived +=
          this.sql.exec(`DELETE FROM pin_history WHERE user_id = ? AND created_at >= ? AND created_at < ?`, this.userId, from, to).rowsWritten > 0
            ? body.entries
            : 0;
      });
    }
  }

  /** One month of entries as gzip NDJSON (one JSON object per line, oldest first), read a page at a time. */
  private async monthFile(from: number, to: number): Promise<{ bytes: Uint8Array; entries: number; downloads: string[] }> {
    const stream = new CompressionStream("gzip");
    const writer = stream.writable.getWriter();
    const chunks: Uint8Array[] = [];
    const reading = (async () => {
      const reader = stream.readable.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        chunks.push(value);
      }
    })();
    const encoder = new TextEncoder();
    const downloads: string[] = [];
    let entries = 0;
    let after: [number, string] = [from - 1, ""];
    for (;;) {
      const rows = this.sql
        .exec(
          `SELECT * FROM pin_history WHERE user_id = ? AND created_at < ? AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT 1000`,
          this.userId,
          to,
          after[0],
          after[0],
          after[1],
        )
        .toArray();
      if (rows.length === 0) break;
      const lines = rows.map((row) => {
        const download = this.downloadKey(row);
        if (download) downloads.push(download);
        return JSON.stringify(archivedEntry(row, download !== null));
      });
      await writer.write(encoder.encode(`${lines.join("\n")}\n`));
      entries += rows.length;
      const last = rows[rows.length - 1];
      after = [last.created_at as number, last.id as string];
    }
    await writer.close();
    await reading;
    const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return { bytes, entries, downloads };
  }

  /** The media key of a downloaded pin's JPEG that only this entry shows (under the user's `pins/`), else null. */
  private downloadKey(row: Record<string, SqlStorageValue>): string | null {
    if (row.action !== "downloaded" || typeof row.image_url !== "string" || this.userId === null) return null;
    const key = mediaKeyOf(this.appUrl, row.image_url);
    return key?.startsWith(`${userMediaPrefix(this.userId)}pins/`) ? key : null;
  }
}

/**
 * An entry as its archive keeps it: what the history page shows of it, in plain names (no internal columns); a
 * download's picture, deleted with the month, is not named.
 */
function archivedEntry(row: Record<string, SqlStorageValue>, pictureDeleted: boolean) {
  const time = (value: SqlStorageValue) => (typeof value === "number" ? new Date(Math.round(value)).toISOString() : null);
  return {
    id: row.id,
    action: row.action,
    createdAt: time(row.created_at),
    scheduledFor: time(row.scheduled_for),
    postedAt: time(row.posted_at),
    title: row.title,
    description: row.description,
    url: row.url,
    imageUrl: pictureDeleted ? null : row.image_url,
    mediaType: row.media_type,
    credits: row.credits,
    boardName: row.board_name,
    pinterestProfile: row.pinterest_profile,
    pinterestPinId: row.pinterest_pin_id,
  };
}
