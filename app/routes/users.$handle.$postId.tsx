import { data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { publicPinPath } from "../../contracts/pinterest/public-pins.ts";
import { publicPin } from "../../workers/services/pinterest/public-pins.ts";
import { canonicalUrl, seoMeta, SITE_NAME } from "../lib/seo.ts";

/**
 * /users/:handle/:postId: a pin its owner made public (decision 055), on the
 * server with Open Graph and Twitter tags (the pin image as og:image); the
 * owner's profile is the parent route. A private, unknown or another user's
 * pin is the not-found view with status 404 (the parent shows it).
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const env = context.cloudflare.env;
  const pin = await publicPin(env, params.handle ?? "", params.postId ?? "");
  if (!pin) return data({ found: false as const }, { status: 404 });
  // An old handle's address leads to the handle now (issue 40 point 9).
  if (pin.handle !== params.handle) throw redirect(publicPinPath(pin.handle, pin.id), 301);
  return data(
    { found: true as const, pin, canonical: canonicalUrl(env.APP_URL, publicPinPath(pin.handle, pin.id)) },
    { headers: { "cache-control": "private, no-store" } },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, params }) => {
  if (!loaded?.found) return [{ title: `Page Not Found | ${SITE_NAME}` }];
  const { pin } = loaded;
  const title = `${pin.title || `A pin by @${params.handle ?? pin.handle}`} | ${SITE_NAME}`;
  return seoMeta({
    title,
    description: pin.description || `A pin by @${pin.handle} on ${SITE_NAME}.`,
    url: loaded.canonical,
    type: "article",
    image: pin.imageUrl,
    imageAlt: pin.title || `A pin by @${pin.handle}`,
  });
};

export default function PublicPinPage() {
  const loaded = useLoaderData<typeof loader>();
  // The parent route shows the not-found view when the pin is not public.
  if (!loaded.found) return null;
  const { pin } = loaded;
  return (
    <article className="card public-pin" aria-labelledby="public-pin-title">
      <img className="public-pin__image" src={pin.imageUrl} alt={pin.title || `A pin by @${pin.handle}`} width={500} height={750} />
      <div className="public-pin__text">
        <h2 id="public-pin-title">{pin.title || "Untitled pin"}</h2>
        {pin.description ? <p className="public-pin__description">{pin.description}</p> : null}
        {pin.url ? (
          <p>
            <a className="button button--primary" href={pin.url} rel="nofollow noopener noreferrer">
              Visit the page
            </a>
          </p>
        ) : null}
      </div>
    </article>
  );
}
