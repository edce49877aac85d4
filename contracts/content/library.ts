import * as v from "valibot";
import { DesignProfileName, DesignSettings, type DesignSettings as DesignSettingsValue } from "./design-settings.ts";
import { body, plainLine } from "../fields.ts";
import { PostList, type Post } from "./post.ts";

/**
 * The user's library on the server (spec section 7, "Design settings, media,
 * drafts"): named design-settings profiles, the media library (images,
 * videos and fonts in R2) and drafts of the generator grid.
 */

const Id = (field: string) => v.pipe(v.string(`${field} is required`), v.trim(), v.nonEmpty(`${field} is required`), v.maxLength(64, `${field} is invalid`));

// ---------------------------------------------------------------- design-settings profiles

/** How many design profiles a user may keep. */
export const MAX_DESIGN_PROFILES = 50;
/** The profile a user starts with (and gets back when they delete their last one). */
export const DEFAULT_DESIGN_PROFILE_NAME = "Default";

/** POST /api/user/saveDesignSettings: with newProfileName a new profile, with profileId that one, else the active one. */
export const SaveDesignSettingsBody = body({
  designSettings: DesignSettings,
  profileId: v.optional(v.pipe(v.string("profileId must be text"), v.trim(), v.maxLength(64, "profileId is invalid"))),
  /** Blank is the same as absent. */
  newProfileName: v.optional(
    v.pipe(v.string("newProfileName must be text"), plainLine, v.trim(), v.maxLength(60, "newProfileName must be at most 60 characters")),
  ),
});
export type SaveDesignSettingsBody = v.InferInput<typeof SaveDesignSettingsBody>;

/** POST /api/user/renameDesignProfile */
export const RenameDesignProfileBody = body({ newProfileName: DesignProfileName, profileId: Id("profileId") });

export const ProfileIdParam = v.object({ id: Id("id") });
export const ProfileNameParam = v.object({
  name: v.pipe(v.string("name is required"), plainLine, v.trim(), v.nonEmpty("name is required"), v.maxLength(60, "name must be at most 60 characters")),
});

export interface DesignProfileSummary {
  profileId: string;
  name: string;
  isActive: boolean;
  /** ISO 8601. */
  updatedAt: string;
}

export interface ActiveDesignSettings {
  profileId: string;
  name: string;
  settings: DesignSettingsValue;
}

/** GET /api/user/getDesignSettingsProfiles/{id}, DELETE /api/user/deleteDesignProfile/{id} */
export interface DesignSettingsProfilesResponse {
  designSettingsProfiles: DesignProfileSummary[];
  activeDesignSettings: ActiveDesignSettings;
}

/** GET /api/user/getDesignSettingsProfile/{name} */
export interface DesignSettingsProfileResponse {
  designProfiles: DesignProfileSummary[];
  designSettingsProfile: DesignProfileSummary & { settings: DesignSettingsValue };
}

/** POST /api/user/saveDesignSettings: the saved profile's name and id. */
export interface SaveDesignSettingsResponse {
  newProfileName: string;
  profileId: string;
  designSettingsProfiles: DesignProfileSummary[];
}

// ---------------------------------------------------------------- media library

export const MEDIA_TYPES = ["image", "video", "font"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
export const MediaTypeField = v.picklist(MEDIA_TYPES, "mediaType must be one of image, video, font");

/** Largest upload per media type, in bytes. */
export const MEDIA_MAX_BYTES: Record<MediaType, number> = {
  image: 10 * 1024 * 1024,
  video: 50 * 1024 * 1024,
  font: 5 * 1024 * 1024,
};
/** Media per page of GET /api/user/media/getUserMedia. */
export const MEDIA_PAGE_SIZE = 30;

/** The query of GET /api/user/media/getUserMedia: an optional type, and the last media id seen (none: the first page). */
export const MediaPageQuery = v.object({
  mediaType: v.optional(MediaTypeField),
  lastMediaId: v.optional(v.pipe(v.string(), v.maxLength(64, "lastMediaId is invalid"))),
});

export const MediaIdParam = v.object({ id: Id("id") });

export interface MediaItem {
  id: string;
  mediaType: MediaType;
  url: string;
  fileName: string;
  contentType: string;
  /** Bytes stored (for fonts, after conversion to TrueType/OpenType). */
  size: number;
  width?: number;
  height?: number;
  /** Fonts: the family name read from the font file. */
  fontFamily?: string;
  /** ISO 8601. */
  createdAt: string;
}

export interface MediaPage {
  media: MediaItem[];
  hasMore: boolean;
}

// ---------------------------------------------------------------- drafts

/** The draft name the client autosaves under; a user has at most one. */
export const AUTOSAVE_DRAFT_NAME = "Autosave";
/** How many drafts a user may keep. */
export const MAX_DRAFTS = 200;
/** Largest draft (its posts as JSON): D1 rows stop at 2 MB. */
export const MAX_DRAFT_BYTES = 1_500_000;
/** Drafts per page of GET /api/user/drafts/getDrafts. */
export const DRAFTS_PAGE_SIZE = 20;

const DraftName = (field: string) =>
  v.pipe(v.string(`${field} must be text`), plainLine, v.trim(), v.maxLength(100, `${field} must be at most 100 characters`));
/** The client's current local date-time, as text (it also names a draft saved without a name). */
const DraftDate = v.pipe(v.string("date is required"), v.trim(), v.nonEmpty("date is required"), v.maxLength(64, "date is too long"));

/** POST /api/user/drafts/createDraft */
export const CreateDraftBody = body({ posts: PostList, name: v.optional(DraftName("name")), date: DraftDate });
/** POST /api/user/drafts/updateDraft: a missing or blank name takes `date`. */
export const UpdateDraftBody = body({ posts: PostList, draftId: Id("draftId"), name: v.optional(DraftName("name")), date: DraftDate });
/** POST /api/user/drafts/renameDraft */
export const RenameDraftBody = body({
  draftId: Id("draftId"),
  newName: v.pipe(DraftName("newName"), v.nonEmpty("newName is required")),
});

export const DraftIdParam = v.object({ id: Id("id") });
export const DraftsPageQuery = v.object({ lastDraftId: v.optional(v.pipe(v.string(), v.maxLength(64, "lastDraftId is invalid"))) });

export interface DraftSummary {
  draftId: string;
  name: string;
  /** The client's local date-time text it was saved with. */
  date: string;
  postCount: number;
  /** ISO 8601. */
  updatedAt: string;
}

export interface Draft extends DraftSummary {
  posts: Post[];
}

export interface DraftsPage {
  drafts: DraftSummary[];
  hasMore: boolean;
}
