import * as v from "valibot";
import { body, plainLine } from "../fields.ts";
import { TemplateDesign } from "../content/template.ts";

/** The admin's standard templates and categories (issue 20, decision 053). */

export const STANDARD_TEMPLATES_ADMINS_ONLY = "Only admins can manage standard templates.";

const TemplateId = v.pipe(v.string("templateId is required"), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "templateId must name a template"));
const CategoryId = v.pipe(v.string("categoryIds must be category ids"), v.regex(/^[A-Za-z0-9_-]{1,80}$/, "categoryIds must be category ids"));

export const StandardTemplateIdParam = v.object({ templateId: TemplateId });

/** POST /api/admin/standardTemplates {template}: a new standard template, unpublished until an admin publishes it. */
export const CreateStandardTemplateBody = body({ template: TemplateDesign });

/** POST /api/admin/standardTemplates/:templateId/publish {published} */
export const PublishStandardTemplateBody = body({ published: v.boolean("published must be true or false") });

/** POST /api/admin/standardTemplates/reorder {category, templateIds}: the category's standard templates, all of them, in their new order. */
export const ReorderStandardTemplatesBody = body({
  category: v.pipe(v.string("category is required"), plainLine, v.trim(), v.nonEmpty("category is required"), v.maxLength(60, "category is too long")),
  templateIds: v.pipe(
    v.array(TemplateId, "templateIds must be a list of template ids"),
    v.minLength(1, "templateIds must not be empty"),
    v.maxLength(500, "templateIds has too many ids"),
  ),
});

/** POST /api/admin/templateCategories {name}: a new standard category, placed last. */
export const CreateStandardCategoryBody = body({
  name: v.pipe(v.string("name is required"), plainLine, v.trim(), v.nonEmpty("name is required"), v.maxLength(40, "name is too long")),
});

/** POST /api/admin/templateCategories/reorder {categoryIds}: every standard category, in the new order. */
export const ReorderCategoriesBody = body({
  categoryIds: v.pipe(
    v.array(CategoryId, "categoryIds must be a list of category ids"),
    v.minLength(1, "categoryIds must not be empty"),
    v.maxLength(200, "categoryIds has too many ids"),
  ),
});

export interface AdminStandardTemplate {
  templateId: string;
  title: string;
  categories: string[];
  isPublished: boolean;
  position: number;
  /** ms since 1970 */
  updatedAt: number;
}

export interface AdminStandardCategory {
  id: string;
  name: string;
  position: number;
  /** Standard templates in it (published or not). */
  templateCount: number;
}

/** GET /api/admin/standardTemplates */
export interface AdminStandardTemplates {
  templates: AdminStandardTemplate[];
  categories: AdminStandardCategory[];
}
