// One fresh workerd process holding two Workers (two isolates), for the
// benchmarks that ask whether a cost is paid per isolate or per runtime
// process (bench:icu, bench:fresh-memory): each Worker times its own work.
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const worker = (name: string, work: string) => ({
  name,
  modules: true,
  compatibilityDate: "2026-10-01",
  script: `export default { fetch() { const started = performance.now(); ${work}; return new Response(String(performance.now() - started)); } }`,
});

/** In one fresh workerd process: the first isolate's work, then the second's (ms each). */
export async function inOneProcess(first: string, second: string): Promise<[number, number]> {
  const mf = new Miniflare(convertV4MiniflareOptions({ workers: [worker("first", first), worker("second", second)] }));
  try {
    const time = async (name: string) => Number(await (await (await mf.getWorker(name)).fetch("http://bench.invalid/")).text());
    const a = await time("first");
    return [a, await time("second")];
  } finally {
    await mf.dispose();
  }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
