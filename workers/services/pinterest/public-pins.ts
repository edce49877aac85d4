import { and, desc, eq, isNotNull } from "drizzle-orm";
import { publicPinImagePath, publicPinPath, type PinPublicState, type PublicPin } from "../../../contracts/pinterest/public-pins.ts";
import { pinHistory } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { ledgerOf } from "../../ledger/client.ts";
import { mediaKeyOf } from "../../media/store.ts";
import type { User } from "../accounts/accounts.ts";
import { userByHandle } from "../accounts/users.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * Public pins (issue 20, docs/decisions/055-backup-generator-and-public-pins.md).
 * A pin is a pin history entry: the one record of a pin the user paid for
 * (downloaded, scheduled or pinned). Its owner may make it public; its page,
 * /users/{handle}/{entry id}, then shows its image, title, description and
 * link, and nothing else of the entry. Making it private again removes the page
 * and its image at once (neither is edge-cached).
 */

export const PIN_NOT_FOUND = "Pin not found";
export const PIN_WITHOUT_IMAGE = "This pin has no image to show on a public page.";

/** Makes one of the caller's pins public or private again; another user's pin is "not found" (404). */
export async function setPinPublic(env: Env, user: User, id: string, isPublic: boolean, now = Date.now()): Promise<PinPublicState> {
  const db = ledgerOf(env, user.id).db;
  const entry = await db.query.pinHistory.findFirst({ where: and(eq(pinHistory.id, id), eq(pinHistory.userId, user.id)) });
  if (!entry) throw new ServiceError(404, PIN_NOT_FOUND, "id");
  if (isPublic && !imageAddress(entry.imageUrl)) throw new ServiceError(400, PIN_WITHOUT_IMAGE, "id");
  // Making public again keeps the first time (the page's address never changes).
  const publicAt = isPublic ? (entry.publicAt ?? now) : null;
  await db
    .update(pinHistory)
    .set({ publicAt })
    .where(and(eq(pinHistory.id, id), eq(pinHistory.userId, user.id)));
  return { id, isPublic, publicUrl: isPublic ? publicPinPath(user.handle, id) : null };
}

/** The public pin of a handle, or null: no such user, no such pin of theirs, or not public. */
export async function publicPin(env: Env, handle: string, id: string): Promise<PublicPin | null> {
  const row = await publicEntry(env, handle, id);
  return row ? publicPinOf(env, row) : null;
}

/**
 * Where a public pin's image is: our media (by key: its address names the
 * owner's id) or a picture on the web (a scheduled pin's own picture); null
 * when the pin is not public.
 */
export async function publicPinImage(env: Env, handle: string, id: string): Promise<{ key: string } | { address: string } | null> {
  const row = await publicEntry(env, handle, id);
  if (!row) return null;
  const key = mediaKeyOf(env.APP_URL, row.imageUrl);
  if (key) return { key };
  const address = imageAddress(row.imageUrl);
  return address ? { address } : null;
}

/** An image address a public page may show: our media or an http(s) picture. */
function imageAddress(url: string): string | null {
  if (url.startsWith("/media/")) return url;
  return safeLink(url) || null;
}

/** What a public page shows of a pin history entry. */
const PUBLIC_COLUMNS = {
  id: pinHistory.id,
  title: pinHistory.title,
  description: pinHistory.description,
  url: pinHistory.url,
  imageUrl: pinHistory.imageUrl,
  mediaType: pinHistory.mediaType,
};

/** How many public pins a profile page shows: the newest made public. */
export const PUBLIC_PINS_SHOWN = 60;

/** A handle's public pins, newest made public first (issue 40 point 9); null when no user has or had the handle. */
export async function publicPinsOf(env: Env, handle: string): Promise<PublicPin[] | null> {
  if (handle.length > 30) return null;
  const owner = await userByHandle(env, handle);
  if (!owner) return null;
  const rows = await ledgerOf(env, owner.id)
    .db.select(PUBLIC_COLUMNS)
    .from(pinHistory)
    .where(and(eq(pinHistory.userId, owner.id), isNotNull(pinHistory.publicAt)))
    .orderBy(desc(pinHistory.publicAt))
    .limit(PUBLIC_PINS_SHOWN);
  return rows.map((row) => publicPinOf(env, { ...row, handle: owner.handle }));
}

function publicPinOf(env: Env, row: Omit<PublicPin, "imageUrl"> & { imageUrl: string }): PublicPin {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    url: safeLink(row.url),
    imageUrl: new URL(publicPinImagePath(row.handle, row.id), env.APP_URL).toString(),
    mediaType: row.mediaType,
    handle: row.handle,
  };
}

async function publicEntry(env: Env, handle: string, id: string) {
  if (id.length > 64 || handle.length > 30) return null;
  // The owner from D1 (an old handle leads to them too), then the entry from their ledger (decision 084).
  const owner = await userByHandle(env, handle);
  if (!owner) return null;
  const [row] = await ledgerOf(env, owner.id)
    .db.select(PUBLIC_COLUMNS)
    .from(pinHistory)
    .where(and(eq(pinHistory.userId, owner.id), eq(pinHistory.id, id), isNotNull(pinHistory.publicAt)))
    .limit(1);
  return row ? { ...row, handle: owner.handle } : null;
}

/** Only http(s) links are shown as links on a public page. */
function safeLink(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.toString() : "";
  } catch {
    return "";
  }
}
