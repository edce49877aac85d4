import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SANDBOX_EMAIL_WEBHOOK_SECRET } from "../../../sandbox/provider-vars.ts";
import { database } from "../../../workers/db/client.ts";
import { emailSuppressions } from "../../../workers/db/schema.ts";
import { sendEmail } from "../../../workers/integrations/email.ts";
import { HARD_BOUNCE_KEPT_MS, suppressAddress, suppressionOf } from "../../../workers/services/accounts/email-suppressions.ts";
import { pruneGrowingTables } from "../../../workers/services/core/table-retention.ts";
import { bearer, json, outboxFor, signUpUser, uniqueEmail } from "./accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

/**
 * E-mail that really goes out (issue 42, decision 097): Resend's signed webhooks feed the suppression list,
 * and sendEmail sends nothing to an address on it. The e-mail stand-in is told how an address behaves and
 * raises Resend's events for mail to it; the tests deliver them (the sandbox cannot reach the worker under test).
 */

const WEBHOOK = "/api/email/webhook";
const BOUNCED = "We can't send e-mail to this address: an earlier message bounced.";
const COMPLAINED = "We can't send e-mail to this address: an earlier message was reported as spam.";

interface StandInEvent {
  id: string;
  type: string;
  to: string;
  payload: { type: string; created_at: string; data: { email_id: string; to: string[]; bounce?: { type: string; subType: string } } };
  request: { headers: Record<string, string>; body: string };
}

const behave = (address: string, behaviour: "bounce" | "soft-bounce" | "complain" | "deliver") =>
  sandbox(`/email/recipients/${encodeURIComponent(address)}`, { method: "PUT", json: { behaviour } });

/** The stand-in's events about mail to `address`, oldest first, each with the signed request a delivery sends now. */
const eventsTo = (address: string) => sandbox<StandInEvent[]>(`/email/events?to=${encodeURIComponent(address)}&signed=1`);

const deliver = (request: { headers: Record<string, string>; body: string }, headers: Record<string, string | null> = {}, body = request.body) => {
  const sent: Record<string, string> = { ...request.headers };
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete sent[name];
    else sent[name] = value;
  }
  return app(WEBHOOK, { method: "POST", headers: sent, body });
};

/** Delivers every event the stand-in raised about `address`; answers their types and our statuses. */
async function deliverAllTo(address: string) {
  const events = await eventsTo(address);
  const answers = [];
  for (const event of events) answers.push({ type: event.type, status: (await deliver(event.request)).status });
  return answers;
}

/** Svix's signature (Resend's webhooks), made here with WebCrypto: v1,base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)). */
async function svixRequest(body: string, { secret = SANDBOX_EMAIL_WEBHOOK_SECRET, at = Date.now(), id = `msg_${crypto.randomUUID()}` } = {}) {
  const timestamp = String(Math.floor(at / 1000));
  const keyBytes = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (char) => char.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  return {
    headers: { "content-type": "application/json", "svix-id": id, "svix-timestamp": timestamp, "svix-signature": `v1,${btoa(String.fromCharCode(...mac))}` },
    body,
  };
}

const bouncedEvent = (address: string, type = "Permanent") =>
  JSON.stringify({
    type: "email.bounced",
    created_at: new Date().toISOString(),
    data: {
      created_at: new Date().toISOString(),
      email_id: crypto.randomUUID(),
      from: "Pinboard Studio <hello@pinboard.studio>",
      to: [address],
      subject: "Verify your e-mail address",
      bounce: { type, subType: type === "Permanent" ? "General" : "MailboxFull", message: "The recipient's mail server rejected it." },
    },
  });

const mail = (to: string, marker = crypto.randomUUID()) => ({ to, subject: `Note ${marker}`, text: `Hello ${marker}`, html: `<p>Hello ${marker}</p>` });

describe("bounces and complaints stop mail to an address (decision 097)", () => {
  it("a hard bounce the stand-in reports through its signed webhook suppresses the address: nothing more goes out, and the user is told in words", async () => {
    const email = uniqueEmail("bouncing");
    await behave(email, "bounce");
    const user = await signUpUser({ email });
    expect(await outboxFor(email)).toHaveLength(1);
    expect(await deliverAllTo(email)).toEqual([
      { type: "email.sent", status: 200 },
      { type: "email.bounced", status: 200 },
    ]);
    const [bounced] = (await eventsTo(email)).filter((event) => event.type === "email.bounced");
    // The payload as Resend documents it.
    expect(bounced.payload).toMatchObject({ type: "email.bounced", data: { to: [email], bounce: { type: "Permanent", subType: "General" } } });
    expect(await suppressionOf(testEnv.DB, email)).toMatchObject({ reason: "hard_bounce" });

    // Asking for the verification link again: refused in plain words, and nothing reaches the provider.
    const again = await app("/api/user/sendEmailVerificationLink", { method: "POST", headers: bearer(user.tokens) });
    expect(again.status).toBe(422);
    expect(await read(again)).toMatchObject({ error: BOUNCED });
    const reset = await app("/api/user/forgotPassword", json({ email: email.toUpperCase() }, { "cf-connecting-ip": "203.0.113.91" }));
    expect(reset.status).toBe(422);
    expect(await read(reset)).toEqual({ error: BOUNCED, field: "email" });
    expect(await sendEmail(testEnv, mail(` ${email.toUpperCase()} `))).toMatchObject({ sent: false, suppressed: { reason: "hard_bounce" } });
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it("a complaint suppresses the address for good; mail others typed is refused without saying why", async () => {
    const email = uniqueEmail("complaining");
    await behave(email, "complain");
    expect(await sendEmail(testEnv, mail(email))).toMatchObject({ sent: true });
    expect(await deliverAllTo(email)).toEqual([
      { type: "email.sent", status: 200 },
      { type: "email.delivered", status: 200 },
      { type: "email.complained", status: 200 },
    ]);
    const row = await database(testEnv.DB).query.emailSuppressions.findFirst({ where: eq(emailSuppressions.address, email) });
    expect(row).toMatchObject({ reason: "complaint", expiresAt: null });
    expect(await sendEmail(testEnv, mail(email))).toEqual({ sent: false, suppressed: { reason: "complaint", since: row!.suppressedAt } });

    // Its owner asking for a password reset is told why nothing comes.
    const reset = await app("/api/user/forgotPassword", json({ email }, { "cf-connecting-ip": "203.0.113.93" }));
    expect(reset.status).toBe(422);
    expect(await read(reset)).toEqual({ error: COMPLAINED, field: "email" });

    // The newsletter's signup is mail to a typed address (decision 080): refused, counting nothing.
    const signup = await app("/api/user/newsletterSignup", json({ email }, { "cf-connecting-ip": "203.0.113.92" }));
    expect(signup.status).toBe(422);
    expect(await read(signup)).toEqual({ error: "We can't send e-mail to this address: earlier messages to it could not be delivered.", field: "email" });
    expect(await outboxFor(email)).toHaveLength(1);

    // A later hard bounce does not weaken it to one that expires.
    expect((await deliver(await svixRequest(bouncedEvent(email)))).status).toBe(200);
    expect(await database(testEnv.DB).query.emailSuppressions.findFirst({ where: eq(emailSuppressions.address, email) })).toMatchObject({
      reason: "complaint",
      expiresAt: null,
    });
    expect(await suppressionOf(testEnv.DB, email, Date.now() + 10 * 365 * 86_400_000)).toMatchObject({ reason: "complaint" });
  });

  it("a soft bounce (Transient) or a delay does not suppress: the next e-mail goes out", async () => {
    const email = uniqueEmail("mailbox-full");
    await behave(email, "soft-bounce");
    expect(await sendEmail(testEnv, mail(email))).toMatchObject({ sent: true });
    expect(await deliverAllTo(email)).toEqual([
      { type: "email.sent", status: 200 },
      { type: "email.delivery_delayed", status: 200 },
      { type: "email.bounced", status: 200 },
    ]);
    const [soft] = (await eventsTo(email)).filter((event) => event.type === "email.bounced");
    expect(soft.payload.data.bounce).toMatchObject({ type: "Transient", subType: "MailboxFull" });
    const undetermined = await deliver(await svixRequest(bouncedEvent(email, "Undetermined")));
    expect(await read(undetermined)).toEqual({ received: true, suppressed: [] });
    expect(await suppressionOf(testEnv.DB, email)).toBeNull();
    expect(await sendEmail(testEnv, mail(email))).toMatchObject({ sent: true });
    expect(await outboxFor(email)).toHaveLength(2);
  });

  it("records Resend's own refusal (email.suppressed) as a hard bounce, and ignores delivered, opened and clicked", async () => {
    const email = uniqueEmail("resend-list");
    const base = { created_at: new Date().toISOString(), email_id: crypto.randomUUID(), from: "hello@pinboard.studio", to: [email], subject: "Hi" };
    for (const type of ["email.delivered", "email.opened", "email.clicked"]) {
      const answer = await deliver(await svixRequest(JSON.stringify({ type, created_at: base.created_at, data: base })));
      expect(await read(answer)).toEqual({ received: true, suppressed: [] });
    }
    expect(await suppressionOf(testEnv.DB, email)).toBeNull();
    const suppressed = JSON.stringify({
      type: "email.suppressed",
      created_at: base.created_at,
      data: { ...base, suppressed: { type: "OnAccountSuppressionList", message: "Resend has suppressed sending to this address." } },
    });
    expect(await read(await deliver(await svixRequest(suppressed)))).toEqual({ received: true, suppressed: [email] });
    expect(await suppressionOf(testEnv.DB, email)).toMatchObject({ reason: "hard_bounce" });
  });

  it("refuses a delivery whose signature does not match (401), and one signed more than 5 minutes ago, suppressing nothing", async () => {
    const email = uniqueEmail("forged");
    const body = bouncedEvent(email);
    const wrongKey = await svixRequest(body, { secret: `whsec_${btoa("some-other-endpoint-secret")}` });
    expect((await deliver(wrongKey)).status).toBe(401);
    const good = await svixRequest(body);
    // The same signature on another body: someone changed the address.
    const tampered = await deliver(good, {}, bouncedEvent(uniqueEmail("victim")));
    expect(tampered.status).toBe(401);
    expect(await read(tampered)).toMatchObject({ field: "svix-signature" });
    const stale = await svixRequest(body, { at: Date.now() - 6 * 60_000 });
    expect((await deliver(stale)).status).toBe(401);
    const early = await svixRequest(body, { at: Date.now() + 6 * 60_000 });
    expect((await deliver(early)).status).toBe(401);
    expect(await suppressionOf(testEnv.DB, email)).toBeNull();

    // Within the 5 minutes a replay is applied again, to no further effect.
    const recent = await svixRequest(body, { at: Date.now() - 4 * 60_000 });
    expect(await read(await deliver(recent))).toEqual({ received: true, suppressed: [email] });
    expect(await read(await deliver(recent))).toEqual({ received: true, suppressed: [email] });
  });

  it("answers 400 naming what is missing or malformed", async () => {
    const email = uniqueEmail("malformed");
    const good = await svixRequest(bouncedEvent(email));
    for (const header of ["svix-id", "svix-timestamp", "svix-signature"]) {
      const missing = await deliver(good, { [header]: null });
      expect(missing.status).toBe(400);
      expect(await read(missing)).toMatchObject({ field: header });
    }
    const notJson = await deliver(await svixRequest("{not json"));
    expect(notJson.status).toBe(400);
    expect(await read(notJson)).toMatchObject({ error: "The request body must be valid JSON." });
    const noRecipients = await deliver(
      await svixRequest(JSON.stringify({ type: "email.bounced", data: { email_id: "e1", to: [], bounce: { type: "Permanent" } } })),
    );
    expect(noRecipients.status).toBe(400);
    expect(await read(noRecipients)).toMatchObject({ field: "data.to" });
    const noBounce = await deliver(await svixRequest(JSON.stringify({ type: "email.bounced", data: { email_id: "e1", to: [email] } })));
    expect(noBounce.status).toBe(400);
    expect(await read(noBounce)).toMatchObject({ field: "data.bounce" });
    expect(await suppressionOf(testEnv.DB, email)).toBeNull();
  });

  it("keeps a hard bounce 180 days, then the cron forgets it; a complaint stays; another address is not touched", async () => {
    const bounced = uniqueEmail("old-bounce");
    const complained = uniqueEmail("old-complaint");
    const longAgo = Date.now() - HARD_BOUNCE_KEPT_MS - 86_400_000;
    await suppressAddress(testEnv.DB, bounced, "hard_bounce", { detail: "Permanent/General", eventId: null, at: longAgo });
    await suppressAddress(testEnv.DB, complained, "complaint", { detail: "Marked as spam", eventId: null, at: longAgo });
    // Past its time it no longer stops mail, even before the cron runs.
    expect(await suppressionOf(testEnv.DB, bounced)).toBeNull();
    expect(await suppressionOf(testEnv.DB, bounced, longAgo + 1000)).toMatchObject({ reason: "hard_bounce" });
    // A new address of the same person (a changed address) starts clean.
    expect(await suppressionOf(testEnv.DB, `new.${complained}`)).toBeNull();
    await pruneGrowingTables(testEnv);
    const rows = await database(testEnv.DB).query.emailSuppressions.findMany();
    expect(rows.map((row) => row.address)).not.toContain(bounced);
    expect(rows.map((row) => row.address)).toContain(complained);
  });
});
