import type { AppLoadContext } from "@remix-run/cloudflare";
import { ServiceError } from "../../workers/services/core/errors.ts";
import { getTemplate } from "../../workers/services/content/templates.ts";
import { signedInAccount } from "./session.server.ts";

/**
 * Whether the template of /template-builder/:templateId is there for the
 * signed-in user (theirs, standard or shared): false answers the page with the
 * not-found view and status 404. Null when signed out (the page asks to log in).
 */
export async function templateFound(request: Request, context: AppLoadContext, templateId: string): Promise<boolean | null> {
  const user = await signedInAccount(request, context);
  if (!user) return null;
  try {
    await getTemplate(context.cloudflare.env, user, templateId);
    return true;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return false;
    throw error;
  }
}
