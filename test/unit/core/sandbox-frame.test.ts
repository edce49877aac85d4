import { describe, expect, it } from "vitest";
import { linksIn } from "../../../sandbox/providers/email.ts";
import { useSandbox } from "../../support/sandbox.ts";

const sandbox = useSandbox();

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

const sendEmail = (body: Record<string, unknown>) => post("/email/emails", body, { authorization: "Bearer re_secret_key_1234" });

describe("sandbox control API", () => {
  it("answers its health check", async () => {
    const response = await fetch(`${sandbox.url}/__sandbox/health`);
    expect(response.status).toBe(200);
  });

  it("records what a provider received, oldest first, with secrets masked", async () => {
    await sendEmail({ from: "a@x.test", to: "one@x.test", subject: "First", text: "hi", password: "hunter22" });
    await sendEmail({ from: "a@x.test", to: "two@x.test", subject: "Second", text: "hi" });
    const requests = await (await fetch(`${sandbox.url}/__sandbox/requests?service=email`)).json();
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      service: "email",
      method: "POST",
      path: "/emails",
      body: { subject: "First", password: "****er22" },
      headers: { authorization: "****1234" },
    });
    expect(requests[1].body.subject).toBe("Second");
    expect(await (await fetch(`${sandbox.url}/__sandbox/requests?service=pinterest`)).json()).toEqual([]);
  });

  it("keeps the headers an e-mail was sent with (Resend's `headers`) and refuses headers that are not strings", async () => {
    const sent = await sendEmail({
      from: "a@x.test",
      to: "h@x.test",
      subject: "Digest",
      text: "t",
      headers: { "List-Unsubscribe": "<https://app.test/u?t=1>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    expect(sent.status).toBe(200);
    const [mail] = await (await fetch(`${sandbox.url}/__sandbox/outbox?to=h@x.test`)).json();
    expect(mail.headers).toEqual({ "List-Unsubscribe": "<https://app.test/u?t=1>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    const refused = await sendEmail({ from: "a@x.test", to: "h@x.test", subject: "Bad", text: "t", headers: { "X-Count": 3 } });
    expect(refused.status).toBe(422);
  });

  it("forgets everything on reset", async () => {
    await sendEmail({ from: "a@x.test", to: "one@x.test", subject: "S", text: "t" });
    await post("/__sandbox/faults", { service: "email", status: 500, times: 5 });
    await fetch(`${sandbox.url}/__sandbox/reset`, { method: "POST" });
    expect(await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()).toEqual([]);
    expect(await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json()).toEqual([]);
    expect(await (await fetch(`${sandbox.url}/__sandbox/faults`)).json()).toEqual([]);
  });

  it("forgets only the named stand-ins on a scoped reset", async () => {
    await sendEmail({ from: "a@x.test", to: "one@x.test", subject: "S", text: "t" });
    await post("/__sandbox/faults", { service: "email", status: 500, times: 5 });
    await post("/__sandbox/faults", { service: "pinterest", status: 503, times: 5 });
    await fetch(`${sandbox.url}/openai/v1/models`);
    await fetch(`${sandbox.url}/__sandbox/reset?service=email`, { method: "POST" });
    expect(await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json()).toEqual([]);
    expect(await (await fetch(`${sandbox.url}/__sandbox/requests?service=email`)).json()).toEqual([]);
    expect(await (await fetch(`${sandbox.url}/__sandbox/requests?service=openai`)).json()).toHaveLength(1);
    expect((await (await fetch(`${sandbox.url}/__sandbox/faults`)).json()).map((f: { service: string }) => f.service)).toEqual(["pinterest"]);
  });
});

describe("fault injection", () => {
  it("fails the next `times` matching requests with the given status, then lets them through", async () => {
    const created = await post("/__sandbox/faults", { service: "email", method: "POST", path: "/emails", status: 503, times: 2 });
    expect(created.status).toBe(201);
    const mail = { from: "a@x.test", to: "b@x.test", subject: "S", text: "t" };
    expect((await sendEmail(mail)).status).toBe(503);
    expect((await sendEmail(mail)).status).toBe(503);
    expect((await sendEmail(mail)).status).toBe(200);
    // The failed attempts were still recorded; only the third e-mail was sent.
    expect(await (await fetch(`${sandbox.url}/__sandbox/requests?service=email`)).json()).toHaveLength(3);
    expect(await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json()).toHaveLength(1);
  });

  it("only matches its service, method and path", async () => {
    await post("/__sandbox/faults", { service: "pinterest", method: "POST", path: "/v5/pins", status: 500 });
    await post("/__sandbox/faults", { service: "email", method: "GET", path: "/emails", status: 500 });
    expect((await sendEmail({ from: "a@x.test", to: "b@x.test", subject: "S", text: "t" })).status).toBe(200);
  });

  it("answers 429 with a Retry-After header", async () => {
    await post("/__sandbox/faults", { service: "email", status: 429 });
    const response = await sendEmail({ from: "a@x.test", to: "b@x.test", subject: "S", text: "t" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
  });

  it("makes matching requests hang for delayMs before answering normally", async () => {
    await post("/__sandbox/faults", { service: "email", path: "/emails", delayMs: 400 });
    const started = performance.now();
    const response = await sendEmail({ from: "a@x.test", to: "b@x.test", subject: "S", text: "t" });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it("clears all faults on DELETE", async () => {
    await post("/__sandbox/faults", { service: "email", status: 500, times: 10 });
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" });
    expect((await sendEmail({ from: "a@x.test", to: "b@x.test", subject: "S", text: "t" })).status).toBe(200);
  });

  it("rejects a fault it cannot apply with 400 naming the problem", async () => {
    for (const [body, message] of [
      [{ status: 500 }, "service is required"],
      [{ service: "email" }, "status or delayMs is required"],
      [{ service: "email", status: 42 }, "status must be an HTTP status between 100 and 599"],
      [{ service: "email", status: 500, times: 0 }, "times must be a positive integer"],
      [{ service: "email", path: "v5/pins", status: 500 }, "path must start with /"],
    ] as const) {
      const response = await post("/__sandbox/faults", body);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe(message);
    }
  });
});

describe("e-mail provider stand-in (Resend API)", () => {
  it("puts sent e-mails in the outbox with the links found in them", async () => {
    const response = await sendEmail({
      from: "Pinboard <hello@x.test>",
      to: ["reader@x.test"],
      subject: "Verify your e-mail",
      html: '<p><a href="http://127.0.0.1:8787/verify-email?uid=u1&amp;token=abc">Verify</a></p>',
      text: "Verify: http://127.0.0.1:8787/verify-email?uid=u1&token=abc",
    });
    expect(response.status).toBe(200);
    expect((await response.json()).id).toMatch(/[0-9a-f-]{36}/);
    const outbox = await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json();
    expect(outbox).toEqual([
      expect.objectContaining({
        to: ["reader@x.test"],
        subject: "Verify your e-mail",
        links: ["http://127.0.0.1:8787/verify-email?uid=u1&token=abc"],
      }),
    ]);
    expect(await (await fetch(`${sandbox.url}/__sandbox/outbox?to=READER@x.test`)).json()).toHaveLength(1);
    expect(await (await fetch(`${sandbox.url}/__sandbox/outbox?to=other@x.test`)).json()).toHaveLength(0);
  });

  it("answers 401 without an API key and 422 for a missing field, as Resend does", async () => {
    expect((await post("/email/emails", { from: "a@x.test", to: "b@x.test", subject: "S", text: "t" })).status).toBe(401);
    const missing = await sendEmail({ from: "a@x.test", subject: "S", text: "t" });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ name: "validation_error", message: "Missing `to` field." });
  });

  it("finds links in HTML and in plain text", () => {
    expect(linksIn('<a href="https://a.test/x?y=1&amp;z=2">x</a> <a href="mailto:me@x.test">m</a>', "see https://b.test/page.")).toEqual([
      "https://a.test/x?y=1&z=2",
      "https://b.test/page.",
    ]);
  });
});
