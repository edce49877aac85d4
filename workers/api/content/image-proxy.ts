import * as v from "valibot";
import { requireUser } from "../../auth/middleware.ts";
import { MAX_PROXY_WIDTH, MIN_PROXY_WIDTH, proxiedImage } from "../../services/content/image-proxy.ts";
import { router } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/** GET /api/scraping/imageProxy?url=&width=: pictures for the browser's previews (same origin, so satori may read them). */
export const imageProxy = router();

const ProxyQuery = v.object({
  url: v.pipe(v.string("url is required"), v.trim(), v.nonEmpty("url is required"), v.maxLength(2048, "url is too long")),
  width: v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.integer("width must be a whole number of pixels"),
      v.minValue(MIN_PROXY_WIDTH, `width must be at least ${MIN_PROXY_WIDTH}`),
      v.maxValue(MAX_PROXY_WIDTH, `width must be at most ${MAX_PROXY_WIDTH}`),
    ),
  ),
});

imageProxy.get("/scraping/imageProxy", requireUser, valid("query", ProxyQuery), async (c) => {
  const { url, width } = c.req.valid("query");
  const image = await proxiedImage(c.env, url, width);
  return new Response(image.bytes, {
    headers: {
      "content-type": image.contentType,
      // Per user (signed in), kept by the browser for a day: the same preview is drawn many times.
      "cache-control": "private, max-age=86400",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'",
    },
  });
});
