import { describe, expect, it } from "vitest";
import { useSandbox } from "../../support/sandbox.ts";

// The DNS-over-HTTPS stand-in (sandbox/providers/dns.ts) answers as Cloudflare's JSON API does: the shape of
// https://developers.cloudflare.com/1.1.1.1/encryption/dns-over-https/make-api-requests/dns-json/.
const sandbox = useSandbox();

async function ask(name: string, type = "A", headers: Record<string, string> = { accept: "application/dns-json" }) {
  const response = await fetch(`${sandbox.url}/dns/dns-query?${new URLSearchParams({ name, type })}`, { headers });
  return { status: response.status, type: response.headers.get("content-type"), body: response.status === 200 ? await response.json() : await response.text() };
}

describe("the DNS stand-in", () => {
  it("answers A and AAAA in the JSON API's shape, with names written with their final dot", async () => {
    expect(await ask("public.example")).toEqual({
      status: 200,
      type: "application/dns-json",
      body: {
        Status: 0,
        TC: false,
        RD: true,
        RA: true,
        AD: false,
        CD: false,
        Question: [{ name: "public.example.", type: 1 }],
        Answer: [{ name: "public.example.", type: 1, TTL: 300, data: "93.184.216.34" }],
      },
    });
    expect((await ask("PUBLIC.example.", "28")).body).toMatchObject({
      Status: 0,
      Answer: [{ name: "public.example.", type: 28, data: "2606:2800:220:1:248:1893:25c8:1946" }],
    });
  });

  it("follows a CNAME as a recursive resolver does, and answers NXDOMAIN for names it does not know", async () => {
    expect((await ask("alias.example")).body).toMatchObject({
      Status: 0,
      Answer: [
        { name: "alias.example.", type: 5, data: "rebind.example." },
        { name: "rebind.example.", type: 1, data: "127.0.0.1" },
      ],
    });
    const unknown = (await ask("nowhere.example")).body;
    expect(unknown).toMatchObject({ Status: 3, Question: [{ name: "nowhere.example.", type: 1 }], Authority: [{ type: 6 }] });
    expect(unknown).not.toHaveProperty("Answer");
    // A known name without records of that type: NOERROR, no answer.
    expect((await ask("v6.example", "A")).body).toMatchObject({ Status: 0 });
    expect((await ask("v6.example", "A")).body).not.toHaveProperty("Answer");
  });

  it("takes names from its control, forgets them on reset, records the questions and fails on demand", async () => {
    const put = await fetch(`${sandbox.url}/__sandbox/dns/records/shop.test-rebind.example`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ A: ["10.1.2.3"], AAAA: ["fd00::7"], ttl: 5 }),
    });
    expect(put.status).toBe(200);
    expect((await ask("shop.test-rebind.example")).body).toMatchObject({ Answer: [{ TTL: 5, data: "10.1.2.3" }] });
    expect((await ask("shop.test-rebind.example", "AAAA")).body).toMatchObject({ Answer: [{ data: "fd00::7" }] });
    const bad = await fetch(`${sandbox.url}/__sandbox/dns/records/x.example`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ A: ["::1"] }),
    });
    expect(bad.status).toBe(400);

    const requests = (await (await fetch(`${sandbox.url}/__sandbox/requests?service=dns`)).json()) as { path: string; query: Record<string, string> }[];
    expect(requests.map((request) => `${request.path} ${request.query.name} ${request.query.type}`)).toContain("/dns-query shop.test-rebind.example AAAA");

    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "dns", path: "/dns-query", status: 503 }),
    });
    expect((await ask("public.example")).status).toBe(503);
    expect((await ask("public.example")).status).toBe(200);

    await fetch(`${sandbox.url}/__sandbox/reset`, { method: "POST" });
    expect((await ask("shop.test-rebind.example")).body).toMatchObject({ Status: 3 });
    expect((await ask("rebind.example")).body).toMatchObject({ Answer: [{ data: "127.0.0.1" }] });
  });

  it("speaks only the JSON API", async () => {
    expect((await ask("public.example", "A", {})).status).toBe(400);
    expect((await ask("", "A")).status).toBe(400);
    expect((await ask("public.example", "BOGUS")).status).toBe(400);
  });
});
