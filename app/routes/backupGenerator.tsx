import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BackupGeneratorPage } from "../components/backup-generator/backup-generator-page.tsx";
import { backupAction, backupLoader } from "../components/backup-generator/backup-generator.server.ts";
import backupStyles from "../components/backup-generator/backup-generator.css?url";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: backupStyles },
];
export const meta: MetaFunction = () => [{ title: "Basic pin generator | Pinboard Studio" }];

/**
 * /backupGenerator (issue 20, decision 055): the generator for browsers where
 * /generate's live previews cannot run. Whole on the server: plain forms that
 * work without JavaScript (generate, download, schedule).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const loaded = await backupLoader(request, context);
  return data(loaded, { status: loaded.status, headers: { "cache-control": "private, no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const answer = await backupAction(request, context);
  if ("redirectTo" in answer) return redirect(answer.redirectTo, 303);
  return data(answer, { status: answer.status });
}

export default function BackupGenerator() {
  return <BackupGeneratorPage loaded={useLoaderData<typeof loader>()} answer={useActionData<typeof action>()} />;
}
