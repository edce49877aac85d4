import type { Context } from "hono";
import { escapeHtml, standalonePage } from "./html.ts";

/** Back to the app's redirect_uri with the answer's parameters (code and state, or error and state). */
export function redirectBack(c: Context, redirectUri: string, values: Record<string, string | undefined>) {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== undefined) target.searchParams.set(name, value);
  c.header("cache-control", "no-store");
  return c.redirect(target.toString(), 302);
}

/** The page a provider's authorization page shows for a request it refuses (400). */
export function authorizeErrorPage(c: Context, css: string, provider: string, problem: string) {
  c.header("cache-control", "no-store");
  return c.html(
    standalonePage(
      "Something went wrong",
      css,
      `<h1>Something went wrong</h1>
      <p class="error" role="alert"><strong>${escapeHtml(problem)}</strong></p>
      <p class="note">This is the local sandbox standing in for ${escapeHtml(provider)}'s authorization page, which refuses such a request too.</p>`,
    ),
    400,
  );
}
