import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AffiliatePayoutsSection } from "../components/affiliate/payouts-section.tsx";
import affiliateStyles from "../components/affiliate/affiliate.css?url";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { currentUser } from "../lib/session.server.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: affiliateStyles },
];
export const meta: MetaFunction = () => [{ title: "Admin | Pinboard Studio" }];

/** Who may see the page: decided on the server from the signed-in user's role (never from the browser). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await currentUser(request, context);
  if (!user) return { access: "signed-out" as const };
  if (user.role !== "admin") throw new Response("Not found", { status: 404 });
  return { access: "admin" as const };
}

/**
 * /admin: tools for admins, one section each (issue 16: affiliate payouts;
 * issue 20 adds more). Every section's calls are checked for the admin role
 * by the server as well.
 */
export default function AdminPage() {
  const { access } = useLoaderData<typeof loader>();
  return (
    <main className="page admin-page">
      <h1>Admin</h1>
      {access === "signed-out" ? <LoginPrompt action="open the admin page" /> : <AffiliatePayoutsSection />}
    </main>
  );
}
