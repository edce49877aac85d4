import { RenderTemplateImageBody, type RenderedPin } from "../../../contracts/content/render.ts";
import { requireUser } from "../../auth/middleware.ts";
import { renderAndStorePin } from "../../services/content/pin-images.ts";
import { router } from "../core/hono.ts";
import { once, valid } from "../core/validation.ts";

/** Pin rendering (under /highMemLimitApi: the calls that need the most memory). */
export const rendering = router();

/**
 * A full-size pin: a download is charged one image credit here (the server
 * decides), a render for scheduling when it is scheduled. With an
 * idempotency key a replay answers the same image, rendered and charged once.
 */
rendering.post("/scraping/renderTemplateImage", requireUser, valid("json", RenderTemplateImageBody), async (c) => {
  const input = c.req.valid("json");
  return c.json(
    await once<RenderedPin>(c, "renderTemplateImage", input, (reference) => renderAndStorePin(c.env, c.var.auth.user, input.post, input.purpose, reference)),
  );
});
