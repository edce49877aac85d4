import { eq } from "drizzle-orm";
import {
  WORDPRESS_KEY_EXISTS,
  WORDPRESS_KEY_NONE,
  WORDPRESS_KEY_PATTERN,
  WORDPRESS_KEY_PREFIX,
  WORDPRESS_KEY_SHOWN_CHARACTERS,
  type WordPressKeySummary,
  type WordPressNewKeyResponse,
} from "../../../contracts/shops/wordpress.ts";
import { randomToken, sha256Hex } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { users, wordpressAccessKeys } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * WordPress access keys (issue 20, docs/decisions/054): one per user, made,
 * rotated and revoked on /profile. A key is 256 random bits, so its SHA-256
 * is all that is stored (no salt or slow hash needed: nothing to guess); the
 * key itself is answered once, when it is made. Rotating replaces the hash in
 * place and revoking deletes the row, so an old key matches nothing from that
 * moment on.
 */

type KeyRow = typeof wordpressAccessKeys.$inferSelect;

/** Last-used times are written at most this often (a busy plugin does not write on every call). */
const LAST_USED_RESOLUTION_MS = 60_000;

/** "pbwp_abcd…": how a key is shown after creation (and in the user credentials). */
export function shownKey(prefix: string): string {
  return `${prefix}…`;
}

function summaryOf(row: Pick<KeyRow, "keyPrefix" | "createdAt" | "lastUsedAt">): WordPressKeySummary {
  return {
    shown: shownKey(row.keyPrefix),
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
  };
}

async function newKey(): Promise<{ key: string; keyHash: string; keyPrefix: string }> {
  const key = `${WORDPRESS_KEY_PREFIX}${randomToken(32)}`;
  return { key, keyHash: await sha256Hex(key), keyPrefix: key.slice(0, WORDPRESS_KEY_SHOWN_CHARACTERS) };
}

/** The user's key as /profile shows it, or null. */
export async function wordpressKeyOf(env: Env, userId: string): Promise<WordPressKeySummary | null> {
  const row = await database(env.DB).query.wordpressAccessKeys.findFirst({ where: eq(wordpressAccessKeys.userId, userId) });
  return row ? summaryOf(row) : null;
}

/** Makes the user's key; 409 when they have one (rotate it instead). */
export async function createWordPressKey(env: Env, user: User, now = Date.now()): Promise<WordPressNewKeyResponse> {
  const made = await newKey();
  const [row] = await database(env.DB)
    .insert(wordpressAccessKeys)
    .values({ userId: user.id, keyHash: made.keyHash, keyPrefix: made.keyPrefix, createdAt: now, lastUsedAt: null })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ServiceError(409, WORDPRESS_KEY_EXISTS);
  return { key: made.key, wordpressAccessKey: summaryOf(row) };
}

/** Replaces the user's key with a new one (the old one stops working at once); 404 when they have none. */
export async function rotateWordPressKey(env: Env, user: User, now = Date.now()): Promise<WordPressNewKeyResponse> {
  const made = await newKey();
  const [row] = await database(env.DB)
    .update(wordpressAccessKeys)
    .set({ keyHash: made.keyHash, keyPrefix: made.keyPrefix, createdAt: now, lastUsedAt: null })
    .where(eq(wordpressAccessKeys.userId, user.id))
    .returning();
  if (!row) throw new ServiceError(404, WORDPRESS_KEY_NONE);
  return { key: made.key, wordpressAccessKey: summaryOf(row) };
}

/** Deletes the user's key (refused from then on); 404 when they have none. */
export async function revokeWordPressKey(env: Env, user: User): Promise<void> {
  const deleted = await database(env.DB)
    .delete(wordpressAccessKeys)
    .where(eq(wordpressAccessKeys.userId, user.id))
    .returning({ userId: wordpressAccessKeys.userId });
  if (deleted.length === 0) throw new ServiceError(404, WORDPRESS_KEY_NONE);
}

/**
 * The user a key belongs to, or null for anything that is not a current key
 * (malformed, rotated away, revoked, or its user deleted). Notes when it was
 * last used.
 */
export async function userOfWordPressKey(env: Env, key: string, now = Date.now()): Promise<User | null> {
  if (!WORDPRESS_KEY_PATTERN.test(key)) return null;
  const keyHash = await sha256Hex(key);
  const [found] = await database(env.DB)
    .select({ user: users, lastUsedAt: wordpressAccessKeys.lastUsedAt })
    .from(wordpressAccessKeys)
    .innerJoin(users, eq(users.id, wordpressAccessKeys.userId))
    .where(eq(wordpressAccessKeys.keyHash, keyHash))
    .limit(1);
  // A blocked account's key is refused like a revoked one (decision 051: blocking ends every way in).
  if (!found || found.user.blockedAt !== null) return null;
  if (found.lastUsedAt === null || now - found.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
    await env.DB.prepare(`UPDATE wordpress_access_keys SET last_used_at = ?1 WHERE key_hash = ?2`).bind(now, keyHash).run();
  }
  return found.user;
}
