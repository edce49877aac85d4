import * as v from "valibot";
import {
  AddTemplateBody,
  CategoryBody,
  PageQuery,
  StandardTemplatesQuery,
  TemplateIdBody,
  TemplateSetBody,
  UpdateTemplateBody,
} from "../../../contracts/content/templates-api.ts";
import { requireUser } from "../../auth/middleware.ts";
import { purgePages } from "../../http/page-cache.ts";
import { STANDARD_TEMPLATE_PAGES } from "../../services/content/standard-templates.ts";
import {
  addCategory,
  createTemplate,
  deleteCategory,
  deleteTemplate,
  getTemplate,
  getTemplateSet,
  listCategories,
  listFavoriteTemplates,
  listPalettes,
  listSharedTemplates,
  listStandardTemplates,
  listUserTemplates,
  recentlyUpdatedTemplates,
  toggleTemplateFavorite,
  unshareTemplate,
  updateTemplate,
} from "../../services/content/templates.ts";
import { apiError } from "../core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Template calls of spec section 7 (all need a signed-in user). */
export const templatesApi = router();
templatesApi.use("/templates/*", requireUser);
templatesApi.use("/templates", requireUser);
templatesApi.use("/template/*", requireUser);
templatesApi.use("/userTemplates/*", requireUser);
templatesApi.use("/user/templates/*", requireUser);

const IdParam = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/));

templatesApi.get("/templates", valid("query", PageQuery), async (c) => {
  return c.json(await listUserTemplates(c.env, c.var.auth.user, c.req.valid("query").lastTemplateId));
});

templatesApi.post("/templates/addNewTemplate", valid("json", AddTemplateBody), async (c) => {
  return c.json({ template: await createTemplate(c.env, c.var.auth.user, c.req.valid("json").template) }, 201);
});

templatesApi.post("/templates/updateTemplate", valid("json", UpdateTemplateBody), async (c) => {
  const { templateId, isShared, ...design } = c.req.valid("json").template;
  const template = await updateTemplate(c.env, c.var.auth.user, templateId, design, isShared);
  // An admin's edit of a standard template: the cached pages showing it are purged (decision 053).
  if (template.isStandardTemplate) await purgePages(c.env, STANDARD_TEMPLATE_PAGES);
  return c.json({ template });
});

templatesApi.post("/templates/unshareTemplate", valid("json", TemplateIdBody), async (c) => {
  return c.json({ template: await unshareTemplate(c.env, c.var.auth.user, c.req.valid("json").templateId) });
});

templatesApi.get("/templates/standardTemplates", valid("query", StandardTemplatesQuery), async (c) => {
  return c.json({ templates: await listStandardTemplates(c.env, c.var.auth.user, c.req.valid("query").category) });
});

templatesApi.get("/templates/favoriteTemplates", async (c) => {
  return c.json({ templates: await listFavoriteTemplates(c.env, c.var.auth.user) });
});

templatesApi.post("/templates/getTemplateSet", valid("json", TemplateSetBody), async (c) => {
  return c.json({ templates: await getTemplateSet(c.env, c.var.auth.user, c.req.valid("json").templateSet) });
});

templatesApi.get("/templates/sharedTemplates/getSharedTemplates", valid("query", PageQuery), async (c) => {
  return c.json(await listSharedTemplates(c.env, c.var.auth.user, c.req.valid("query").lastTemplateId));
});

templatesApi.get("/templates/categories/getTemplateCategories", async (c) => {
  return c.json({ categories: await listCategories(c.env, c.var.auth.user) });
});

templatesApi.post("/templates/categories/addTemplateCategory", valid("json", CategoryBody), async (c) => {
  return c.json({ category: await addCategory(c.env, c.var.auth.user, c.req.valid("json").name) }, 201);
});

templatesApi.delete("/templates/categories/deleteTemplateCategory/:id", async (c) => {
  const id = c.req.param("id");
  if (!v.is(IdParam, id)) return apiError(c, 404, "Category not found");
  await deleteCategory(c.env, c.var.auth.user, id);
  return c.json({ message: "Category deleted" });
});

templatesApi.get("/templates/colorPalettes", async (c) => c.json({ palettes: await listPalettes(c.env) }));

templatesApi.get("/userTemplates/recentlyUpdatedTemplates", async (c) => {
  return c.json({ templates: await recentlyUpdatedTemplates(c.env, c.var.auth.user) });
});

templatesApi.post("/user/templates/toggleTemplateFavorite", valid("json", TemplateIdBody), async (c) => {
  return c.json(await toggleTemplateFavorite(c.env, c.var.auth.user, c.req.valid("json").templateId));
});

templatesApi.get("/template/:id", async (c) => {
  const id = c.req.param("id");
  if (!v.is(IdParam, id)) return apiError(c, 404, "Template not found");
  return c.json({ template: await getTemplate(c.env, c.var.auth.user, id) });
});

templatesApi.delete("/template/:id", async (c) => {
  const id = c.req.param("id");
  if (!v.is(IdParam, id)) return apiError(c, 404, "Template not found");
  const { wasStandard } = await deleteTemplate(c.env, c.var.auth.user, id);
  if (wasStandard) await purgePages(c.env, STANDARD_TEMPLATE_PAGES);
  return c.json({ message: "Template deleted" });
});
