import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, useParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { PublicUser } from "../../contracts/user.ts";
import { Avatar } from "../components/auth/avatar.tsx";
import { FormAlert } from "../components/auth/form-controls.tsx";
import { problemMessage } from "../components/auth/use-account-form.ts";
import { NotFound } from "../components/not-found.tsx";
import { Spinner } from "../components/spinner.tsx";
import { apiJson, ApiError } from "../lib/api-client.ts";
import accountStyles from "../styles/account.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];
export const meta: MetaFunction = ({ params }) => [{ title: `@${params.handle ?? ""} | Pinboard Studio` }];

type Profile = { status: "loading" } | { status: "found"; user: PublicUser } | { status: "missing" } | { status: "failed"; message: string };

/** /users/:handle: a public profile with avatar and @handle (spec section 2); its pins render in the outlet. */
export default function PublicProfilePage() {
  const handle = useParams().handle ?? "";
  const [profile, setProfile] = useState<Profile>({ status: "loading" });

  useEffect(() => {
    let current = true;
    setProfile({ status: "loading" });
    apiJson<{ user: PublicUser }>(`/api/user/${encodeURIComponent(handle)}`).then(
      ({ user }) => current && setProfile({ status: "found", user }),
      (error: unknown) =>
        current && setProfile(error instanceof ApiError && error.status === 404 ? { status: "missing" } : { status: "failed", message: problemMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [handle]);

  if (profile.status === "missing") return <NotFound />;
  return (
    <main className="page page--narrow account-page">
      {profile.status === "loading" ? (
        <p className="loading" role="status">
          <Spinner size="large" />
          Loading profile...
        </p>
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
