import { data, type MetaFunction } from "@remix-run/cloudflare";
import { NotFound } from "../components/not-found.tsx";

export const meta: MetaFunction = () => [{ title: "Page Not Found" }];

// Every path no other route matches (and /404 itself) answers the not-found view with status 404.
export function loader() {
  return data(null, { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}
