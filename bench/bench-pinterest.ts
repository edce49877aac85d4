// Connecting a sandbox Pinterest account to a benchmark's user, the way a browser does (shared by the benchmarks).
import type { BenchStack } from "./bench-session.ts";

export interface BenchBoard {
  id: string;
  name: string;
}

/**
 * Connects the sandbox Pinterest account `username` (auto-approved consent) to the user of `token`,
 * carrying the cookie the state check sets to the callback, and answers its first board.
 */
export async function connectBenchProfile(stack: BenchStack, token: string, username: string): Promise<BenchBoard> {
  const started = await fetch(`${stack.appUrl}/api/pinterestAPI/recordPinterestStateCheck`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.7", authorization: `Bearer ${token}` },
    body: JSON.stringify({ stateCheck: `bench-${crypto.randomUUID()}`, redirectUrl: "/scheduling" }),
  });
  if (!started.ok) throw new Error(`state check answered ${started.status}: ${await started.text()}`);
  const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
  const cookie = started.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const consent = await fetch(`${authorizeUrl}&auto_approve=1&username=${username}`, { redirect: "manual" });
  const back = new URL(consent.headers.get("location")!);
  const done = await fetch(`${stack.appUrl}${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie } });
  if (!done.headers.get("location")?.includes("pinterestConnected=")) throw new Error(`connecting ${username} failed: ${done.headers.get("location")}`);
  const accounts = (await (await fetch(`${stack.sandboxUrl}/__sandbox/pinterest/accounts`)).json()) as { username: string; boards: BenchBoard[] }[];
  const board = accounts.find((account) => account.username === username)?.boards[0];
  if (!board) throw new Error(`the sandbox has no board for ${username}`);
  return board;
}

/** Settings that keep a queue from posting during a benchmark: 20 pins a day in a window that opens hours from now (GMT). */
export function quietSchedulingSettings(now = Date.now()) {
  const windowStart = Math.floor(((Math.floor((now % 86_400_000) / 1000) + 7_200) % 86_400) / 60) * 60;
  return { numberOfPinsPerDay: 20, postingIntervalInSeconds: 600, windowOneTimes: [windowStart, (windowStart + 10_800) % 86_400], windowTwoTimes: null };
}
