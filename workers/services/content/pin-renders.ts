import type { Env } from "../../env.ts";
import { ledgerOf, type Ledger, type LedgerStatement } from "../../ledger/client.ts";
import { mediaKeyOf, userMediaPrefix } from "../../media/store.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * Full-size pins rendered for scheduling (docs/decisions/017-idempotency-keys.md):
 * rendering them is free, but their image is not served under /media until
 * the schedule that uses them has charged its credit. So no full-size pin
 * leaves the server unpaid: a download is charged when it is rendered, a
 * scheduled pin when it is scheduled.
 */

/** Unpaid renders are deleted after this long. */
export const UNPAID_RENDER_TTL_MS = 24 * 60 * 60_000;
/** A render is deleted this long after its pin was posted (decision 084; Pinterest keeps its own copy). */
export const POSTED_RENDER_TTL_MS = 30 * 24 * 60 * 60_000;

/** Where a render for scheduling is kept (`pin-renders/` under the user's media). */
export function renderKey(userId: string, fileName: string): string {
  return `${userMediaPrefix(userId)}pin-renders/${crypto.randomUUID().slice(0, 8)}/${fileName}`;
}

/** The user whose render this key is (renderKey puts it under their media prefix), or null. */
export function renderOwner(key: string): string | null {
  return /^users\/([^/]+)\/pin-renders\//.exec(key)?.[1] ?? null;
}

/** Whether a media key is one of the gated renders (only renderKey makes that folder). */
export function isRenderKey(key: string): boolean {
  return /(^|\/)pin-renders\/[^/]+\/[^/]+$/.test(key);
}

/** Remembers an unpaid render (before its bytes are stored). */
export async function recordUnpaidRender(env: Env, userId: string, key: string, now = Date.now()): Promise<void> {
  await ledgerOf(env, userId)
    .prepare(`INSERT INTO pin_renders (media_key, user_id, paid_at, created_at) VALUES (?1, ?2, NULL, ?3)`)
    .bind(key, userId, now)
    .run();
}

/** Whether /media may serve this key: anything but an unpaid render. */
export async function mayServeMedia(env: Pick<Env, "USER_LEDGER">, key: string): Promise<boolean> {
  if (!isRenderKey(key)) return true;
  const owner = renderOwner(key);
  if (!owner) return false;
  const row = await ledgerOf(env, owner).prepare(`SELECT paid_at FROM pin_renders WHERE media_key = ?1`).bind(key).first<{ paid_at: number | null }>();
  return row?.paid_at != null;
}

export const RENDER_NOT_FOUND = "This pin image was not found. Please render the pin again.";

/**
 * The render keys of pins about to be scheduled, keyed by pin index: each
 * must be one of the caller's renders (400 naming the pin's imageURL field
 * otherwise). Pictures that are not renders are not listed.
 */
export async function rendersToUnlock(env: Env, userId: string, pins: { imageURL?: string | null; field: string }[]): Promise<Map<number, string>> {
  const wanted = new Map<number, string>();
  pins.forEach((pin, index) => {
    const key = pin.imageURL ? mediaKeyOf(env.APP_URL, pin.imageURL) : null;
    if (key && isRenderKey(key)) wanted.set(index, key);
  });
  if (wanted.size === 0) return wanted;
  const keys = [...new Set(wanted.values())];
  const rows = await ledgerOf(env, userId)
    .prepare(`SELECT media_key FROM pin_renders WHERE user_id = ?1 AND media_key IN (SELECT value FROM json_each(?2))`)
    .bind(userId, JSON.stringify(keys))
    .all<{ media_key: string }>();
  const own = new Set(rows.results.map((row) => row.media_key));
  for (const [index, key] of wanted) {
    if (!own.has(key)) throw new ServiceError(400, RENDER_NOT_FOUND, pins[index].field);
  }
  return wanted;
}

/**
 * The statement that marks renders paid, in the same D1 batch as the spends
 * that pay them: a render is marked only when its spend's ledger row exists.
 * Answers the keys it marked (RETURNING), for taking them back.
 */
export function unlockRendersStatement(ledger: Ledger, userId: string, unlocks: { key: string; reference: string }[], now: number): LedgerStatement {
  return ledger
    .prepare(
      `UPDATE pin_renders SET paid_at = ?1
     WHERE user_id = ?2 AND paid_at IS NULL
       AND media_key IN (SELECT json_extract(j.value, '$.key') FROM json_each(?3) AS j
                         WHERE EXISTS (SELECT 1 FROM credit_ledger AS l WHERE l.user_id = ?2 AND l.reference = json_extract(j.value, '$.reference')))
     RETURNING media_key`,
    )
    .bind(now, userId, JSON.stringify(unlocks));
}

/** Takes back marks made by a batch that was then refused. */
export function relockRendersStatement(ledger: Ledger, userId: string, keys: string[]): LedgerStatement {
  return ledger
    .prepare(`UPDATE pin_renders SET paid_at = NULL WHERE user_id = ?1 AND media_key IN (SELECT value FROM json_each(?2))`)
    .bind(userId, JSON.stringify(keys));
}

/** Renders never paid for within a day: what each user's ledger deletes on its alarm, with their bytes (durable-objects/ledger/retention.ts). */
export const UNPAID_RENDERS_SQL = `SELECT media_key FROM pin_renders WHERE paid_at IS NULL AND created_at < ?1 LIMIT 500`;
