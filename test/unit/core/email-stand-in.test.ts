import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { SANDBOX_EMAIL_WEBHOOK_SECRET } from "../../../sandbox/provider-vars.ts";
import { useSandbox } from "../../support/sandbox.ts";

/**
 * The e-mail (Resend) stand-in's webhooks (decision 097): told that an address bounces or complains, it raises
 * Resend's events for mail to it, signed the Svix way. The signature is made with node:crypto in the stand-in
 * and checked here with the library the app verifies with (standardwebhooks, as Resend's own SDK does).
 */

const sandbox = useSandbox();

const control = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  fetch(`${sandbox.url}/__sandbox/email${path}`, {
    ...init,
    headers: init.json === undefined ? init.headers : { "content-type": "application/json" },
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
  });

const send = (to: string) =>
  fetch(`${sandbox.url}/email/emails`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer re_test_1234" },
    body: JSON.stringify({ from: "Pinboard Studio <hello@pinboard.studio>", to: [to], subject: "Hello", text: "Hi", html: "<p>Hi</p>" }),
  });

interface Listed {
  id: string;
  type: string;
  to: string;
  delivery: string;
  payload: { type: string; created_at: string; data: Record<string, unknown> };
  request: { headers: Record<string, string>; body: string };
}

const events = async (to: string) => (await (await control(`/events?to=${encodeURIComponent(to)}&signed=1`)).json()) as Listed[];

describe("the e-mail stand-in's webhooks", () => {
  it("raises Resend's events for an address told to bounce, signed so that standardwebhooks accepts them", async () => {
    expect((await control("/recipients/Gone@Example.test", { method: "PUT", json: { behaviour: "bounce" } })).status).toBe(200);
    const sent = (await (await send("gone@example.test")).json()) as { id: string };
    const raised = await events("gone@example.test");
    expect(raised.map((event) => event.type)).toEqual(["email.sent", "email.bounced"]);
    // Nowhere to deliver: they wait (the tests deliver them, or npm start's EMAIL_WEBHOOK_URL).
    expect(raised.every((event) => event.delivery === "pending")).toBe(true);
    const bounced = raised[1];
    const verified = new Webhook(SANDBOX_EMAIL_WEBHOOK_SECRET).verify(bounced.request.body, {
      "webhook-id": bounced.request.headers["svix-id"],
      "webhook-timestamp": bounced.request.headers["svix-timestamp"],
      "webhook-signature": bounced.request.headers["svix-signature"],
    });
    expect(verified).toEqual(bounced.payload);
    expect(bounced.request.headers["svix-id"]).toMatch(/^msg_/);
    expect(bounced.payload).toMatchObject({
      type: "email.bounced",
      data: { email_id: sent.id, to: ["gone@example.test"], subject: "Hello", bounce: { type: "Permanent", subType: "General" } },
    });
    // Another key does not verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another-endpoint-secret").toString("base64")}`).verify(bounced.request.body, {
        "webhook-id": bounced.request.headers["svix-id"],
        "webhook-timestamp": bounced.request.headers["svix-timestamp"],
        "webhook-signature": bounced.request.headers["svix-signature"],
      }),
    ).toThrow(/signature/i);
  });

  it("raises a complaint after delivery, a soft bounce as a delay and a Transient bounce, and nothing for an ordinary address", async () => {
    await control("/recipients/spam@example.test", { method: "PUT", json: { behaviour: "complain" } });
    await control("/recipients/full@example.test", { method: "PUT", json: { behaviour: "soft-bounce" } });
    for (const to of ["spam@example.test", "full@example.test", "fine@example.test"]) expect((await send(to)).status).toBe(200);
    expect((await events("spam@example.test")).map((event) => event.type)).toEqual(["email.sent", "email.delivered", "email.complained"]);
    const soft = await events("full@example.test");
    expect(soft.map((event) => event.type)).toEqual(["email.sent", "email.delivery_delayed", "email.bounced"]);
    expect(soft[2].payload.data.bounce).toMatchObject({ type: "Transient", subType: "MailboxFull" });
    expect(await events("fine@example.test")).toEqual([]);
    // Told to deliver again, the address raises nothing more.
    await control("/recipients/spam@example.test", { method: "PUT", json: { behaviour: "deliver" } });
    await send("spam@example.test");
    expect(await events("spam@example.test")).toHaveLength(3);
  });

  it("refuses a behaviour it does not know and an address that is not one", async () => {
    expect((await control("/recipients/x@example.test", { method: "PUT", json: { behaviour: "explode" } })).status).toBe(400);
    expect((await control("/recipients/not-an-address", { method: "PUT", json: { behaviour: "bounce" } })).status).toBe(400);
    expect((await control("/webhook", { method: "POST", json: { signingSecret: "plain" } })).status).toBe(400);
  });
});
