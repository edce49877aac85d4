// One timed HTTP request on a kept-alive connection, for the benchmarks that time API calls one at a time.
// node:http rather than fetch: Node's fetch adds about 1 ms of its own to every request and more for a larger
// body, which is the client's time, not the server's. The body is read to its last byte, not parsed.
import http, { type IncomingHttpHeaders } from "node:http";

const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

export interface Timed {
  /** From sending the request to the last byte of the answer, in milliseconds (microsecond resolution). */
  ms: number;
  status: number;
  headers: IncomingHttpHeaders;
  bytes: number;
}

export function timedHttp(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, { agent: keptAlive, method: init.method ?? "GET", headers: init.headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve({ ms: performance.now() - started, status: response.statusCode ?? 0, headers: response.headers, bytes }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(init.body);
  });
}

/** Closes the kept-alive connection (at the end of a benchmark, so the process can exit). */
export function closeTimedHttp() {
  keptAlive.destroy();
}
