/**
 * Pinterest API v5 shapes we use (../shared/specs/pinterest-api-v5.openapi.json), as
 * the client in workers/integrations/pinterest.ts sends and receives them. Only
 * the fields we read or write; the names are Pinterest's (snake_case).
 */

/** Pinterest's own limits on a pin (PinCreate): characters, counted as code points. */
export const PINTEREST_PIN_LIMITS = { title: 100, description: 800, altText: 500, link: 2048 } as const;

/** Largest page Pinterest answers for bookmark-paged lists; 25 when no page_size is sent. */
export const PINTEREST_MAX_PAGE_SIZE = 250;
export const PINTEREST_DEFAULT_PAGE_SIZE = 25;

/**
 * What the app asks a Pinterest user for: read the account, read and create
 * boards (secret ones too) and pins. Pinterest joins scopes with commas.
 */
export const PINTEREST_SCOPES = [
  "user_accounts:read",
  "boards:read",
  "boards:read_secret",
  "boards:write",
  "boards:write_secret",
  "pins:read",
  "pins:read_secret",
  "pins:write",
  "pins:write_secret",
  // Catalogs: a catalog is published as a data source of the profile (issue 18, decision 043).
  "catalogs:read",
  "catalogs:write",
] as const;

export type PinterestBoardPrivacy = "PUBLIC" | "PROTECTED" | "SECRET";

/** POST /oauth/token answer (OauthAccessTokenResponseCode / OauthAccessTokenResponseRefresh). */
export interface PinterestTokenResponse {
  access_token: string;
  token_type: string;
  /** Seconds the access token is valid. */
  expires_in: number;
  scope: string;
  response_type?: "authorization_code" | "refresh_token";
  refresh_token?: string;
  refresh_token_expires_in?: number;
  /** Unix seconds. */
  refresh_token_expires_at?: number;
}

/** GET /user_account (Account). */
export interface PinterestAccount {
  id?: string;
  username?: string;
  account_type?: "PINNER" | "BUSINESS";
  profile_image?: string;
  website_url?: string;
  business_name?: string | null;
  about?: string;
  board_count?: number | null;
  pin_count?: number | null;
  follower_count?: number | null;
  following_count?: number | null;
  monthly_views?: number | null;
}

/** Board. */
export interface PinterestBoard {
  id: string;
  name: string;
  description?: string | null;
  privacy?: PinterestBoardPrivacy;
  owner?: { username?: string };
  created_at?: string;
  board_pins_modified_at?: string;
  pin_count?: number;
  follower_count?: number;
  collaborator_count?: number;
  is_ads_only?: boolean;
  media?: { image_cover_url?: string | null; pin_thumbnail_urls?: string[] };
}

/** BoardSection. */
export interface PinterestBoardSection {
  id: string;
  name: string;
}

/** A bookmark-paged list (Paginated). `bookmark` is null or absent on the last page. */
export interface PinterestPage<T> {
  items: T[];
  bookmark?: string | null;
}

/** PinCreate.media_source, the three kinds we post. */
export type PinterestMediaSource =
  | { source_type: "image_url"; url: string }
  | { source_type: "image_base64"; content_type: "image/jpeg" | "image/png"; data: string }
  | {
      source_type: "video_id";
      media_id: string;
      cover_image_url?: string;
      cover_image_key_frame_time?: number;
    };

/** POST /pins body (PinCreate). */
export interface PinterestPinCreate {
  board_id: string;
  board_section_id?: string | null;
  title?: string | null;
  description?: string | null;
  link?: string | null;
  alt_text?: string | null;
  dominant_color?: string | null;
  media_source: PinterestMediaSource;
}

interface PinterestImageDetails {
  url: string;
  width: number | null;
  height: number | null;
}

/** Pin, as created or listed. */
export interface PinterestPin {
  id: string;
  board_id?: string;
  board_section_id?: string | null;
  board_owner?: { username?: string };
  title?: string | null;
  description?: string | null;
  link?: string | null;
  alt_text?: string | null;
  dominant_color?: string | null;
  created_at?: string;
  creative_type?: string | null;
  is_owner?: boolean;
  is_standard?: boolean;
  has_been_promoted?: boolean;
  parent_pin_id?: string | null;
  media?: {
    media_type: string;
    images?: Partial<Record<"150x150" | "400x300" | "600x" | "1200x", PinterestImageDetails>>;
    cover_image_url?: string;
    video_url?: string | null;
    duration?: number | null;
    width?: number | null;
    height?: number | null;
  };
}

export type PinterestMediaStatus = "registered" | "processing" | "succeeded" | "failed";

/** POST /media answer (MediaUpload): where to POST the video file, with which form fields. */
export interface PinterestMediaUpload {
  media_id: string;
  media_type: "video";
  upload_url?: string;
  upload_parameters?: Record<string, string>;
}

/** GET /media/{media_id} (Media). */
export interface PinterestMedia {
  media_id: string;
  media_type: "video";
  status?: PinterestMediaStatus;
}

/** Pinterest's error body (Error / Pinterest.Lib.Error): `code` is Pinterest's own number, not the HTTP status. */
export interface PinterestErrorBody {
  code: number;
  message: string;
}

// ---- catalogs (issue 18, docs/decisions/043-pinterest-catalogs.md) ----------------------------------

export type PinterestFeedFormat = "TSV" | "CSV" | "XML";
export type PinterestFeedProcessingStatus = "COMPLETED" | "FAILED" | "PROCESSING";

/** POST /v5/catalogs/feeds (CatalogsFeedsCreateRequest, retail). */
export interface PinterestFeedCreate {
  name: string;
  format: PinterestFeedFormat;
  location: string;
  default_currency?: string | null;
  default_locale?: string;
  default_country?: string;
  default_availability?: "IN_STOCK" | "OUT_OF_STOCK" | "PREORDER" | null;
  status?: "ACTIVE" | "INACTIVE";
}

/** CatalogsRetailFeed (the fields we read). */
export interface PinterestFeed {
  id: string;
  created_at: string;
  updated_at: string;
  name: string | null;
  format: PinterestFeedFormat;
  location: string;
  status: "ACTIVE" | "INACTIVE";
  catalog_type: "RETAIL";
  default_currency: string | null;
  default_locale: string;
  default_country: string;
}

/** CatalogsFeedIngestion: the answer of POST /v5/catalogs/feeds/{feed_id}/ingest. */
export interface PinterestFeedIngestion {
  id: string;
  feed_id: string;
  created_at: string;
  status: PinterestFeedProcessingStatus;
}

/** CatalogsFeedProcessingResult. */
export interface PinterestFeedProcessingResult {
  id: string;
  created_at: string;
  updated_at: string;
  status: PinterestFeedProcessingStatus;
  ingestion_details: { errors: Record<string, number>; info: Record<string, number>; warnings: Record<string, number> };
  validation_details: { errors: Record<string, number>; warnings: Record<string, number> };
  product_counts: { original?: number; ingested?: number } | null;
}

/** CatalogsItemValidationDetails. */
export interface PinterestItemValidationDetails {
  attribute_name: string | null;
  provided_value: string | null;
}

/** CatalogsItemValidationIssues: one item's errors and warnings, by issue code. */
export interface PinterestItemIssues {
  item_number: number;
  item_id: string | null;
  errors: Record<string, PinterestItemValidationDetails>;
  warnings: Record<string, PinterestItemValidationDetails>;
}
