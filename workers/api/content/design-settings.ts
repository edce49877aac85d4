import { ProfileIdParam, ProfileNameParam, RenameDesignProfileBody, SaveDesignSettingsBody } from "../../../contracts/content/library.ts";
import { requireUser } from "../../auth/middleware.ts";
import {
  deleteDesignProfile,
  designProfileByName,
  openDesignProfile,
  renameDesignProfile,
  saveDesignSettings,
} from "../../services/content/design-settings.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Design-settings profiles (spec section 7): every call is the signed-in user's own. */
export const designSettingsApi = router();

designSettingsApi.get("/user/getDesignSettingsProfiles/:id", requireUser, valid("param", ProfileIdParam), async (c) => {
  return c.json(await openDesignProfile(c.env, c.var.auth.user, c.req.valid("param").id));
});

designSettingsApi.get("/user/getDesignSettingsProfile/:name", requireUser, valid("param", ProfileNameParam), async (c) => {
  return c.json(await designProfileByName(c.env, c.var.auth.user, c.req.valid("param").name));
});

designSettingsApi.post("/user/saveDesignSettings", requireUser, valid("json", SaveDesignSettingsBody), async (c) => {
  return c.json(await saveDesignSettings(c.env, c.var.auth.user, c.req.valid("json")));
});

designSettingsApi.post("/user/renameDesignProfile", requireUser, valid("json", RenameDesignProfileBody), async (c) => {
  const { profileId, newProfileName } = c.req.valid("json");
  return c.json(await renameDesignProfile(c.env, c.var.auth.user, profileId, newProfileName));
});

designSettingsApi.delete("/user/deleteDesignProfile/:id", requireUser, valid("param", ProfileIdParam), async (c) => {
  return c.json(await deleteDesignProfile(c.env, c.var.auth.user, c.req.valid("param").id));
});
