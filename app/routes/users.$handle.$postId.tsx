import type { MetaFunction } from "@remix-run/cloudflare";

export const meta: MetaFunction = ({ params }) => [{ title: `A pin by @${params.handle ?? ""} | Pinboard Studio` }];

/** /users/:handle/:postId: the profile (the parent route) and the pin; public pins come with a later feature. */
export default function PublicPin() {
  return (
    <section className="card" aria-label="Pin">
      <p>This pin is not available.</p>
    </section>
  );
}
