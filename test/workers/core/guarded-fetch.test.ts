import { beforeAll, describe, expect, it } from "vitest";
import * as v from "valibot";
import { TemplateDesign } from "../../../contracts/content/template.ts";
import { listProducts, readStoreIndex, type WooCommerceError } from "../../../workers/integrations/woocommerce.ts";
import { pictureSourceFor } from "../../../workers/services/content/pin-images.ts";
import { bearer, json, signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";
import { connectWooCommerceStore, holdWooCommerceCallbacks, newStore, storeUrl } from "../shops/woocommerce-support.ts";

// Issue 37, defect 3 (decision 076): every address that comes from a user or a user's content goes through one
// guarded fetch. Each spelling of a non-public address is sent through each entry point, as typed and behind a
// public page that redirects to it, and must be refused with nothing reaching the target; the sandbox stays
// reachable by its configured origin only; keys never follow a redirect to another origin.

const run = Date.now().toString(36);
const sandboxOrigin = new URL(testEnv.SANDBOX_URL);
const port = Number(sandboxOrigin.port);
/** The sandbox's address on a port it was not configured with. */
const otherPort = port + 1;
/** Requests to the targets land under this prefix in the sandbox's log, had any been made. */
const target = `ssrf-target-${run}`;
const names = { loopback: `loopback-${run}.example`, v6: `v6-${run}.example`, mixed: `mixed-${run}.example`, public: `public-${run}.example` };

const PRIVATE_MESSAGE = "That address is on a private network; we can only fetch public web pages.";
const STORE_MESSAGE = "storeUrl must be the public https address of your store, such as https://shop.example.com";

/** [what it is, host and port as written in the URL]. Most keep the sandbox's port, so that what reaches a loopback interface would really arrive. */
const SPELLINGS: [string, string][] = [
  ["IPv4-compatible ::7f00:1", `[::7f00:1]:${port}`],
  ["6to4 2002:7f00:1:: (127.0.0.1)", `[2002:7f00:1::]:${port}`],
  ["local-use NAT64 64:ff9b:1::7f00:1", `[64:ff9b:1::7f00:1]:${port}`],
  ["local-use NAT64 64:ff9b:1:ffff::a9fe:a9fe", `[64:ff9b:1:ffff::a9fe:a9fe]`],
  ["NAT64 64:ff9b::127.0.0.1", `[64:ff9b::127.0.0.1]:${port}`],
  ["IPv4-translated ::ffff:0:7f00:1", `[::ffff:0:7f00:1]:${port}`],
  ["IPv4-mapped ::ffff:127.0.0.1", `[::ffff:127.0.0.1]:${port}`],
  ["IPv6 loopback ::1", `[::1]:${port}`],
  ["IPv6 link-local fe80::1", `[fe80::1]:${port}`],
  ["IPv6 unique local fc00::1", `[fc00::1]:${port}`],
  ["the sandbox's address on another port", `127.0.0.1:${otherPort}`],
  ["this network 0.0.0.0", `0.0.0.0:${port}`],
  ["private 10.0.0.1", `10.0.0.1:${port}`],
  ["cloud metadata 169.254.169.254", `169.254.169.254`],
  ["carrier-grade NAT 100.64.0.1", `100.64.0.1:${port}`],
  ["multicast 224.0.0.1", `224.0.0.1:${port}`],
  ["decimal 2130706433", `2130706433:${otherPort}`],
  ["hexadecimal 0x7f000001", `0x7f000001:${otherPort}`],
  ["octal 017700000001", `017700000001:${otherPort}`],
  ["localhost", `localhost:${port}`],
  ["a name resolving to 127.0.0.1", `${names.loopback}:${port}`],
  ["a name resolving to ::1", `${names.v6}:${port}`],
  ["a name with one public and one private address", `${names.mixed}:${port}`],
  ["a name whose CNAME resolves to 127.0.0.1", `alias.example:${port}`],
];
const SCHEMES: [string, string][] = [
  ["file:", "file:///etc/passwd"],
  ["ftp:", "ftp://public.example/pub/"],
  ["data:", "data:text/html,<h1>hi</h1>"],
  ["gopher:", "gopher://public.example:70/1"],
];

type Mode = "typed" | "redirected";
interface Case {
  label: string;
  mode: Mode;
  /** The address the entry point is given. */
  url: string;
  /** Where it leads: the private spelling or the other scheme's address. */
  destination: string;
  /** Whether the address is of a scheme other than http(s). */
  scheme: boolean;
}

let user: TestUser;
let counter = 0;

/** The case's target: a private spelling with a path of its own, or a scheme's address. */
function caseOf(label: string, written: string, scheme: boolean, mode: Mode, entry: string): Case {
  counter += 1;
  const destination = scheme ? written : `http://${written}/${target}/${entry}-${counter}/sitemap.xml`;
  const url = mode === "typed" ? destination : `${testEnv.SANDBOX_URL}/hostile/redirect-to/sitemap.xml?${new URLSearchParams({ to: destination })}`;
  return { label, mode, url, destination, scheme };
}

function cases(entry: string): Case[] {
  const all: Case[] = [];
  for (const mode of ["typed", "redirected"] as const) {
    for (const [label, written] of SPELLINGS) all.push(caseOf(label, written, false, mode, entry));
    for (const [label, written] of SCHEMES) all.push(caseOf(label, written, true, mode, entry));
  }
  return all;
}

/** What an API route answered, and whether that is the refusal expected for the case; a reason when it is not. */
async function judgeRoute(item: Case, response: Response, field: string, privateMessage: string, noun: string): Promise<string | null> {
  const status = response.status;
  const body = status === 200 ? "(an answer)" : await read(response).catch(() => null);
  const seen = `${status} ${JSON.stringify(body)}`;
  if (item.mode === "redirected" && item.scheme) {
    // A public page sending us to file: and the like: the redirect is not followed (502, decision 005).
    const named =
      field === "storeUrl" || body?.error === `The ${noun} redirected to ${new URL(item.destination).protocol}, which is not a web address we can fetch.`;
    return status === 502 && body?.field === field && named ? null : seen;
  }
  if (status !== 400 || body?.field !== field) return seen;
  // Behind a redirect only the guarded fetch can refuse: its own message, not the URL rule's.
  if (item.mode === "redirected" && body.error !== privateMessage) return seen;
  return null;
}

beforeAll(async () => {
  user = await signUpUser();
  await holdWooCommerceCallbacks();
  await sandbox(`/dns/records/${names.loopback}`, { method: "PUT", json: { A: ["127.0.0.1"] } });
  await sandbox(`/dns/records/${names.v6}`, { method: "PUT", json: { AAAA: ["::1"] } });
  await sandbox(`/dns/records/${names.mixed}`, { method: "PUT", json: { A: ["93.184.216.34", "10.0.0.1"] } });
  await sandbox(`/dns/records/${names.public}`, { method: "PUT", json: { A: ["93.184.216.34"] } });
});

const scrape = (route: string, url: string) => app(`/highMemLimitApi/scraping/${route}`, json({ url }, bearer(user.tokens)));

describe("the guarded fetch, at every entry point", () => {
  it("refuses every spelling of a private address and every other scheme, typed or behind a redirect, and nothing reaches the target", async () => {
    const wrong: string[] = [];
    const note = (entry: string, item: Case, reason: string | null) => {
      if (reason !== null) wrong.push(`${entry} / ${item.label} (${item.mode}): ${reason}`);
    };

    // Pages, sitemaps and feeds (the generator, RSS checks and the backup generator read through these).
    for (const [entry, route, noun] of [
      ["page", "scrapeWebsite", "page"],
      ["sitemap", "getSitemapPostURLs", "sitemap"],
      ["feed", "scrapeFeed", "feed"],
    ] as const) {
      for (const item of cases(entry)) note(entry, item, await judgeRoute(item, await scrape(route, item.url), "url", PRIVATE_MESSAGE, noun));
    }

    // The preview image proxy (and catalogs' picture sizes, which read through it).
    for (const item of cases("proxy")) {
      const response = await app(`/api/scraping/imageProxy?url=${encodeURIComponent(item.url)}`, { headers: bearer(user.tokens) });
      note("image proxy", item, await judgeRoute(item, response, "url", PRIVATE_MESSAGE, "picture"));
    }

    // Pictures for renders (pins, downloads, video pins' stills, RSS feed pins): refused is skipped.
    const pictures = pictureSourceFor(testEnv);
    for (const item of cases("picture")) {
      const bytes = await pictures.fetch(item.url);
      note("render picture", item, bytes === null ? null : `fetched ${bytes.length} bytes`);
    }

    // A WooCommerce store's address: typed, or a store whose site index redirects to the target.
    for (const item of cases("store")) {
      let storeInput = item.url;
      if (item.mode === "redirected") {
        const slug = newStore("moves-away");
        await sandbox("/faults", {
          method: "POST",
          json: { service: "woocommerce", method: "GET", path: `/${slug}/wp-json/`, status: 302, headers: { location: item.destination } },
        });
        storeInput = storeUrl(slug);
      }
      const response = await app("/api/woocommerce/connect", json({ storeUrl: storeInput }, bearer(user.tokens)));
      note("WooCommerce connect", item, await judgeRoute(item, response, "storeUrl", STORE_MESSAGE, "store"));
    }

    expect(wrong).toEqual([]);
    // Nothing arrived, though the loopback spellings on the sandbox's port would have reached it.
    expect(await sandbox(`/requests?service=${target}`)).toEqual([]);
    // The names were resolved, through the DNS stand-in.
    const asked = new Set((await sandbox<{ query: { name: string } }[]>("/requests?service=dns")).map((request) => request.query.name));
    for (const name of [names.loopback, names.v6, names.mixed]) expect(asked, name).toContain(name);
  });

  it("skips a refused picture in a rendered pin, as an unreachable one", async () => {
    const design = v.parse(TemplateDesign, {
      title: "Photo and title",
      background: "#ffffff",
      layers: [
        { type: "Image", id: "photo", name: "Photo", x: 0, y: 0, width: 1000, height: 1000, source: "detected", imageIndex: 0, fit: "cover" },
        { type: "text", id: "title", name: "Title", content: "title", x: 80, y: 1100, width: 840, height: 300, style: { fontSize: 64 } },
      ],
      categories: [],
    });
    const render = async (allImages: string[]) => {
      const response = await app(
        "/highMemLimitApi/scraping/renderTemplateImage",
        json({ post: { title: "Sunday soup club", template: design, allImages } }, bearer(user.tokens)),
      );
      expect(response.status).toBe(200);
      const stored = await app(new URL((await read(response)).url).pathname);
      return new Uint8Array(await stored.arrayBuffer());
    };
    const none = await render([]);
    const refused = await render([`http://[::ffff:127.0.0.1]:${port}/${target}/pin.jpg`]);
    const behindRedirect = await render([
      `${testEnv.SANDBOX_URL}/hostile/redirect-to/photo.jpg?to=${encodeURIComponent(`http://localhost:${port}/blog-demo/images/amalfi-coast-itinerary-1.jpg`)}`,
    ]);
    const photo = await render([`${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`]);
    expect(refused).toEqual(none);
    expect(behindRedirect).toEqual(none);
    expect(photo).not.toEqual(none);
    expect(await sandbox(`/requests?service=${target}`)).toEqual([]);
  });
});

describe("what stays reachable", () => {
  it("reaches the sandbox by its configured origin, and by no other spelling of it", async () => {
    const page = `${testEnv.SANDBOX_URL}/blog-demo/`;
    expect((await scrape("scrapeWebsite", page)).status).toBe(200);
    expect(
      (
        await app(`/api/scraping/imageProxy?url=${encodeURIComponent(`${testEnv.SANDBOX_URL}/blog-demo/images/amalfi-coast-itinerary-1.jpg`)}`, {
          headers: bearer(user.tokens),
        })
      ).status,
    ).toBe(200);
    for (const other of [
      `http://localhost:${port}/blog-demo/`,
      `https://127.0.0.1:${port}/blog-demo/`,
      `http://127.0.0.1:${otherPort}/blog-demo/`,
      `http://[::ffff:127.0.0.1]:${port}/blog-demo/`,
    ]) {
      const response = await scrape("scrapeWebsite", other);
      expect(response.status, other).toBe(400);
      expect(await read(response), other).toMatchObject({ field: "url" });
    }
  });

  it("lets a public name through once resolved, and refuses when the resolver fails or the name does not exist", async () => {
    // public-….example resolves (stand-in) to a public address; the runtime then cannot connect to it (no internet
    // here): "could not reach", not a refusal, shows the guard let it through.
    const publicAnswer = await scrape("scrapeWebsite", `https://${names.public}/post`);
    expect(publicAnswer.status).toBe(502);
    expect((await read(publicAnswer)).error).toBe(`We could not reach the page at ${names.public}. Check the address and try again.`);

    const missing = await scrape("scrapeWebsite", `https://missing-${run}.example/post`);
    expect(await read(missing)).toEqual({ error: `We could not reach the page at missing-${run}.example. Check the address and try again.`, field: "url" });

    // The resolver down (503) or failing (SERVFAIL): refused, never fetched unchecked.
    for (const [name, fault] of [
      [`down-${run}.example`, { status: 503 }],
      [
        `servfail-${run}.example`,
        { status: 200, body: { Status: 2, TC: false, RD: true, RA: true, AD: false, CD: false, Question: [{ name: "x.", type: 1 }] } },
      ],
    ] as const) {
      await sandbox(`/dns/records/${name}`, { method: "PUT", json: { A: ["93.184.216.34"] } });
      await sandbox("/faults", { method: "POST", json: { service: "dns", path: "/dns-query", times: 2, ...fault } });
      const refused = await scrape("scrapeWebsite", `https://${name}/post`);
      expect(refused.status, name).toBe(502);
      expect(await read(refused), name).toEqual({ error: `We could not look up ${name} just now. Please try again in a moment.`, field: "url" });
      expect(await pictureSourceFor(testEnv).fetch(`https://${name}/photo.jpg`)).toBeNull();
    }
    await sandbox("/faults", { method: "DELETE" });
  });
});

describe("credentials and redirects", () => {
  it("never sends a store's keys to another origin, while a call without keys may follow one", async () => {
    const slug = newStore("keys-stay");
    const { shop, callback } = await connectWooCommerceStore(user, slug);
    const { consumer_key: consumerKey, consumer_secret: consumerSecret } = JSON.parse(callback.body) as { consumer_key: string; consumer_secret: string };
    const keys = { consumerKey, consumerSecret };
    const elsewhere = newStore("elsewhere");
    const otherOrigin = `http://localhost:${port}`;
    const products = "/wp-json/wc/v3/products";
    const redirectProducts = (times = 1) =>
      sandbox("/faults", {
        method: "POST",
        json: {
          service: "woocommerce",
          method: "GET",
          path: `/${slug}${products}`,
          status: 301,
          times,
          headers: { location: `${otherOrigin}/woocommerce/${elsewhere}${products}?page=1&per_page=50&status=publish` },
        },
      });

    // Through the app: the listing stops at the redirect and says why.
    await redirectProducts();
    const listed = await app(`/api/woocommerce/products?${new URLSearchParams({ shopID: shop.id })}`, { headers: bearer(user.tokens) });
    expect(listed.status).toBe(502);
    expect((await read(listed)).error).toBe(
      `Unable to get shop listings: The store at ${sandboxOrigin.host} sent us on to localhost:${port}, and we do not send your store's keys to another address. If your store has moved, connect it again at its new address.`,
    );

    // Even with the other origin trusted (so that its address is no reason to stop), the keys do not go there.
    const bothTrusted = { ...testEnv, TRUSTED_FETCH_ORIGINS: `${sandboxOrigin.origin},${otherOrigin}` };
    await redirectProducts();
    await expect(listProducts(bothTrusted, storeUrl(slug), keys, { page: 1, perPage: 50 })).rejects.toMatchObject({
      kind: "moved",
    } satisfies Partial<WooCommerceError>);
    const atElsewhere = () =>
      sandbox<{ path: string; headers: Record<string, string> }[]>("/requests?service=woocommerce").then((requests) =>
        requests.filter((request) => request.path.startsWith(`/${elsewhere}/`)),
      );
    expect(await atElsewhere()).toEqual([]);

    // A redirect within the store's origin keeps the keys.
    await sandbox("/faults", {
      method: "POST",
      json: {
        service: "woocommerce",
        method: "GET",
        path: `/${slug}${products}`,
        status: 302,
        headers: { location: `/woocommerce/${slug}${products}?page=1&per_page=50&status=publish&moved=1` },
      },
    });
    const followed = await listProducts(testEnv, storeUrl(slug), keys, { page: 1, perPage: 50 });
    expect(followed.products.length).toBeGreaterThan(0);

    // The site index is read without keys: it may follow the store to another origin, which receives no Authorization.
    await sandbox("/faults", {
      method: "POST",
      json: {
        service: "woocommerce",
        method: "GET",
        path: `/${slug}/wp-json/`,
        status: 301,
        headers: { location: `${otherOrigin}/woocommerce/${elsewhere}/wp-json/` },
      },
    });
    const index = await readStoreIndex(bothTrusted, storeUrl(slug));
    expect(index.storeUrl).toBe(`${otherOrigin}/woocommerce/${elsewhere}`);
    const arrived = await atElsewhere();
    expect(arrived.map((request) => request.path)).toEqual([`/${elsewhere}/wp-json/`]);
    expect(arrived[0]!.headers).not.toHaveProperty("authorization");
  });
});
