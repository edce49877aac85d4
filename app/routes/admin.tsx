import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import adminCatalogStyles from "../components/admin-catalog/admin-catalog.css?url";
import { RedeemCodesSection } from "../components/admin-catalog/redeem-codes-section.tsx";
import { StandardTemplatesSection } from "../components/admin-catalog/standard-templates-section.tsx";
import adminStyles from "../components/admin/admin.css?url";
import { AuditLogSection } from "../components/admin/audit-log-section.tsx";
import { UsersSection } from "../components/admin/users-section.tsx";
import { AffiliatePayoutsSection } from "../components/affiliate/payouts-section.tsx";
import affiliateStyles from "../components/affiliate/affiliate.css?url";
import { ContentAdminSection } from "../components/content/content-admin-section.tsx";
import { NotFound } from "../components/not-found.tsx";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { currentUser } from "../lib/session.server.ts";
import accountStyles from "../styles/account.css?url";
import contentStyles from "../styles/content.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: affiliateStyles },
  { rel: "stylesheet", href: contentStyles },
  { rel: "stylesheet", href: adminCatalogStyles },
  { rel: "stylesheet", href: adminStyles },
];
export const meta: MetaFunction = () => [{ title: "Admin | Pinboard Studio" }];

/** Who may see the page: decided on the server from the signed-in user's role (never from the browser). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await currentUser(request, context);
  if (!user) return { access: "signed-out" as const };
  // Anyone else gets the not-found page: the page's existence is not advertised.
  if (user.role !== "admin") return data({ access: "none" as const }, { status: 404 });
  return { access: "admin" as const };
}

/**
 * /admin: tools for admins, one section each (issue 16: affiliate payouts;
 * issue 17: blog posts and pages; issue 20 adds more). Every section's calls are checked for the admin role
 * by the server as well.
 */
export default function AdminPage() {
  const { access } = useLoaderData<typeof loader>();
  if (access === "none") return <NotFound />;
  return (
    <main className="page admin-page">
      <h1>Admin</h1>
      {access === "signed-out" ? (
        <LoginPrompt action="open the admin page" />
      ) : (
        <>
          <UsersSection />
          <AffiliatePayoutsSection />
          <ContentAdminSection />
          <RedeemCodesSection />
          <StandardTemplatesSection />
          <AuditLogSection />
        </>
      )}
    </main>
  );
}
