import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { NotFound } from "./components/not-found.tsx";
import { SiteShell } from "./components/shell/site-shell.tsx";
import { AuthProvider, type RootData, rootShouldRevalidate } from "./lib/auth.tsx";
import { InlineStyles, SiteStylesLink } from "./lib/inline-styles.tsx";
import { useNonce } from "./lib/nonce.tsx";
import { currentUser, publicEnv } from "./lib/session.server.ts";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = () => [
  { title: "Pinboard Studio: pins from every post, scheduled for you" },
  {
    name: "description",
    content: "Generate Pinterest pins and videos from your blog, feed or shop, let AI write the copy, and bulk-schedule them to your boards.",
  },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* The site-wide styles (app, shell, referrals, home), inline: decision 056; the whole file once scripts run: decision 064. Route styles follow as links. */}
        <InlineStyles />
        <SiteStylesLink />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Every page knows the signed-in user (from the session cookie) and the public configuration. */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<RootData> {
  return { user: await currentUser(request, context), env: publicEnv(context) };
}

export const shouldRevalidate = rootShouldRevalidate;

export default function App() {
  return (
    <AuthProvider>
      <SiteShell>
        <Outlet />
      </SiteShell>
    </AuthProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <main className="page page--narrow" role="alert">
      <h1>Something went wrong</h1>
      <p>We could not show this page. Please try again in a moment.</p>
    </main>
  );
}
