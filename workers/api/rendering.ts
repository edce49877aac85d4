import { RenderTemplateImageBody } from "../../contracts/render.ts";
import { requireUser } from "../auth/middleware.ts";
import { renderAndStorePin } from "../services/pin-images.ts";
import { router } from "./hono.ts";
import { valid } from "./validation.ts";

/** Pin rendering (under /highMemLimitApi: the calls that need the most memory). */
export const rendering = router();

rendering.post("/scraping/renderTemplateImage", requireUser, valid("json", RenderTemplateImageBody), async (c) => {
  const { url, fileName, width, height } = await renderAndStorePin(c.env, c.var.auth.user, c.req.valid("json").post);
  return c.json({ url, imageURL: url, fileName, width, height });
});
