import { sha256Hex } from "../../auth/tokens.ts";
import type { Env } from "../../env.ts";
import { ledgerOf } from "../../ledger/client.ts";
import { ServiceError } from "./errors.ts";

/**
 * Idempotency keys (docs/decisions/017-idempotency-keys.md). A key chosen by
 * the client names ONE request of one user to one operation:
 * - the first request with the key claims it, with the hash of its body;
 * - a replay with the same body answers the first result, without new work or charge;
 * - the same key with another body is refused (409);
 * - a key is forgotten after KEY_TTL_MS, after which it names a new request.
 * What a request charges or creates is named after the claim's own random id,
 * never after the client's key, so nothing a key once paid for can be reused.
 */

/** How long a key names its request. */
export const KEY_TTL_MS = 30 * 24 * 60 * 60_000;
/** A claim left pending this long (its request died) may be taken over by a replay. */
export const STALE_PENDING_MS = 2 * 60_000;

export const KEY_REUSED_MESSAGE = "This reference was already used for a different request. Use a new reference for a new request.";
export const KEY_IN_PROGRESS_MESSAGE = "A request with this reference is still being processed. Please try again in a moment.";

export interface Claim {
  key: string;
  /** The claim's own id: name what the request charges or creates after it. */
  id: string;
  /** The stored first answer when the request already finished. */
  done: boolean;
  response: unknown;
  /** False when the claim was left pending by an earlier request (a retry continuing it). */
  fresh: boolean;
  /** When the claim was last worked on (ms). */
  updatedAt: number;
}

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash a request body is remembered by (its `reference` left out: that is the key itself). */
export async function requestHash(body: unknown): Promise<string> {
  const { reference: _reference, ...rest } = (body && typeof body === "object" && !Array.isArray(body) ? body : { value: body }) as Record<string, unknown>;
  return sha256Hex(canonicalJson(rest));
}

/** The ledger reference of what the request with this claim id charges. */
export function chargeReference(operation: string, id: string): string {
  return `${operation}:${id}`;
}

/**
 * Claims keys for one request: one D1 batch of two statements whatever the
 * number of keys (a bulk schedule claims up to 200). Throws 409 naming
 * `field` for a key that another body claimed. Answers each key's claim:
 * finished ones carry their first answer.
 */
export async function claimKeys(
  env: Env,
  userId: string,
  operation: string,
  requests: { key: string; hash: string; field: string }[],
  now = Date.now(),
): Promise<Claim[]> {
  if (requests.length === 0) return [];
  const proposed = requests.map((request) => ({ key: request.key, hash: request.hash, id: crypto.randomUUID() }));
  const ledger = ledgerOf(env, userId);
  const [, read] = await ledger.batch<{
    key: string;
    request_hash: string;
    id: string;
    status: "pending" | "done";
    response: string | null;
    updated_at: number;
  }>([
    // A new key is claimed; an expired one is claimed anew (a new request); a live one is left as it is.
    ledger
      .prepare(
        `INSERT INTO idempotency_keys (user_id, operation, key, request_hash, id, status, response, created_at, updated_at)
       SELECT ?1, ?2, json_extract(j.value, '$.key'), json_extract(j.value, '$.hash'), json_extract(j.value, '$.id'), 'pending', NULL, ?3, ?3
       FROM json_each(?4) AS j WHERE true
       ON CONFLICT (user_id, operation, key) DO UPDATE SET
         request_hash = excluded.request_hash, id = excluded.id, status = 'pending', response = NULL,
         created_at = excluded.created_at, updated_at = excluded.updated_at
       WHERE idempotency_keys.created_at < ?5`,
      )
      .bind(userId, operation, now, JSON.stringify(proposed), now - KEY_TTL_MS),
    ledger
      .prepare(
        `SELECT key, request_hash, id, status, response, updated_at FROM idempotency_keys
       WHERE user_id = ?1 AND operation = ?2 AND key IN (SELECT value FROM json_each(?3))`,
      )
      .bind(userId, operation, JSON.stringify(requests.map((request) => request.key))),
  ]);
  const rows = new Map(read.results.map((row) => [row.key, row]));
  return requests.map((request, i) => {
    const row = rows.get(request.key);
    if (!row) throw new Error(`idempotency key ${operation}/${request.key} was not claimed`);
    if (row.request_hash !== request.hash) throw new ServiceError(409, KEY_REUSED_MESSAGE, request.field);
    return {
      key: request.key,
      id: row.id,
      done: row.status === "done",
      response: row.status === "done" && row.response !== null ? JSON.parse(row.response) : null,
      fresh: row.id === proposed[i].id,
      updatedAt: row.updated_at,
    };
  });
}

/** Records the first answers of finished requests (one statement; a claim already finished keeps its first answer). */
export async function finishKeys(
  env: Env,
  userId: string,
  operation: string,
  finished: { claim: Claim; response: unknown }[],
  now = Date.now(),
): Promise<void> {
  if (finished.length === 0) return;
  const answers = finished.map(({ claim, response }) => ({ key: claim.key, id: claim.id, response: JSON.stringify(response) }));
  await ledgerOf(env, userId)
    .prepare(
      `UPDATE idempotency_keys SET status = 'done', response = json_extract(j.value, '$.response'), updated_at = ?1
     FROM json_each(?4) AS j
     WHERE idempotency_keys.user_id = ?2 AND idempotency_keys.operation = ?3 AND idempotency_keys.status = 'pending'
       AND idempotency_keys.key = json_extract(j.value, '$.key') AND idempotency_keys.id = json_extract(j.value, '$.id')`,
    )
    .bind(now, userId, operation, JSON.stringify(answers))
    .run();
}

/**
 * Lets go of claims whose request changed nothing (refused input, no credits),
 * so the client may correct the request and send it again under the same key.
 * A claim under which something was charged (`chargedReference` in the
 * ledger) is kept: its request must be continued, never started anew.
 */
export async function releaseKeys(env: Env, userId: string, operation: string, claims: { claim: Claim; chargedReference?: string }[]): Promise<void> {
  if (claims.length === 0) return;
  const released = claims.map(({ claim, chargedReference }) => ({ key: claim.key, id: claim.id, charged: chargedReference ?? "" }));
  await ledgerOf(env, userId)
    .prepare(
      `DELETE FROM idempotency_keys
     WHERE user_id = ?1 AND operation = ?2 AND status = 'pending'
       AND EXISTS (SELECT 1 FROM json_each(?3) AS j
                   WHERE json_extract(j.value, '$.key') = idempotency_keys.key AND json_extract(j.value, '$.id') = idempotency_keys.id
                     AND NOT EXISTS (SELECT 1 FROM credit_ledger AS l WHERE l.user_id = ?1 AND l.reference = json_extract(j.value, '$.charged')))`,
    )
    .bind(userId, operation, JSON.stringify(released))
    .run();
}

export interface IdempotentCall<T> {
  env: Env;
  userId: string;
  operation: string;
  /** The client's key; without one the work simply runs (with a random id). */
  key: string | undefined;
  /** The request body the key must keep naming. */
  body: unknown;
  /** The field that carried the key, for the 409's message. */
  field?: string;
  /** The work, given the claim id to name its charges after (chargeReference). */
  work(id: string): Promise<T>;
}

/**
 * Runs one request under its idempotency key: a replay of a finished request
 * answers its first result; a request still in progress elsewhere is refused
 * (409) until it finishes or is stale; a failed request releases its key
 * unless it charged something.
 */
export async function idempotent<T>(call: IdempotentCall<T>): Promise<T> {
  const { env, userId, operation, key } = call;
  if (key === undefined) return call.work(crypto.randomUUID());
  const now = Date.now();
  const [claim] = await claimKeys(env, userId, operation, [{ key, hash: await requestHash(call.body), field: call.field ?? "reference" }], now);
  if (claim.done) return claim.response as T;
  if (!claim.fresh) {
    if (now - claim.updatedAt < STALE_PENDING_MS) throw new ServiceError(409, KEY_IN_PROGRESS_MESSAGE, call.field ?? "reference");
    // Its request died: this one continues it under the same id (what it charged is not charged again).
    await ledgerOf(env, userId)
      .prepare(`UPDATE idempotency_keys SET updated_at = ?1 WHERE user_id = ?2 AND operation = ?3 AND key = ?4 AND id = ?5`)
      .bind(now, userId, operation, key, claim.id)
      .run();
  }
  let result: T;
  try {
    result = await call.work(claim.id);
  } catch (error) {
    await releaseKeys(env, userId, operation, [{ claim, chargedReference: chargeReference(operation, claim.id) }]).catch((releaseError) =>
      console.error(`Releasing idempotency key ${operation} failed`, releaseError),
    );
    throw error;
  }
  await finishKeys(env, userId, operation, [{ claim, response: result }]);
  return result;
}

/** Forgets keys past their time: the statement each user's ledger runs on its alarm (durable-objects/ledger/retention.ts). */
export const PRUNE_KEYS_SQL = `DELETE FROM idempotency_keys WHERE created_at < ?1`;
