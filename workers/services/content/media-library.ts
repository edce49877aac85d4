import { and, desc, eq, type SQL } from "drizzle-orm";
import { MEDIA_MAX_BYTES, MEDIA_PAGE_SIZE, type MediaItem, type MediaPage, type MediaType } from "../../../contracts/content/library.ts";
import { PROFILE_IMAGE_MAX_BYTES } from "../../../contracts/accounts/user.ts";
import { database } from "../../db/client.ts";
import { olderThanCursor, pageAfterCursor } from "../../db/cursor.ts";
import { userMedia, users } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import { ledgerOf } from "../../ledger/client.ts";
import { readUploadedFont, sniffFontFormat, UnreadableFont } from "../../media/fonts.ts";
import { mediaUrl, putMedia, userMediaPrefix } from "../../media/store.ts";
import { readPicture } from "../../render/pictures.ts";
import type { User } from "../accounts/accounts.ts";
import { ServiceError } from "../core/errors.ts";

/**
 * The media library: a user's uploaded images, videos and fonts, stored in R2
 * under the user's media prefix (so deleting the account deletes them) and
 * listed from D1. What a file is comes from its first bytes, never from its
 * name or declared type. Fonts are stored as TrueType/OpenType whatever was
 * uploaded (workers/media/fonts.ts), so the renderer can always read them.
 */

type MediaRow = typeof userMedia.$inferSelect;

/** Largest request body we read for an upload: the largest file plus room for the form around it. */
export const MAX_UPLOAD_REQUEST_BYTES = Math.max(...Object.values(MEDIA_MAX_BYTES)) + 64 * 1024;

const ACCEPTED: Record<MediaType, string> = {
  image: "Please upload a JPEG, PNG, WebP or GIF image.",
  video: "Please upload an MP4, MOV or WebM video.",
  font: "Please upload a font file in TTF, OTF, WOFF or WOFF2 format.",
};

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The kind of video a file's first bytes announce. */
export function sniffVideo(bytes: Uint8Array): { contentType: string; extension: string } | null {
  const text = (from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));
  if (bytes.length >= 12 && text(4, 4) === "ftyp") {
    return text(8, 4) === "qt  " ? { contentType: "video/quicktime", extension: "mov" } : { contentType: "video/mp4", extension: "mp4" };
  }
  // QuickTime files written without a leading ftyp box.
  if (bytes.length >= 8 && ["moov", "mdat", "wide", "free", "skip"].includes(text(4, 4))) return { contentType: "video/quicktime", extension: "mov" };
  // Matroska/EBML: WebM names its doc type "webm" within the header.
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3 && text(4, 60).includes("webm")) {
    return { contentType: "video/webm", extension: "webm" };
  }
  return null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a shown file name must not carry (below).
const HIDDEN_IN_FILE_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A file name fit to show: no folders, no control or bidirectional-override characters, at most 200 characters. */
function cleanFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(HIDDEN_IN_FILE_NAME, "").trim().slice(0, 200);
  return cleaned || fallback;
}

function itemOf(env: Pick<Env, "APP_URL">, row: MediaRow): MediaItem {
  return {
    id: row.id,
    mediaType: row.mediaType,
    url: mediaUrl(env.APP_URL, row.objectKey),
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
    ...(row.fontFamily !== null ? { fontFamily: row.fontFamily } : {}),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

interface Prepared {
  body: Uint8Array | File;
  contentType: string;
  extension: string;
  size: number;
  width?: number;
  height?: number;
  fontFamily?: string;
  sourceFormat?: string;
}

async function prepareImage(file: File): Promise<Prepared> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const header = readPicture(bytes);
  if (!header) throw new ServiceError(415, `This file is not an image we can use. ${ACCEPTED.image}`, "file");
  if ("unreadable" in header) throw new ServiceError(400, header.unreadable, "file");
  return { body: bytes, contentType: `image/${header.type}`, extension: header.type, size: bytes.length, width: header.width, height: header.height };
}

async function prepareVideo(file: File): Promise<Prepared> {
  const kind = sniffVideo(new Uint8Array(await file.slice(0, 64).arrayBuffer()));
  if (!kind) throw new ServiceError(415, `This file is not a video we can use. ${ACCEPTED.video}`, "file");
  // The file goes to R2 as it is, without another copy in memory.
  return { body: file, contentType: kind.contentType, extension: kind.extension, size: file.size };
}

async function prepareFont(file: File): Promise<Prepared> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!sniffFontFormat(bytes)) throw new ServiceError(415, `This file is not a font we can use. ${ACCEPTED.font}`, "file");
  try {
    const font = readUploadedFont(bytes);
    return {
      body: font.data,
      contentType: font.format === "otf" ? "font/otf" : "font/ttf",
      extension: font.format,
      size: font.data.length,
      fontFamily: font.family,
      sourceFormat: font.sourceFormat,
    };
  } catch (error) {
    if (error instanceof UnreadableFont) throw new ServiceError(400, "This font file could not be read.", "file");
    throw error;
  }
}

/** POST /api/user/media/uploadMedia: checks, converts (fonts), stores in R2 and records the upload. */
export async function uploadMedia(env: Env, user: User, file: File, mediaType: MediaType): Promise<MediaItem> {
  if (file.size === 0) throw new ServiceError(400, "The file is empty.", "file");
  const limit = MEDIA_MAX_BYTES[mediaType];
  if (file.size > limit) throw new ServiceError(413, `The ${mediaType} must be ${megabytes(limit)} or smaller.`, "file");
  const prepared = mediaType === "image" ? await prepareImage(file) : mediaType === "video" ? await prepareVideo(file) : await prepareFont(file);

  const id = crypto.randomUUID();
  const key = `${userMediaPrefix(user.id)}media/${id}.${prepared.extension}`;
  const fileName = cleanFileName(file.name, `${mediaType}.${prepared.extension}`);
  await putMedia(env, key, prepared.body, prepared.contentType);
  try {
    const [row] = await ledgerOf(env, user.id)
      .db.insert(userMedia)
      .values({
        id,
        userId: user.id,
        mediaType,
        objectKey: key,
        fileName,
        contentType: prepared.contentType,
        size: prepared.size,
        width: prepared.width ?? null,
        height: prepared.height ?? null,
        fontFamily: prepared.fontFamily ?? null,
        sourceFormat: prepared.sourceFormat ?? null,
      })
      .returning();
    return itemOf(env, row);
  } catch (error) {
    // No row, no object: an upload either lands whole or not at all.
    await env.MEDIA.delete(key);
    throw error;
  }
}

/** GET /api/user/media/getUserMedia: newest first, a page at a time after `lastMediaId` (none: the first page). */
export async function listMedia(env: Env, user: User, query: { mediaType?: MediaType; lastMediaId?: string }): Promise<MediaPage> {
  const db = ledgerOf(env, user.id).db;
  const where: SQL[] = [eq(userMedia.userId, user.id)];
  if (query.mediaType) where.push(eq(userMedia.mediaType, query.mediaType));
  const cursor = query.lastMediaId
    ? { table: userMedia, time: userMedia.createdAt, id: userMedia.id, owner: userMedia.userId, cursorId: query.lastMediaId, ownerId: user.id }
    : null;
  if (cursor) where.push(olderThanCursor(cursor));
  const rows = await pageAfterCursor(
    db,
    db
      .select()
      .from(userMedia)
      .where(and(...where))
      .orderBy(desc(userMedia.createdAt), desc(userMedia.id))
      .limit(MEDIA_PAGE_SIZE + 1),
    cursor,
  );
  if (!rows) throw new ServiceError(400, "lastMediaId is not one of your media.", "lastMediaId");
  return { media: rows.slice(0, MEDIA_PAGE_SIZE).map((row) => itemOf(env, row)), hasMore: rows.length > MEDIA_PAGE_SIZE };
}

/** DELETE /api/user/media/deleteMedia/{id}: the R2 object first (safe to repeat), then the row. */
export async function deleteMedia(env: Env, user: User, id: string): Promise<{ deletedId: string }> {
  const db = ledgerOf(env, user.id).db;
  const mine = and(eq(userMedia.id, id), eq(userMedia.userId, user.id));
  const row = await db.query.userMedia.findFirst({ where: mine });
  if (!row) throw new ServiceError(404, "Media not found");
  await env.MEDIA.delete(row.objectKey);
  await db.delete(userMedia).where(mine);
  return { deletedId: id };
}

/** POST /api/user/image: the profile picture, read for real before it is kept (replaces the previous one). */
export async function setProfileImage(env: Env, user: User, file: File): Promise<string> {
  if (file.size > PROFILE_IMAGE_MAX_BYTES) throw new ServiceError(413, "The image must be 5 MB or smaller.", "image");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const picture = readPicture(bytes);
  if (!picture) throw new ServiceError(415, "Please upload a JPEG, PNG, GIF or WebP image.", "image");
  if ("unreadable" in picture) throw new ServiceError(400, picture.unreadable, "image");
  const kind = { type: `image/${picture.type}`, extension: picture.type };
  const key = `${userMediaPrefix(user.id)}profile/${crypto.randomUUID()}.${kind.extension}`;
  await putMedia(env, key, bytes, kind.type);
  await database(env.DB).update(users).set({ imageKey: key, updatedAt: Date.now() }).where(eq(users.id, user.id));
  if (user.imageKey) await env.MEDIA.delete(user.imageKey);
  return mediaUrl(env.APP_URL, key);
}
