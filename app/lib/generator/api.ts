import type { AltTextResponse, RewriteTextResponse } from "../../../contracts/content/ai.ts";
import type { DesignSettings, RgbaColor } from "../../../contracts/content/design-settings.ts";
import type {
  ActiveDesignSettings,
  DesignProfileSummary,
  DesignSettingsProfilesResponse,
  Draft,
  DraftsPage,
  DraftSummary,
  MediaItem,
  MediaPage,
  MediaType,
  SaveDesignSettingsResponse,
} from "../../../contracts/content/library.ts";
import type { Post } from "../../../contracts/content/post.ts";
import type { ScrapeFeedResponse, ScrapeWebsiteResponse, ScrapeWebsitesResponse, SitemapResponse } from "../../../contracts/content/scrape.ts";
import type { Template } from "../../../contracts/content/template.ts";
import { apiFetch, apiJson, ApiError } from "../api-client.ts";
import { creditsMayHaveChanged } from "../credit-events.ts";
import type { AiClient } from "./ai-copy.ts";

/** The calls the generator makes (spec section 7), as the browser makes them. */

// ------------------------------------------------------------------ sources

export function scrapeWebsite(url: string) {
  return apiJson<ScrapeWebsiteResponse>("/highMemLimitApi/scraping/scrapeWebsite", { json: { url } });
}
export function scrapeWebsites(urls: string[]) {
  return apiJson<ScrapeWebsitesResponse>("/highMemLimitApi/scraping/scrapeWebsites", { json: { urls } });
}
export function getSitemapPostURLs(url: string) {
  return apiJson<SitemapResponse>("/highMemLimitApi/scraping/getSitemapPostURLs", { json: { url } });
}
export function scrapeFeed(url: string) {
  return apiJson<ScrapeFeedResponse>("/highMemLimitApi/scraping/scrapeFeed", { json: { url } });
}

// ------------------------------------------------------------------ AI

export const aiClient: AiClient = {
  // AI copy is charged (or refused for want of credits): the balance shown is read again after each call.
  async rewrite(request, noDuplicates) {
    const path = noDuplicates ? "/highMemLimitApi/openAI/rewriteTextNoDuplicates" : "/api/openAI/rewriteText";
    return (await apiJson<RewriteTextResponse>(path, { json: request }).finally(creditsMayHaveChanged)).results;
  },
  async altText(request) {
    return (await apiJson<AltTextResponse>("/api/openAI/getAltTextFromImage", { json: request }).finally(creditsMayHaveChanged)).altText;
  },
};

// ------------------------------------------------------------------ templates and palettes

export async function fetchTemplateSet(ids: string[]): Promise<Template[]> {
  if (ids.length === 0) return [];
  return (await apiJson<{ templates: Template[] }>("/api/templates/getTemplateSet", { json: { templateSet: ids } })).templates;
}

export interface Palette {
  id: string;
  name: string;
  colors: RgbaColor[];
}
export async function fetchPalettes(): Promise<Palette[]> {
  return (await apiJson<{ palettes: Palette[] }>("/api/templates/colorPalettes")).palettes;
}

// ------------------------------------------------------------------ design settings profiles

export type ProfileSummary = DesignProfileSummary;
export type { ActiveDesignSettings };

export function fetchDesignProfiles(id: string | "active") {
  return apiJson<DesignSettingsProfilesResponse>(`/api/user/getDesignSettingsProfiles/${encodeURIComponent(id)}`);
}
export function saveDesignSettings(designSettings: DesignSettings, target: { profileId?: string; newProfileName?: string }) {
  return apiJson<SaveDesignSettingsResponse>("/api/user/saveDesignSettings", {
    json: { designSettings, ...target },
  });
}
export function renameDesignProfile(profileId: string, newProfileName: string) {
  return apiJson<{ designSettingsProfiles: ProfileSummary[] }>("/api/user/renameDesignProfile", { json: { profileId, newProfileName } });
}
export function deleteDesignProfile(profileId: string) {
  return apiJson<DesignSettingsProfilesResponse>(`/api/user/deleteDesignProfile/${encodeURIComponent(profileId)}`, { method: "DELETE" });
}

// ------------------------------------------------------------------ media library

export type { MediaItem, MediaType };

export async function uploadMedia(file: File, mediaType: MediaType): Promise<MediaItem> {
  const form = new FormData();
  form.set("file", file);
  form.set("mediaType", mediaType);
  const response = await apiFetch("/api/user/media/uploadMedia", { method: "POST", body: form });
  const body = (await response.json().catch(() => null)) as { media?: MediaItem; error?: string; field?: string } | null;
  if (!response.ok || !body?.media)
    throw new ApiError(response.status, body?.error ?? `The upload failed (${response.status}). Please try again.`, body?.field);
  return body.media;
}
export function fetchUserMedia(mediaType: MediaType, lastMediaId?: string | null) {
  const query = new URLSearchParams({ mediaType });
  if (lastMediaId) query.set("lastMediaId", lastMediaId);
  return apiJson<MediaPage>(`/api/user/media/getUserMedia?${query}`);
}
export function deleteMedia(id: string) {
  return apiJson<{ deletedId: string }>(`/api/user/media/deleteMedia/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** POST /api/openAI/generateImage: an AI picture (12 credits, once per reference), kept in the media library. */
export async function generateAiImage(prompt: string, reference: string): Promise<MediaItem> {
  try {
    return (await apiJson<{ image: MediaItem }>("/api/openAI/generateImage", { json: { prompt, reference } })).image;
  } finally {
    creditsMayHaveChanged();
  }
}

// ------------------------------------------------------------------ drafts

export type { Draft, DraftSummary };

export function createDraft(posts: Post[], name: string, date: string) {
  return apiJson<{ draft: DraftSummary }>("/api/user/drafts/createDraft", { json: { posts, name, date } });
}
export function updateDraft(draftId: string, posts: Post[], name: string, date: string) {
  return apiJson<{ draft: DraftSummary }>("/api/user/drafts/updateDraft", { json: { posts, draftId, name, date } });
}
export function renameDraft(draftId: string, newName: string) {
  return apiJson<{ draft: DraftSummary }>("/api/user/drafts/renameDraft", { json: { draftId, newName } });
}
export async function fetchLatestDraft(): Promise<Draft | null> {
  return (await apiJson<{ draft: Draft | null }>("/api/user/drafts/latestDraft")).draft;
}
export async function fetchDraft(draftId: string): Promise<Draft> {
  return (await apiJson<{ draft: Draft }>(`/api/user/drafts/getDraft/${encodeURIComponent(draftId)}`)).draft;
}
export function fetchDrafts(lastDraftId?: string | null) {
  return apiJson<DraftsPage>(`/api/user/drafts/getDrafts${lastDraftId ? `?lastDraftId=${encodeURIComponent(lastDraftId)}` : ""}`);
}
export async function deleteDraft(draftId: string): Promise<void> {
  await apiJson(`/api/user/drafts/deleteDraft/${encodeURIComponent(draftId)}`, { method: "DELETE" });
}

/** The server's words for a failed call, or a general fallback. */
export function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "Please try again.";
}
