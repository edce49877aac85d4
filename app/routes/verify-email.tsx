import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Link, useSearchParams } from "@remix-run/react";
import { EmailVerificationScreen, ResendVerificationButton } from "../components/auth/email-verification.tsx";
import { FormAlert, FormStatus } from "../components/auth/form-controls.tsx";
import { useLinkAction } from "../components/auth/use-link-action.ts";
import { LoginPrompt } from "../components/shell/login-prompt.tsx";
import { Spinner } from "../components/spinner.tsx";
import { apiJson } from "../lib/api-client.ts";
import { useAuth } from "../lib/auth.tsx";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = () => [{ title: "Verify your e-mail | Pinboard Studio" }];

/**
 * /verify-email?uid&token: the link of the verification e-mail, verified on load.
 * Without them: the verification screen for a signed-in user who still has to.
 */
export default function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const uid = searchParams.get("uid");
  const token = searchParams.get("token");
  return <main className="page page--narrow account-page">{uid && token ? <VerifyFromLink uid={uid} token={token} /> : <VerificationStatus />}</main>;
}

function VerifyFromLink({ uid, token }: { uid: string; token: string }) {
  const { user, reloadUser } = useAuth();
  const result = useLinkAction(async () => {
    const answer = await apiJson<{ message: string }>("/api/user/verifyUserEmail", { json: { uid, token } });
    reloadUser();
    return answer.message;
  });

  return (
    <section className="card" aria-labelledby="verify-title">
      <h1 id="verify-title">E-mail verification</h1>
      {result.status === "pending" ? (
        <p role="status">
          <Spinner /> Verifying your e-mail address...
        </p>
      ) : result.status === "done" ? (
        <>
          <FormStatus>{result.value}</FormStatus>
          <p>Thanks! Your account is ready to go.</p>
          <p>
            {user ? (
              <Link className="button button--primary" to="/onboarding">
                Continue with your onboarding checklist
              </Link>
            ) : (
              <Link className="button button--primary" to="/login">
                Log in
              </Link>
            )}
          </p>
        </>
      ) : result.status === "failed" ? (
        <>
          <FormAlert>
            Unable to verify email
            <span className="notice__detail">{result.message}</span>
          </FormAlert>
          {!user ? (
            <p>
              <Link to="/login">Log in</Link> to ask for a new verification link.
            </p>
          ) : !user.isEmailVerified ? (
            <>
              <p>Ask for a new link and open it within 48 hours.</p>
              <ResendVerificationButton />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function VerificationStatus() {
  const { user } = useAuth();
  if (!user) return <LoginPrompt action="verify your email" />;
  if (!user.isEmailVerified) return <EmailVerificationScreen email={user.email} />;
  return (
    <section className="card" aria-labelledby="verified-title">
      <h1 id="verified-title">Your e-mail address is verified</h1>
      <p>
        <strong>{user.email}</strong> is verified: there is nothing more to do here.
      </p>
      <p>
        <Link to="/onboarding">Back to your onboarding checklist</Link>
      </p>
    </section>
  );
}
