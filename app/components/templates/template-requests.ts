import type { Template, TemplateDesign } from "../../../contracts/content/template.ts";
import { designFields, duplicateTemplateDesign } from "../../../workers/domain/templates.ts";
import { apiJson } from "../../lib/api-client.ts";

/** The template calls of spec section 7, as the browser makes them. */

export interface TemplatePage {
  templates: Template[];
  lastTemplateId: string | null;
  hasMore: boolean;
}

export interface TemplateCategory {
  id: string;
  name: string;
  /** Standard categories belong to everyone and cannot be deleted. */
  isStandard: boolean;
}

/**
 * The cache keys of the template reads (app/lib/query.ts). A read shown in several places (the categories in the
 * gallery and the editor, the user's templates in the gallery, the template picker and the RSS feed form) uses
 * one key, so it is made once and a change made in one place shows in all of them.
 */
export const templateKeys = {
  /** Every list of templates: refreshed after a change to a template. */
  lists: ["templates"],
  /** The standard templates of every category. */
  standardLists: ["templates", "standard"],
  /** Template[]; "" is all categories. */
  standard: (category?: string | null) => ["templates", "standard", category ?? ""],
  /** A TemplatePage: the pages read so far, one after the other. */
  mine: ["templates", "mine"],
  /** A TemplatePage, like `mine`. */
  shared: ["templates", "shared"],
  /** Template[]. */
  favourites: ["templates", "favourites"],
  /** TemplateCategory[]. */
  categories: ["template-categories"],
  /** One Template, as the editor opens it. */
  one: (templateId: string) => ["template", templateId],
} as const;

const pageQuery = (lastTemplateId?: string | null) => (lastTemplateId ? `?lastTemplateId=${encodeURIComponent(lastTemplateId)}` : "");

export async function fetchStandardTemplates(category?: string | null): Promise<Template[]> {
  const query = category ? `?category=${encodeURIComponent(category)}` : "";
  return (await apiJson<{ templates: Template[] }>(`/api/templates/standardTemplates${query}`)).templates;
}

export function fetchUserTemplates(lastTemplateId?: string | null): Promise<TemplatePage> {
  return apiJson<TemplatePage>(`/api/templates${pageQuery(lastTemplateId)}`);
}

export function fetchSharedTemplates(lastTemplateId?: string | null): Promise<TemplatePage> {
  return apiJson<TemplatePage>(`/api/templates/sharedTemplates/getSharedTemplates${pageQuery(lastTemplateId)}`);
}

export async function fetchFavoriteTemplates(): Promise<Template[]> {
  return (await apiJson<{ templates: Template[] }>("/api/templates/favoriteTemplates")).templates;
}

export async function fetchTemplate(templateId: string): Promise<Template> {
  return (await apiJson<{ template: Template }>(`/api/template/${encodeURIComponent(templateId)}`)).template;
}

export async function addNewTemplate(design: TemplateDesign): Promise<Template> {
  return (await apiJson<{ template: Template }>("/api/templates/addNewTemplate", { json: { template: design } })).template;
}

export async function updateTemplate(templateId: string, design: TemplateDesign, isShared?: boolean): Promise<Template> {
  const template = { ...designOf(design), templateId, ...(isShared === undefined ? {} : { isShared }) };
  return (await apiJson<{ template: Template }>("/api/templates/updateTemplate", { json: { template } })).template;
}

export async function unshareTemplate(templateId: string): Promise<Template> {
  return (await apiJson<{ template: Template }>("/api/templates/unshareTemplate", { json: { templateId } })).template;
}

export async function deleteTemplate(templateId: string): Promise<void> {
  await apiJson(`/api/template/${encodeURIComponent(templateId)}`, { method: "DELETE" });
}

export function toggleTemplateFavorite(templateId: string): Promise<{ isFavorite: boolean; favoriteCount: number }> {
  return apiJson("/api/user/templates/toggleTemplateFavorite", { json: { templateId } });
}

export async function fetchTemplateCategories(): Promise<TemplateCategory[]> {
  return (await apiJson<{ categories: TemplateCategory[] }>("/api/templates/categories/getTemplateCategories")).categories;
}

export async function addTemplateCategory(name: string): Promise<TemplateCategory> {
  return (await apiJson<{ category: TemplateCategory }>("/api/templates/categories/addTemplateCategory", { json: { name } })).category;
}

export async function deleteTemplateCategory(id: string): Promise<void> {
  await apiJson(`/api/templates/categories/deleteTemplateCategory/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Said when a copy is made: a duplicate has no categories (spec section 4), which the user would not guess. */
export const COPY_HAS_NO_CATEGORIES = "Copies start without categories: pick them under Categories in the editor.";

/** A copy of a design as the user's own template: "title (copy)", no categories, not standard (spec section 4). */
export function addTemplateCopy(design: TemplateDesign): Promise<Template> {
  return addNewTemplate(duplicateTemplateDesign(designOf(design)));
}

/** Only the design fields of a stored template (what add and update accept). */
export function designOf(template: TemplateDesign): TemplateDesign {
  return designFields(template);
}

/** The server's words for a failed call (ApiError carries them), or a general fallback. */
export function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "Please try again.";
}
