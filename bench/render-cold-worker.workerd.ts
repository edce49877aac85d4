// The cold first render (render-cold-run.workerd.ts) as a Worker, bundled by wrangler as it bundles the app
// for deployment (bench/wrangler.cold.toml): its modules (code, WebAssembly, the fonts' data modules) are
// loaded by workerd itself, as at the edge. bench/render-workerd.ts starts it in a fresh workerd per run.
// It holds the whole app (workers/app.ts and the Remix server build), so that its isolate starts as one of
// the app's does, evaluating all of the app's modules before the first request (decision 074).
import * as theApp from "../workers/app.ts";
import { coldRun, type ColdEnv } from "./render-cold-run.workerd.ts";

export default {
  async fetch(_request: Request, env: ColdEnv): Promise<Response> {
    if (typeof theApp.default.fetch !== "function") throw new Error("the app's modules did not load");
    await coldRun(env);
    return new Response("ok");
  },
};
