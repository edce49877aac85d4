import { Link } from "@remix-run/react";

/** The not-found view: /404, every unmatched path, and content that fails to load. */
export function NotFound() {
  return (
    <main className="page page--narrow not-found">
      <h1>Page Not Found</h1>
      <p>Sorry, the page you tried cannot be found.</p>
      <p>
        <Link className="button button--primary" to="/">
          Back to the home page
        </Link>
      </p>
    </main>
  );
}
