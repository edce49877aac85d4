import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Env } from "./env.ts";
import type * as BackupGenerator from "./services/content/backup-generator.ts";

/**
 * Worker services a page may use that the Remix server bundle cannot carry
 * (the renderer's WebAssembly): the worker hands them over with each request
 * (workers/router.ts). Absent under `remix vite:dev`.
 */
export interface WorkerServices {
  backupGenerator: typeof BackupGenerator;
}

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
    services?: WorkerServices;
  }
}

/** The load context the worker (workers/router.ts) hands every Remix loader and action. */
export function getLoadContext({
  context,
}: {
  request: Request;
  context: { cloudflare: { env: unknown; ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException"> }; cspNonce?: string; services?: WorkerServices };
}): AppLoadContext {
  return { cloudflare: { env: context.cloudflare.env as Env, ctx: context.cloudflare.ctx }, cspNonce: context.cspNonce, services: context.services };
}
