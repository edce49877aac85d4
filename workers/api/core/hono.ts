import { Hono } from "hono";
import type { Env } from "../../env.ts";
import type { Authenticated } from "../../services/accounts/accounts.ts";
import type { PinterestProfile } from "../../services/pinterest/pinterest-connection.ts";

/** Everything a route handler can read from the context. */
export interface AppBindings {
  Bindings: Env;
  Variables: {
    /** Set by requireUser: who is calling. */
    auth: Authenticated;
    /** This request's Content-Security-Policy nonce (workers/http/security-headers.ts). */
    cspNonce: string;
    /** Set by requireUserAndProfile: the caller's Pinterest profile named in the path, null when they have none by that name. */
    namedProfile: PinterestProfile | null;
  };
}

/** A router for one domain of the API. */
export function router() {
  return new Hono<AppBindings>();
}
