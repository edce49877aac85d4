// The workerd share of `npm run bench:fuzz` (decision 078): scraped HTML (HTMLRewriter exists only in workerd) and
// font uploads (their check is measured against workerd's zlib, not Node's). bench/fuzz-workerd.ts starts this
// Worker (bundled by wrangler as the app is, bench/wrangler.fuzz-workerd.toml) in one workerd and posts it the
// campaign's mutated files one by one, to /html or /font; it runs the production code on each and answers the
// outcome, or the error that escaped it.
import type { Outcome } from "../test/fuzz/campaign.ts";
import { readFontUpload } from "../test/fuzz/font-target.ts";
import { readScrapedHtml } from "../test/fuzz/html-reader.workerd.ts";

const READERS: Record<string, (bytes: Uint8Array) => Promise<Outcome>> = { "/html": readScrapedHtml, "/font": readFontUpload };

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/collect-garbage") {
      // V8's collector, exposed by bench/fuzz-workerd.ts's flags (the inspector's collectGarbage never answers).
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      return new Response(null, { status: gc ? 204 : 501 });
    }
    const read = READERS[pathname];
    if (!read) return new Response("no such reader", { status: 404 });
    const bytes = new Uint8Array(await request.arrayBuffer());
    try {
      return Response.json({ outcome: await read(bytes) });
    } catch (error) {
      const trap = error instanceof WebAssembly.RuntimeError;
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return Response.json({ error: { trap, message: message.slice(0, 300) } });
    }
  },
};
