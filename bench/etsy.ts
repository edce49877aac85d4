// `npm run bench:etsy`: a page of an Etsy shop's listings through the app and the Etsy stand-in,
// against a stack started the way `npm start` starts it (free ports, fresh local state). Connects
// a sandbox Etsy shop the way a browser does (the start's cookie carried to the callback), then
// prints GET /api/etsyAPI/getEtsyShopListings times: the first page (the shop's sections not yet
// known), p50/p95 over the three pages, and a keyword search; and the first picture of the page in
// its small size (what a product card shows). Target (issue 14): a page of 50 on screen within 1 s.
// Figures only: nothing here asserts a time. Set BENCH_SKIP_BUILD=1 when build-bench/ is fresh.
import { rmSync } from "node:fs";
import { startBenchStack } from "../scripts/stack.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const { stack, stateDir } = await startBenchStack("etsy");
const app = stack.appUrl;
const headers = (token?: string) => ({
  "content-type": "application/json",
  "cf-connecting-ip": "198.51.100.14",
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

async function timed(url: string, token?: string): Promise<{ ms: number; body: { count: number; listings: { images: { small: string }[] }[] } }> {
  const started = performance.now();
  const response = await fetch(url, { headers: headers(token) });
  const body = await response.json();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

try {
  const signup = await fetch(`${app}/api/signup`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ email: `bench.etsy.${Date.now()}@example.com`, password: "Violet-Harbour-42!", firstName: "Bench", lastName: "Etsy" }),
  });
  const { idToken } = (await signup.json()) as { idToken: string };

  const started = await fetch(`${app}/api/etsyAPI/connectEtsyShop`, { method: "POST", headers: headers(idToken), body: "{}" });
  const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
  const cookie = started.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const consent = await fetch(`${authorizeUrl}&auto_approve=1&shop_name=BenchClayStudio`, { redirect: "manual" });
  const back = new URL(consent.headers.get("location")!);
  const done = await fetch(`${app}${back.pathname}${back.search}`, { redirect: "manual", headers: { cookie } });
  if (!done.headers.get("location")?.includes("etsyConnected=")) throw new Error(`connecting failed: ${done.headers.get("location")}`);
  const { authorizedShops } = (await (await fetch(`${app}/api/shops`, { headers: headers(idToken) })).json()) as { authorizedShops: { id: string }[] };
  const shopID = authorizedShops[0]!.id;
  const page = (n: number, search = "") =>
    `${app}/api/etsyAPI/getEtsyShopListings?${new URLSearchParams({ shopID, pageNumber: String(n), searchInput: search })}`;

  const first = await timed(page(1), idToken);
  const pictureStart = performance.now();
  await (await fetch(first.body.listings[0]!.images[0]!.small)).arrayBuffer();
  const picture = performance.now() - pictureStart;
  const pages: number[] = [];
  const searches: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    pages.push((await timed(page((round % 3) + 1), idToken)).ms);
    searches.push((await timed(page(1, round % 2 ? "sea salt candle" : "mug"), idToken)).ms);
  }
  console.log(`Etsy listings through the app and the Etsy stand-in (${first.body.count} active listings, ${first.body.listings.length} on page 1)\n`);
  console.log(`first page (sections, listings, pictures: 3 Etsy calls)   ${first.ms.toFixed(0)} ms`);
  console.log(
    `a page, ${ROUNDS} rounds (2 Etsy calls)                        p50 ${percentile(pages, 50).toFixed(0)} ms   p95 ${percentile(pages, 95).toFixed(0)} ms`,
  );
  console.log(
    `a keyword search, ${ROUNDS} rounds                             p50 ${percentile(searches, 50).toFixed(0)} ms   p95 ${percentile(searches, 95).toFixed(0)} ms`,
  );
  console.log(`the page's first picture, small size (drawn on first ask)     ${picture.toFixed(0)} ms`);
  const [account] = (await (await fetch(`${stack.sandboxUrl}/__sandbox/etsy/accounts?shop_name=BenchClayStudio`)).json()) as {
    calls_today: number;
    refused: number;
  }[];
  console.log(`Etsy calls ${account!.calls_today}, refused by Etsy's 10-a-second budget ${account!.refused} (pages faster than that wait for the next second)`);
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
