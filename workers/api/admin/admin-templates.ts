import {
  CreateStandardCategoryBody,
  CreateStandardTemplateBody,
  PublishStandardTemplateBody,
  ReorderCategoriesBody,
  ReorderStandardTemplatesBody,
  STANDARD_TEMPLATES_ADMINS_ONLY,
  StandardTemplateIdParam,
} from "../../../contracts/admin/admin-templates.ts";
import { adminOnly, requireUser } from "../../auth/middleware.ts";
import { purgePages } from "../../http/page-cache.ts";
import {
  adminStandardTemplates,
  createStandardCategory,
  createStandardTemplate,
  reorderStandardCategories,
  reorderStandardTemplates,
  setStandardTemplatePublished,
  STANDARD_TEMPLATE_PAGES,
} from "../../services/content/standard-templates.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * The admin console's standard templates and categories (issue 20, decision
 * 053). Admins only, checked on the server for every call; every change is
 * audited, and the cached public pages that show standard templates are purged.
 */
export const adminTemplatesApi = router();
const admins = adminOnly(STANDARD_TEMPLATES_ADMINS_ONLY);

adminTemplatesApi.get("/admin/standardTemplates", requireUser, admins, async (c) => c.json(await adminStandardTemplates(c.env)));

adminTemplatesApi.post("/admin/standardTemplates", requireUser, admins, valid("json", CreateStandardTemplateBody), async (c) =>
  c.json({ template: await createStandardTemplate(c.env, c.var.auth.user, c.req.valid("json").template) }, 201),
);

adminTemplatesApi.post("/admin/standardTemplates/reorder", requireUser, admins, valid("json", ReorderStandardTemplatesBody), async (c) => {
  const { category, templateIds } = c.req.valid("json");
  const templates = await reorderStandardTemplates(c.env, c.var.auth.user, category, templateIds);
  await purgePages(c.env, STANDARD_TEMPLATE_PAGES);
  return c.json({ templates });
});

adminTemplatesApi.post(
  "/admin/standardTemplates/:templateId/publish",
  requireUser,
  admins,
  valid("param", StandardTemplateIdParam),
  valid("json", PublishStandardTemplateBody),
  async (c) => {
    const template = await setStandardTemplatePublished(c.env, c.var.auth.user, c.req.valid("param").templateId, c.req.valid("json").published);
    await purgePages(c.env, STANDARD_TEMPLATE_PAGES);
    return c.json({ template });
  },
);

adminTemplatesApi.post("/admin/templateCategories", requireUser, admins, valid("json", CreateStandardCategoryBody), async (c) =>
  c.json({ category: await createStandardCategory(c.env, c.var.auth.user, c.req.valid("json").name) }, 201),
);

adminTemplatesApi.post("/admin/templateCategories/reorder", requireUser, admins, valid("json", ReorderCategoriesBody), async (c) =>
  c.json({ categories: await reorderStandardCategories(c.env, c.var.auth.user, c.req.valid("json").categoryIds) }),
);
