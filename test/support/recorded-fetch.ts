import { afterEach, beforeEach, vi } from "vitest";
import type { Exchange } from "./openapi-conformance.ts";

/** Sends a request with `send` and records it, then its answer, in `into` (for a conformance check). */
export async function recordExchange(request: Request, send: (request: Request) => Promise<Response>, into: Exchange[]): Promise<Response> {
  const exchange: Exchange = {
    method: request.method,
    url: new URL(request.url),
    requestHeaders: new Headers(request.headers),
    requestBody: request.body ? await request.clone().text() : null,
  };
  into.push(exchange);
  const response = await send(request);
  exchange.status = response.status;
  exchange.responseHeaders = new Headers(response.headers);
  exchange.responseBody = await response.clone().text();
  return response;
}

/**
 * In each test, every call of the global fetch whose address `recorded` accepts is recorded (the others pass
 * through). Answers the list of the running test's exchanges, emptied before each test.
 */
export function recordGlobalFetch(recorded: (url: string) => boolean): Exchange[] {
  const exchanges: Exchange[] = [];
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    exchanges.length = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const request = new Request(input, init);
      return recorded(request.url) ? recordExchange(request, realFetch, exchanges) : realFetch(request);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return exchanges;
}
