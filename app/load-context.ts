import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Env } from "../workers/env.ts";

/** What every Remix loader and action receives: the worker's bindings and execution context. */
declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    cloudflare: {
      env: Env;
      ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
    };
    /** The nonce the page's inline scripts carry (the worker sends it in the Content-Security-Policy). */
    cspNonce?: string;
  }
}

/** One load context for the worker (workers/app.ts) and the Vite dev proxy. */
export function getLoadContext({
  context,
}: {
  request: Request;
  context: { cloudflare: { env: unknown; ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException"> }; cspNonce?: string };
}): AppLoadContext {
  return { cloudflare: { env: context.cloudflare.env as Env, ctx: context.cloudflare.ctx }, cspNonce: context.cspNonce };
}
