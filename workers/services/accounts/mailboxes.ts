import { inArray } from "drizzle-orm";
import { hmacSha256Hex } from "../../auth/tokens.ts";
import { database } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { canonicalMailbox, sameMailbox } from "../../domain/mailboxes.ts";
import type { Env } from "../../env.ts";

/**
 * Mailboxes as the programmes and the mail limits count them (docs/decisions/079 and 080). What is stored
 * of a mailbox is its key: an HMAC of the canonical mailbox under AUTH_SECRET, which names no address and
 * cannot be computed by anyone who reads the table.
 */
export async function mailboxKey(env: Pick<Env, "AUTH_SECRET">, address: string): Promise<string> {
  const mailbox = canonicalMailbox(address) ?? address.trim().toLowerCase();
  return hmacSha256Hex(env.AUTH_SECRET, `mailbox:${mailbox}`);
}

/** Whether two accounts' addresses deliver to the same mailbox (the same account does too). */
export async function accountsShareMailbox(env: Env, firstUserId: string, secondUserId: string): Promise<boolean> {
  if (firstUserId === secondUserId) return true;
  const rows = await database(env.DB)
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, [firstUserId, secondUserId]));
  const [first, second] = [rows.find((row) => row.id === firstUserId), rows.find((row) => row.id === secondUserId)];
  return Boolean(first && second && sameMailbox(first.email, second.email));
}
