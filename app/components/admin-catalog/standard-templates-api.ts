import type { AdminStandardCategory, AdminStandardTemplate, AdminStandardTemplates } from "../../../contracts/admin/admin-templates.ts";
import type { TemplateDesign } from "../../../contracts/content/template.ts";
import { apiJson } from "../../lib/api-client.ts";

/** The admin's standard-template calls (issue 20, decision 053); the server checks the admin role on each. */
export const listStandardTemplates = () => apiJson<AdminStandardTemplates>("/api/admin/standardTemplates");
export const createStandardTemplate = (template: TemplateDesign) =>
  apiJson<{ template: AdminStandardTemplate }>("/api/admin/standardTemplates", { json: { template } });
export const publishStandardTemplate = (templateId: string, published: boolean) =>
  apiJson<{ template: AdminStandardTemplate }>(`/api/admin/standardTemplates/${encodeURIComponent(templateId)}/publish`, { json: { published } });
export const reorderStandardTemplates = (category: string, templateIds: string[]) =>
  apiJson<{ templates: AdminStandardTemplate[] }>("/api/admin/standardTemplates/reorder", { json: { category, templateIds } });
export const createStandardCategory = (name: string) => apiJson<{ category: AdminStandardCategory }>("/api/admin/templateCategories", { json: { name } });
export const reorderStandardCategories = (categoryIds: string[]) =>
  apiJson<{ categories: AdminStandardCategory[] }>("/api/admin/templateCategories/reorder", { json: { categoryIds } });

/** The list with the item at `index` moved one place up (-1) or down (+1). */
export function moved<T>(items: readonly T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}
