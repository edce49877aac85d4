import type { MediaType } from "../../lib/generator/api.ts";

/**
 * The cache keys of the generator's reads (app/lib/query.ts). A read shown in several places (the active
 * design settings on /generate and /singlePin, a media library in each of the drawer's pickers) uses one
 * key, so it is made once and a change made in one place shows in all of them.
 */
export const generatorKeys = {
  /** The design settings profiles with the active one's settings (DesignSettingsProfilesResponse). */
  designProfiles: ["design-profiles", "active"],
  /** Palette[]. */
  palettes: ["palettes"],
  /** Everything read from the drafts: refreshed after a draft is saved, renamed or deleted. */
  drafts: ["drafts"],
  /** The latest draft (Draft | null), offered when /generate opens. */
  latestDraft: ["drafts", "latest"],
  /** The drafts dialog's list: a DraftsPage of the pages read so far, one after the other. */
  draftList: ["drafts", "list"],
  /** Where /singlePin found a post among the drafts (null: in none of them). */
  postInDrafts: (postId: string) => ["drafts", "post", postId],
  /** The templates a generation with these selections draws from (Template[]; none: the standard ones). */
  templatePool: (templateSelections: readonly string[]) => ["template-pool", ...templateSelections],
  /** The media library of one type: a MediaPage of the pages read so far, one after the other. */
  media: (mediaType: MediaType) => ["media", mediaType],
} as const;
