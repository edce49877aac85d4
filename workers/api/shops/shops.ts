import { ActivateShopProfileBody, RemoveShopProfileParam } from "../../../contracts/shops/shops.ts";
import { requireUser } from "../../auth/middleware.ts";
import { activateShopProfile, authorizedShops, deactivateAllShopProfiles, removeShopProfile } from "../../services/shops/shops.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Shop profiles (spec section 7, Shops and catalogs): the spec keeps them under /etsyAPI for every kind of shop. */
export const shopsApi = router();

shopsApi.get("/shops", requireUser, async (c) => c.json({ authorizedShops: await authorizedShops(c.env, c.var.auth.user.id) }));

shopsApi.post("/etsyAPI/activateShopProfile", requireUser, valid("json", ActivateShopProfileBody), async (c) =>
  c.json({ authorizedShops: await activateShopProfile(c.env, c.var.auth.user.id, c.req.valid("json").shopID) }),
);

shopsApi.post("/etsyAPI/deactivateAllShopProfiles", requireUser, async (c) =>
  c.json({ authorizedShops: await deactivateAllShopProfiles(c.env, c.var.auth.user.id) }),
);

shopsApi.delete("/etsyAPI/removeShopProfile/:shop", requireUser, valid("param", RemoveShopProfileParam), async (c) =>
  c.json(await removeShopProfile(c.env, c.var.auth.user.id, c.req.valid("param").shop)),
);
