import { Hono } from "hono";
import type { Env } from "../env.ts";

/** Everything a route handler can read from the context. */
export interface AppBindings {
  Bindings: Env;
}

/** A router for one domain of the API. */
export function router() {
  return new Hono<AppBindings>();
}
