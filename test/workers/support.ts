import { env, type D1Migration } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import type { Env } from "../../workers/env.ts";

/** The worker's bindings and those the tests add (vitest.config.ts; SEED_TEST_DB: a D1 of the seed's test alone). */
export const testEnv = env as unknown as Env & { SANDBOX_URL: string; TEST_MIGRATIONS: D1Migration[]; SEED_TEST_DB: D1Database };

/** A request to the worker under test, through its real fetch handler. */
export function app(path: string, init?: RequestInit): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(new URL(path, "http://app.test"), init));
}

/** Calls the sandbox's control API (/__sandbox/...). */
export async function sandbox<T = unknown>(path: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const { json, ...rest } = init ?? {};
  const response = await fetch(`${testEnv.SANDBOX_URL}/__sandbox${path}`, {
    ...rest,
    headers: json === undefined ? rest.headers : { "content-type": "application/json", ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A response's JSON body, loosely typed for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: loosely typed on purpose, for assertions on any API answer.
export function read(response: Response): Promise<any> {
  return response.json();
}

/** The cookies a response sets, as a Cookie header to send back (what a browser would keep). */
export function cookiesSetBy(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
