import * as v from "valibot";
import { body } from "../fields.ts";

/**
 * Public pins (issue 20, docs/decisions/055): a pin history entry its owner
 * made public has a page at /users/{handle}/{entry id}.
 */

/** POST /api/user/pinHistory/setPublic {id, isPublic}: the owner makes one of their pins public or private again. */
export const SetPinPublicBody = body({
  id: v.pipe(v.string("id must be text"), v.trim(), v.nonEmpty("id is required"), v.maxLength(64, "id is not a pin history id")),
  isPublic: v.boolean("isPublic must be true or false"),
});
export type SetPinPublicBody = v.InferInput<typeof SetPinPublicBody>;

export interface PinPublicState {
  id: string;
  isPublic: boolean;
  /** The pin's public page (a path), null while private. */
  publicUrl: string | null;
}

/** What the public page of a pin shows: nothing else of the entry (no credits, boards, profiles or ids of the owner). */
export interface PublicPin {
  id: string;
  title: string;
  description: string;
  /** The page the pin links to. */
  url: string;
  /** The pin image's absolute address (served by handle and pin, never by the owner's media key). */
  imageUrl: string;
  mediaType: "image" | "video";
  handle: string;
}

/** The path of a pin's public page. */
export function publicPinPath(handle: string, id: string): string {
  return `/users/${encodeURIComponent(handle)}/${encodeURIComponent(id)}`;
}

/** The path of a public pin's image. */
export function publicPinImagePath(handle: string, id: string): string {
  return `/api/user/${encodeURIComponent(handle)}/pins/${encodeURIComponent(id)}/image`;
}
