import { SetPinPublicBody, type PinPublicState, type PublicPin } from "../../../contracts/pinterest/public-pins.ts";
import { requireUser } from "../../auth/middleware.ts";
import { serveMedia } from "../../media/store.ts";
import { mayServeMedia } from "../../services/content/pin-renders.ts";
import { publicPinImage, publicPinsOf, setPinPublic } from "../../services/pinterest/public-pins.ts";
import { apiError } from "../core/errors.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** Public pins (decision 055): the owner's switch, and the image of a public pin by handle. */
export const publicPinsApi = router();

publicPinsApi.post("/user/pinHistory/setPublic", requireUser, valid("json", SetPinPublicBody), async (c) => {
  const { id, isPublic } = c.req.valid("json");
  return c.json({ pin: await setPinPublic(c.env, c.var.auth.user, id, isPublic) } satisfies { pin: PinPublicState });
});

/**
 * A profile's public pins (issue 40 point 9), newest made public first: what each public page shows, and nothing
 * of a private pin. An old handle answers the pins under the handle now (`handle` of each says which).
 */
publicPinsApi.get("/user/:handle/pins", async (c) => {
  const handle = c.req.param("handle");
  const pins = /^[A-Za-z0-9._]{1,30}$/.test(handle) ? await publicPinsOf(c.env, handle) : null;
  if (!pins) return apiError(c, 404, "No such user");
  c.header("cache-control", "private, no-store");
  return c.json({ pins } satisfies { pins: PublicPin[] });
});

/**
 * A public pin's image, by handle and pin (its media key names the owner's id,
 * which public answers never show). Cached briefly, not for good: making the
 * pin private must take it down.
 */
publicPinsApi.get("/user/:handle/pins/:postId/image", async (c) => {
  const image = await publicPinImage(c.env, c.req.param("handle"), c.req.param("postId"));
  // A render is shown only once paid for, as under /media.
  if (!image || ("key" in image && !(await mayServeMedia(c.env, image.key)))) return apiError(c, 404, "No such pin");
  if ("address" in image) return c.redirect(image.address, 302);
  const served = await serveMedia(c.env, image.key, c.req.raw);
  const headers = new Headers(served.headers);
  headers.set("cache-control", "public, max-age=60");
  return new Response(served.body, { status: served.status, headers });
});
