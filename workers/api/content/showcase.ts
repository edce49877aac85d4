import { Hono } from "hono";
import * as v from "valibot";
import { EXAMPLE_WIDTH, EXAMPLE_WIDTHS, SHOWCASE_VERSION } from "../../services/content/showcase-catalog.ts";
import { examplePinPicture, openGraphPicture, type ShowcasePicture } from "../../services/content/showcase.ts";
import type { AppBindings } from "../core/hono.ts";
import { valid } from "../core/validation.ts";

/**
 * The home page's pictures, rendered by our pin engine (workers/services/content/showcase.ts):
 * GET /example-pins/{templateId} (JPEG) and GET /og-image.png (the Open Graph picture).
 * Public and cacheable; the security headers add nosniff and a policy that runs nothing.
 */
export const showcaseRoutes = new Hono<AppBindings>();

const ExamplePinParam = v.object({
  templateId: v.pipe(v.string(), v.regex(/^std-[a-z0-9]+(?:-[a-z0-9]+)*$/, "templateId must be a standard template's id, such as std-full-bleed-banner-01")),
});

const ExamplePinQuery = v.object({
  w: v.optional(v.picklist(EXAMPLE_WIDTHS.map(String) as ["240", "320", "400"], `w must be one of ${EXAMPLE_WIDTHS.join(", ")}`)),
  v: v.optional(v.pipe(v.string(), v.maxLength(40, "v must be at most 40 characters"))),
});

function picture(found: ShowcasePicture | null, cacheControl: string, request: Request): Response {
  if (!found) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const headers = { "content-type": found.contentType, "cache-control": cacheControl, etag: found.etag };
  if (request.headers.get("if-none-match") === found.etag) {
    if (found.bytes instanceof ReadableStream) void found.bytes.cancel();
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === "HEAD" ? null : found.bytes, { headers });
}

showcaseRoutes.get("/example-pins/:templateId", valid("param", ExamplePinParam), valid("query", ExamplePinQuery), async (c) => {
  const query = c.req.valid("query");
  const found = await examplePinPicture(c.env, c.req.valid("param").templateId, query.w ? (Number(query.w) as (typeof EXAMPLE_WIDTHS)[number]) : EXAMPLE_WIDTH);
  // The home page asks for the current version's address, which never changes meaning.
  const versioned = query.v?.startsWith(`${SHOWCASE_VERSION}.`);
  return picture(found, versioned ? "public, max-age=31536000, immutable" : "public, max-age=3600", c.req.raw);
});

showcaseRoutes.get("/og-image.png", async (c) => picture(await openGraphPicture(c.env), "public, max-age=86400", c.req.raw));
