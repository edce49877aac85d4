// Signing a benchmark's user up and in against a stack started by scripts/stack.ts (shared by the benchmarks).
import type { Browser, Page } from "playwright-core";

export const BENCH_PASSWORD = "Violet-Harbour-42!";

export interface BenchStack {
  appUrl: string;
  sandboxUrl: string;
}

/** A JSON call to the app (POST when there is a body), failing loudly. */
export async function benchCall<T>(stack: BenchStack, path: string, token: string | null, body?: unknown): Promise<T> {
  const response = await fetch(stack.appUrl + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.7", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A new, verified user (through the sandbox's outbox); answers the id token. */
export async function verifiedBenchUser(stack: BenchStack, email: string): Promise<string> {
  const { idToken } = await benchCall<{ idToken: string }>(stack, "/api/signup", null, {
    email,
    password: BENCH_PASSWORD,
    firstName: "Bench",
    lastName: "User",
  });
  for (let attempt = 0; attempt < 40; attempt++) {
    const mails = (await (await fetch(`${stack.sandboxUrl}/__sandbox/outbox?to=${encodeURIComponent(email)}`)).json()) as { links: string[] }[];
    const link = mails.flatMap((mail) => mail.links).find((candidate) => new URL(candidate).pathname === "/verify-email");
    if (link) {
      const query = new URL(link).searchParams;
      await benchCall(stack, "/api/user/verifyUserEmail", idToken, { uid: query.get("uid"), token: query.get("token") });
      return idToken;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("no verification e-mail");
}

/** A page signed in as `email` (session cookie and tokens, as after logging in), opened at `path` and hydrated; `initScript` runs before the app's scripts on every load. */
export async function signedInPage(
  browser: Browser,
  stack: BenchStack,
  email: string,
  path: string,
  viewport = { width: 1600, height: 2400 },
  initScript?: () => void,
): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.appUrl, viewport });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto("/");
  await page.evaluate(
    async ({ email, password }) => {
      const response = await fetch("/api/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      const tokens = (await response.json()) as { idToken: string; refreshToken: string };
      localStorage.setItem("FBIdToken", tokens.idToken);
      localStorage.setItem("FBRefreshToken", tokens.refreshToken);
    },
    { email, password: BENCH_PASSWORD },
  );
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  return page;
}
