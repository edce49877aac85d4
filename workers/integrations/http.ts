/** A provider answered with an error status, or could not be reached. */
export class ProviderError extends Error {
  readonly provider: string;
  /** The provider's HTTP status; null when it could not be reached or timed out. */
  readonly status: number | null;
  readonly body: string;

  constructor(provider: string, message: string, status: number | null, body = "") {
    super(message);
    this.name = "ProviderError";
    this.provider = provider;
    this.status = status;
    this.body = body;
  }

  /** Worth trying again later: unreachable, timed out, rate-limited or a server error. */
  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

/** What a request can be sent through instead of the network: a Durable Object stub or a service binding. */
export interface FetchTarget {
  fetch(url: string, init?: RequestInit): Promise<Response>;
}

/**
 * fetch with a time limit, turning network failures and error statuses into
 * ProviderError so callers decide retries on one shape. `via` sends the request
 * through a binding (a Durable Object stub, say) instead of the network.
 */
export async function providerFetch(provider: string, url: string, init: RequestInit & { timeoutMs?: number; via?: FetchTarget } = {}): Promise<Response> {
  const { timeoutMs = 10_000, via, ...rest } = init;
  try {
    new Headers(rest.headers);
  } catch {
    // A header value (a token the user gave, say) with characters no HTTP header may hold: our request is at fault.
    throw new ProviderError(provider, `A value sent to ${provider} contains characters that are not allowed.`, 400);
  }
  let response: Response;
  try {
    const request = { ...rest, signal: AbortSignal.timeout(timeoutMs) };
    response = await (via ? via.fetch(url, request) : fetch(url, request));
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? `timed out after ${timeoutMs} ms` : String(error);
    throw new ProviderError(provider, `${provider} could not be reached: ${reason}`, null);
  }
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    throw new ProviderError(provider, `${provider} answered ${response.status}: ${body.slice(0, 300)}`, response.status, body);
  }
  return response;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfter(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = secondsHeader(value);
  if (seconds !== null) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** A header holding a count or a number of seconds ("3", "0.5"); null otherwise. */
export function secondsHeader(value: string | null): number | null {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return null;
  return Number(value);
}
