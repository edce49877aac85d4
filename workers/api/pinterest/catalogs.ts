import {
  AddItemsToCatalogBody,
  CatalogIdParam,
  CatalogItemIdParam,
  CreateCatalogBody,
  DeleteCatalogItemImageBody,
  UpdateCatalogBody,
  UpdateCatalogItemBody,
} from "../../../contracts/pinterest/catalogs.ts";
import { requireUser } from "../../auth/middleware.ts";
import {
  addItemsToCatalog,
  catalogsState,
  catalogStatus,
  createCatalog,
  deleteCatalog,
  deleteCatalogItem,
  deleteCatalogItemImage,
  getCatalogItems,
  publishCatalog,
  updateCatalog,
  updateCatalogItem,
} from "../../services/pinterest/catalogs.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * Catalogs (spec section 7, "Shops and catalogs"; issue 18; decision 043): the
 * spec's calls at their paths, and ours beside them (createCatalog,
 * deleteCatalog, publishCatalog, getCatalogStatus). Every call is the
 * signed-in user's own.
 */
export const catalogsApi = router();
catalogsApi.use("/catalogs/*", requireUser);

catalogsApi.get("/catalogs/getCatalogs/:id", valid("param", CatalogIdParam), async (c) => {
  return c.json(await catalogsState(c.env, c.var.auth.user, c.req.valid("param").id));
});

catalogsApi.post("/catalogs/createCatalog", valid("json", CreateCatalogBody), async (c) => {
  return c.json({ catalog: await createCatalog(c.env, c.var.auth.user, c.req.valid("json")) }, 201);
});

catalogsApi.patch("/catalogs/updateCatalog/:id", valid("param", CatalogIdParam), valid("json", UpdateCatalogBody), async (c) => {
  return c.json({ catalog: await updateCatalog(c.env, c.var.auth.user, c.req.valid("param").id, c.req.valid("json")) });
});

catalogsApi.delete("/catalogs/deleteCatalog/:id", valid("param", CatalogIdParam), async (c) => {
  return c.json(await deleteCatalog(c.env, c.var.auth.user, c.req.valid("param").id));
});

catalogsApi.post("/catalogs/addItemsToCatalog", valid("json", AddItemsToCatalogBody), async (c) => {
  const { catalogID, items } = c.req.valid("json");
  return c.json(await addItemsToCatalog(c.env, c.var.auth.user, catalogID, items), 201);
});

catalogsApi.get("/catalogs/getCatalogItems/:id", valid("param", CatalogIdParam), async (c) => {
  return c.json({ catalogItems: await getCatalogItems(c.env, c.var.auth.user, c.req.valid("param").id) });
});

catalogsApi.delete("/catalogs/deleteCatalogItemImage", valid("json", DeleteCatalogItemImageBody), async (c) => {
  const { catalogItemID, image } = c.req.valid("json");
  return c.json({ catalogItem: await deleteCatalogItemImage(c.env, c.var.auth.user, catalogItemID, image) });
});

catalogsApi.delete("/catalogs/deleteCatalogItem/:id", valid("param", CatalogItemIdParam), async (c) => {
  return c.json(await deleteCatalogItem(c.env, c.var.auth.user, c.req.valid("param").id));
});

catalogsApi.patch("/catalogs/updateCatalogItem/:id", valid("param", CatalogItemIdParam), valid("json", UpdateCatalogItemBody), async (c) => {
  return c.json({ catalogItem: await updateCatalogItem(c.env, c.var.auth.user, c.req.valid("param").id, c.req.valid("json")) });
});

catalogsApi.post("/catalogs/publishCatalog/:id", valid("param", CatalogIdParam), async (c) => {
  return c.json(await publishCatalog(c.env, c.var.auth.user, c.req.valid("param").id));
});

catalogsApi.get("/catalogs/getCatalogStatus/:id", valid("param", CatalogIdParam), async (c) => {
  return c.json(await catalogStatus(c.env, c.var.auth.user, c.req.valid("param").id));
});
