import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { canonicalUrl } from "../lib/seo.ts";

/** Pages behind sign-in and the API are not for search engines; everything public is, and the sitemap says where. */
const PRIVATE_PATHS = [
  "/api/",
  "/highMemLimitApi/",
  "/videoApi/",
  "/admin",
  "/profile",
  "/pin-history",
  "/scheduling",
  "/onboarding",
  "/redeem-code",
  "/reset-password",
  "/verify-email",
  "/unsubscribe",
  "/template-builder",
  "/singlePin",
  "/singlePinTest",
];

/** /robots.txt */
export function loader({ context }: LoaderFunctionArgs) {
  const origin = context.cloudflare.env.APP_URL;
  const body = [
    "User-agent: *",
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "Allow: /",
    "",
    `Sitemap: ${canonicalUrl(origin, "/sitemap.xml")}`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" } });
}
