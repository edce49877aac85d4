import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, useParams, useRouteLoaderData } from "@remix-run/react";
import type { PublicUser } from "../../contracts/accounts/user.ts";
import { Avatar } from "../components/auth/avatar.tsx";
import { FormAlert } from "../components/auth/form-controls.tsx";
import { problemMessage } from "../components/auth/use-account-form.ts";
import { NotFound } from "../components/not-found.tsx";
import { Spinner } from "../components/spinner.tsx";
import { apiJson, ApiError } from "../lib/api-client.ts";
import { failureOf, useApiQuery } from "../lib/query.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = ({ params }) => [{ title: `@${params.handle ?? ""} | Pinboard Studio` }];

/** /users/:handle: a public profile with avatar and @handle (spec section 2); its public pin renders in the outlet (decision 055). */
export default function PublicProfilePage() {
  const handle = useParams().handle ?? "";
  const read = useApiQuery(["public-profile", handle], () => apiJson<{ user: PublicUser }>(`/api/user/${encodeURIComponent(handle)}`), {
    public: true,
  });
  const failure = failureOf(read);
  const profile = read.data
    ? { status: "found" as const, user: read.data.user }
    : failure instanceof ApiError && failure.status === 404
      ? { status: "missing" as const }
      : failure
        ? { status: "failed" as const, message: problemMessage(failure) }
        : { status: "loading" as const };
  // A pin that is not public (its loader answered 404) is the not-found view, as a missing profile is.
  const pin = useRouteLoaderData<{ found: boolean }>("routes/users.$handle.$postId");

  if (profile.status === "missing" || pin?.found === false) return <NotFound />;
  return (
    <main className="page page--narrow account-page">
      {profile.status === "loading" ? (
        <>
          <p className="loading" role="status">
            <Spinner size="large" />
            Loading profile...
          </p>
          {/* A public pin is on the server's page: it does not wait for the profile. */}
          <Outlet />
        </>
      ) : profile.status === "failed" ? (
        <FormAlert>{profile.message}</FormAlert>
      ) : (
        <>
          <section className="card public-profile" aria-labelledby="public-profile-name">
            <Avatar imageUrl={profile.user.imageUrl} firstName={profile.user.firstName} lastName={profile.user.lastName} size={120} alt="" />
            <div>
              <h1 id="public-profile-name">
                {profile.user.firstName} {profile.user.lastName}
              </h1>
              <p className="public-profile__handle">@{profile.user.handle}</p>
              <p className="muted">Member since {memberSince(profile.user.createdAt)}</p>
            </div>
          </section>
          <Outlet />
        </>
      )}
    </main>
  );
}

function memberSince(createdAt: string) {
  return new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(createdAt));
}
