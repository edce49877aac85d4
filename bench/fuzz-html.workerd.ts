// The scraped-HTML share of `npm run bench:fuzz` (decision 078): HTMLRewriter exists only in workerd, so
// bench/fuzz-html.ts starts this Worker (bundled by wrangler as the app is, bench/wrangler.fuzz-html.toml) in
// one workerd and posts it the campaign's mutated pages one by one; it runs the production reader on each and
// answers the outcome, or the error that escaped it.
import { readScrapedHtml } from "../test/fuzz/html-reader.workerd.ts";

export default {
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === "/collect-garbage") {
      // V8's collector, exposed by bench/fuzz-html.ts's flags (the inspector's collectGarbage never answers).
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      return new Response(null, { status: gc ? 204 : 501 });
    }
    const bytes = new Uint8Array(await request.arrayBuffer());
    try {
      return Response.json({ outcome: await readScrapedHtml(bytes) });
    } catch (error) {
      const trap = error instanceof WebAssembly.RuntimeError;
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return Response.json({ error: { trap, message: message.slice(0, 300) } });
    }
  },
};
