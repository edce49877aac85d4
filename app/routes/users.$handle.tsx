import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Link, Navigate, Outlet, useParams, useRouteLoaderData } from "@remix-run/react";
import type { PublicUser } from "../../contracts/accounts/user.ts";
import { type PublicPin, publicPinPath } from "../../contracts/pinterest/public-pins.ts";
import { useAuth } from "../lib/auth.tsx";
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

/**
 * /users/:handle: a public profile with avatar and @handle (spec section 2) and the pins its owner made public,
 * each linking to its page (issue 40 point 9); a public pin renders in the outlet (decision 055). An old handle's
 * address moves to the handle now.
 */
export default function PublicProfilePage() {
  const { handle = "", postId } = useParams();
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
  if (profile.status === "found" && profile.user.handle !== handle) {
    return <Navigate to={postId ? publicPinPath(profile.user.handle, postId) : `/users/${encodeURIComponent(profile.user.handle)}`} replace />;
  }
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
          {postId ? null : <PublicPins handle={profile.user.handle} firstName={profile.user.firstName} />}
        </>
      )}
    </main>
  );
}

/** The pins the profile's owner made public, newest first, each a link to its page; or an empty state. */
function PublicPins({ handle, firstName }: { handle: string; firstName: string }) {
  const { user } = useAuth();
  const read = useApiQuery(["public-profile", handle, "pins"], () => apiJson<{ pins: PublicPin[] }>(`/api/user/${encodeURIComponent(handle)}/pins`), {
    public: true,
  });
  const failure = failureOf(read);
  const own = user?.handle === handle;
  return (
    <section className="public-pins" aria-labelledby="public-pins-title" aria-busy={read.isPending && !failure}>
      <h2 id="public-pins-title">{own ? "Your public pins" : `Pins by ${firstName}`}</h2>
      {failure ? (
        <FormAlert>{problemMessage(failure)}</FormAlert>
      ) : !read.data ? (
        <p className="loading" role="status">
          <Spinner />
          Loading pins...
        </p>
      ) : read.data.pins.length === 0 ? (
        <p className="public-pins__empty muted">
          {own ? (
            <>
              No public pins yet. Make a pin public from your <Link to="/pin-history">pin history</Link> and it shows here.
            </>
          ) : (
            `@${handle} has no public pins yet.`
          )}
        </p>
      ) : (
        <ul className="public-pins__grid">
          {read.data.pins.map((pin) => (
            <li key={pin.id}>
              <Link className="public-pins__pin" to={publicPinPath(pin.handle, pin.id)}>
                <img src={pin.imageUrl} alt="" width={200} height={300} loading="lazy" decoding="async" />
                <span className="public-pins__title">{pin.title || "Untitled pin"}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function memberSince(createdAt: string) {
  return new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(createdAt));
}
