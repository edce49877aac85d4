import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useParams } from "@remix-run/react";
import type { Template } from "../../contracts/content/template.ts";
import type { UserCredentials } from "../../contracts/accounts/user.ts";
import { TemplateEditor } from "../components/editor/template-editor.tsx";
import { NotFound } from "../components/not-found.tsx";
import type { ShellHandle } from "../components/shell/handle.ts";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { Spinner } from "../components/spinner.tsx";
import { fetchTemplate, reasonOf, templateKeys } from "../components/templates/template-requests.ts";
import { ApiError } from "../lib/api-client.ts";
import { useAuth } from "../lib/auth.tsx";
import { useApiQuery } from "../lib/query.ts";
import { templateFound } from "../lib/templates.server.ts";
import accountStyles from "../styles/account.css?url";
import templateStyles from "../styles/templates.css?url";

export const handle: { shell: ShellHandle } = { shell: { footer: false } };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: templateStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.missing ? "Page Not Found" : "Template editor | Pinboard Studio" }];

/** A template that does not exist (or is not the user's to see) answers the not-found view with 404, as every missing page does. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const found = await templateFound(request, context, params.templateId ?? "");
  return found === false ? data({ missing: true }, { status: 404 }) : { missing: false };
}

/** /template-builder/:templateId: the template editor, no footer (spec section 2). */
export default function TemplateBuilderPage() {
  const { user } = useAuth();
  const { templateId = "" } = useParams();
  const { missing } = useLoaderData<typeof loader>();
  if (user && missing) return <NotFound />;
  if (!user) {
    return (
      <main className="page page--narrow templates-page">
        <h1>Template editor</h1>
        <LoginPrompt action="browse and design templates" />
      </main>
    );
  }
  return <EditorLoader key={templateId} templateId={templateId} user={user} />;
}

type Loaded = { status: "loading" } | { status: "ready"; template: Template } | { status: "missing" } | { status: "failed"; reason: string };

/** The template, read under templateKeys.one: the editor keeps what it saves there, so a later visit starts from it. */
function EditorLoader({ templateId, user }: { templateId: string; user: UserCredentials }) {
  const read = useApiQuery<Template>(templateKeys.one(templateId), () => fetchTemplate(templateId));
  const { error } = read;
  const loaded: Loaded = read.data
    ? { status: "ready", template: read.data }
    : !error || read.isFetching
      ? { status: "loading" }
      : error instanceof ApiError && error.status === 404
        ? { status: "missing" }
        : { status: "failed", reason: reasonOf(error) };

  switch (loaded.status) {
    case "ready":
      return <TemplateEditor template={loaded.template} user={user} />;
    case "loading":
      return (
        <main className="page editor-page-state">
          <div className="loading">
            <Spinner size="large" label="Loading the template" />
            <span aria-hidden="true">Loading the template…</span>
          </div>
        </main>
      );
    case "missing":
      // Deleted since the page was loaded.
      return <NotFound />;
    case "failed":
      return (
        <main className="page page--narrow editor-page-state">
          <h1>Unable to load the template</h1>
          <p className="notice notice--error" role="alert">
            {loaded.reason}
          </p>
          <button type="button" className="button button--primary" onClick={() => void read.refetch()}>
            Try again
          </button>
        </main>
      );
  }
}
