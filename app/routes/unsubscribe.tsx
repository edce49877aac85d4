import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { FormAlert, FormStatus } from "../components/auth/form-controls.tsx";
import { useLinkAction } from "../components/auth/use-link-action.ts";
import { Spinner } from "../components/spinner.tsx";
import { apiJson } from "../lib/api-client.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Unsubscribe | Pinboard Studio" }];

/** /unsubscribe?token: the newsletter's, the trend alert digests' and the weekly summary's unsubscribe link, applied on load. */
export default function UnsubscribePage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const result = useLinkAction(
    token
      ? async () => await apiJson<{ message: string; kind: "newsletter" | "trendAlerts" | "weeklySummary" }>("/api/user/unsubscribe", { json: { token } })
      : null,
  );

  return (
    <main className="page page--narrow account-page">
      <section className="card" aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">Unsubscribe</h1>
        {result.status === "idle" ? (
          <FormAlert>This unsubscribe link is incomplete. Please open the link from the e-mail again.</FormAlert>
        ) : result.status === "pending" ? (
          <p role="status">
            <Spinner /> Unsubscribing...
          </p>
        ) : result.status === "done" ? (
          <>
            <FormStatus>{result.value.message}</FormStatus>
            {result.value.kind === "trendAlerts" ? (
              <>
                <p>Your trend alerts are paused, so they will not e-mail you any more. Changed your mind? Resume an alert to get its e-mails again.</p>
                <p>
                  <Link to="/pinterest-trend-alerts">Go to my trend alerts</Link>
                </p>
              </>
            ) : result.value.kind === "weeklySummary" ? (
              <>
                <p>You will not receive the weekly summary of your pin analytics any more. Changed your mind? Turn it on again on the Analytics page.</p>
                <p>
                  <Link to="/analytics">Go to Analytics</Link>
                </p>
              </>
            ) : (
              <>
                <p>You will not receive our newsletter any more. Changed your mind? You can subscribe again at any time.</p>
                <p>
                  <Link to="/email-signup">Subscribe again</Link>
                </p>
              </>
            )}
          </>
        ) : (
          <FormAlert>{result.message}</FormAlert>
        )}
      </section>
    </main>
  );
}
