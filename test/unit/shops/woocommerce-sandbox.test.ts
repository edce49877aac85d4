import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PRODUCTS } from "../../../sandbox/demo-shop/catalog.ts";
import { useSandbox } from "../../support/sandbox.ts";

// The WooCommerce stand-in: the app authorisation endpoint as WC_Auth behaves (validation, grant page,
// the keys POSTed to the app and the browser sent back only when the app took them), and the REST API
// with keys bound to their store.
const sandbox = useSandbox();
const ACTIVE = DEMO_PRODUCTS.filter((product) => product.status === "active").length;

/** A stand-in for our app: records what WooCommerce POSTs to it and answers `answer`. */
let app: Server;
let appUrl = "";
let answer = 200;
const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
beforeAll(async () => {
  app = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(answer, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())));

const store = (slug: string) => `${sandbox.url}/woocommerce/${slug}`;
function authorize(slug: string, overrides: Record<string, string> = {}) {
  const query = new URLSearchParams({
    app_name: "Pinboard Studio",
    scope: "read",
    user_id: "connection-42",
    return_url: `${appUrl}/back`,
    callback_url: `${appUrl}/keys`,
    ...overrides,
  });
  return `${store(slug)}/wc-auth/v1/authorize?${query}`;
}
async function approveLink(url: string) {
  const html = await (await fetch(url)).text();
  return /id="approve" href="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
}
async function connect(slug: string, scope = "read") {
  received.length = 0;
  answer = 200;
  const granted = await fetch(await approveLink(authorize(slug, { scope })), { redirect: "manual" });
  expect(granted.status).toBe(302);
  const keys = JSON.parse(received[0]!.body) as { consumer_key: string; consumer_secret: string };
  return { basic: `Basic ${Buffer.from(`${keys.consumer_key}:${keys.consumer_secret}`).toString("base64")}`, keys };
}

describe("the WooCommerce stand-in's app authorisation", () => {
  it("POSTs the keys to the app as JSON and sends the browser back with success=1 once the app took them", async () => {
    received.length = 0;
    answer = 200;
    const page = await fetch(authorize("linen"));
    const html = await page.text();
    expect(html).toContain("Pinboard Studio would like to connect to your store");
    expect(html).toContain("View products");
    const granted = await fetch(await approveLink(authorize("linen")), { redirect: "manual" });
    expect(granted.status).toBe(302);
    expect(granted.headers.get("location")).toBe(`${appUrl}/back?success=1&user_id=connection-42`);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(received[0]!.body)).toEqual({
      key_id: expect.any(Number),
      user_id: "connection-42",
      consumer_key: expect.stringMatching(/^ck_[0-9a-f]{40}$/),
      consumer_secret: expect.stringMatching(/^cs_[0-9a-f]{40}$/),
      key_permissions: "read",
    });
  });

  it("deletes the key and shows WooCommerce's error when the app refuses it; an Approve link works once", async () => {
    received.length = 0;
    answer = 400;
    const link = await approveLink(authorize("refusing"));
    const granted = await fetch(link, { redirect: "manual" });
    expect(granted.status).toBe(401);
    expect(await granted.text()).toContain("Error: An error occurred in the request and at the time were unable to send the consumer data.");
    expect(await (await fetch(`${sandbox.url}/__sandbox/woocommerce/keys?store=refusing`)).json()).toEqual([]);
    const again = await fetch(link, { redirect: "manual" });
    expect(again.status).toBe(401);
    expect(await again.text()).toContain("Invalid nonce verification");
  });

  it("refuses what WooCommerce refuses: a missing parameter, an unknown scope, a callback that is not https", async () => {
    for (const [overrides, message] of [
      [{ app_name: "" }, "Error: Missing parameter app_name."],
      [{ scope: "admin" }, "Error: Invalid scope admin."],
      [{ callback_url: "http://app.example.com/keys" }, "Error: The callback_url needs to be over SSL."],
    ] as const) {
      const refused = await fetch(authorize("strict", overrides));
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain(message);
    }
    expect((await fetch(authorize("strict", { callback_url: "https://app.example.com/keys" }))).status).toBe(200);
  });
});

describe("the WooCommerce stand-in's REST API", () => {
  it("pages the published products with X-WP-Total, X-WP-TotalPages and Link, and refuses per_page over 100", async () => {
    const { basic } = await connect("paging");
    const page = await fetch(`${store("paging")}/wp-json/wc/v3/products?page=2&per_page=50&status=publish`, { headers: { authorization: basic } });
    expect(page.status).toBe(200);
    expect(page.headers.get("x-wp-total")).toBe(String(ACTIVE));
    expect(page.headers.get("x-wp-totalpages")).toBe(String(Math.ceil(ACTIVE / 50)));
    expect(page.headers.get("link")).toMatch(/page=1[^>]*>; rel="prev", <[^>]*page=3[^>]*>; rel="next"/);
    const products = (await page.json()) as { status: string; images: { src: string }[]; permalink: string }[];
    expect(products).toHaveLength(50);
    expect(products.every((product) => product.status === "publish")).toBe(true);
    expect(products[0]!.permalink.startsWith(`${store("paging")}/product/`)).toBe(true);
    const photo = await fetch(products[0]!.images[0]!.src);
    expect(photo.headers.get("content-type")).toBe("image/jpeg");

    const tooMany = await fetch(`${store("paging")}/wp-json/wc/v3/products?per_page=101`, { headers: { authorization: basic } });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: "rest_invalid_param" });
  });

  it("opens a store only with its own keys, and a write-only key reads nothing", async () => {
    const { basic, keys } = await connect("owner-a");
    const other = await fetch(`${store("owner-b")}/wp-json/wc/v3/products`, { headers: { authorization: basic } });
    expect(other.status).toBe(401);
    expect(await other.json()).toEqual({ code: "woocommerce_rest_authentication_error", message: "Consumer key is invalid.", data: { status: 401 } });
    const none = await fetch(`${store("owner-a")}/wp-json/wc/v3/products`);
    expect(none.status).toBe(401);
    const query = await fetch(
      `${store("owner-a")}/wp-json/wc/v3/settings/general/woocommerce_currency?consumer_key=${keys.consumer_key}&consumer_secret=${keys.consumer_secret}`,
    );
    expect(await query.json()).toMatchObject({ id: "woocommerce_currency", value: "USD" });

    const writeOnly = await connect("owner-c", "write");
    const refused = await fetch(`${store("owner-c")}/wp-json/wc/v3/products`, { headers: { authorization: writeOnly.basic } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe("The API key provided does not have read permissions.");
  });
});
