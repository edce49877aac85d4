/** What the sandbox remembers between requests; `POST /__sandbox/reset` forgets it all. */

export interface RecordedRequest {
  service: string;
  method: string;
  /** Path below the service's prefix, e.g. "/v5/pins" for /pinterest/v5/pins. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  at: string;
}

export interface Fault {
  service: string;
  method?: string;
  path?: string;
  status?: number;
  delayMs?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many more matching requests it applies to. */
  remaining: number;
}

export interface SentEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** reply_to addresses, if any. */
  replyTo: string[];
  /** Extra headers sent with it (Resend's `headers`: List-Unsubscribe ...). */
  headers: Record<string, string>;
  links: string[];
  at: string;
}

export interface SandboxState {
  requests: RecordedRequest[];
  faults: Fault[];
  outbox: SentEmail[];
  /** Per-provider state that provider stand-ins keep (tokens, pins, customers ...). */
  providers: Map<string, unknown>;
}

export function createState(): SandboxState {
  return { requests: [], faults: [], outbox: [], providers: new Map() };
}

export function resetState(state: SandboxState) {
  state.requests.length = 0;
  state.faults.length = 0;
  state.outbox.length = 0;
  state.providers.clear();
}

/** Forgets what some stand-ins recorded and kept (their requests, faults, state; the outbox for "email"). */
export function resetServices(state: SandboxState, services: string[]) {
  const named = new Set(services);
  const keep = <T extends { service: string }>(items: T[]) => {
    const kept = items.filter((item) => !named.has(item.service));
    items.length = 0;
    items.push(...kept);
  };
  keep(state.requests);
  keep(state.faults);
  if (named.has("email")) state.outbox.length = 0;
  for (const service of named) state.providers.delete(service);
}

/** A provider's own state, created on first use and dropped by a reset. */
export function providerState<T>(state: SandboxState, provider: string, create: () => T): T {
  let value = state.providers.get(provider) as T | undefined;
  if (value === undefined) {
    value = create();
    state.providers.set(provider, value);
  }
  return value;
}

// "token" but not "tokens": max_tokens and the like are counts, not secrets.
const SECRET_NAME = /pass(word)?|secret|token(?!s)|api[-_]?key|authorization|code_verifier|client_secret|signature|cookie/i;

/** Replaces secret-looking values with a mask that keeps only their last 4 characters. */
export function maskSecrets(value: unknown, key = ""): unknown {
  if (SECRET_NAME.test(key) && (typeof value === "string" || typeof value === "number")) return mask(String(value));
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskSecrets(v, k)]));
  }
  return value;
}

function mask(secret: string) {
  return secret.length <= 4 ? "****" : `****${secret.slice(-4)}`;
}

/** The first fault matching a request, counted down; exhausted faults are removed. */
export function takeFault(state: SandboxState, service: string, method: string, path: string): Fault | undefined {
  const index = state.faults.findIndex(
    (fault) =>
      fault.service === service && (!fault.method || fault.method.toUpperCase() === method.toUpperCase()) && (!fault.path || pathMatches(fault.path, path)),
  );
  if (index < 0) return undefined;
  const fault = state.faults[index];
  fault.remaining -= 1;
  if (fault.remaining <= 0) state.faults.splice(index, 1);
  return fault;
}

/** Exact match, or a prefix match when the pattern ends with `*`. */
function pathMatches(pattern: string, path: string) {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}
