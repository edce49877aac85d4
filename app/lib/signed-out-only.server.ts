import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { currentUser } from "./session.server.ts";

/** Loader of the sign-in pages: signed-in users are sent to / before anything renders (spec sections 2 and 6). */
export async function signedOutOnly({ request, context }: LoaderFunctionArgs) {
  if (await currentUser(request, context)) throw redirect("/");
  return null;
}
