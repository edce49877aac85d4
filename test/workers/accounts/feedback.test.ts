import { describe, expect, it } from "vitest";
import { FEEDBACK_EMAIL_INVALID, FEEDBACK_FAILED, FEEDBACK_TEXT_REQUIRED } from "../../../contracts/accounts/feedback.ts";
import { sendEmail } from "../../../workers/integrations/email.ts";
import { json } from "./accounts-support.ts";
import { app, read, sandbox, testEnv } from "../support.ts";

interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  replyTo: string[];
}

let ipCounter = 0;
/** A client address of its own per test, so rate limits of one test never touch another. */
function freshIp() {
  ipCounter += 1;
  return `192.0.2.${(ipCounter % 250) + 1}`;
}

const send = (body: unknown, ip = freshIp()) => app("/api/sendEmail", json(body, { "cf-connecting-ip": ip }));

/** The messages the support address received that contain `marker`. */
async function supportMailWith(marker: string): Promise<Mail[]> {
  const mails = await sandbox<Mail[]>(`/outbox?to=${encodeURIComponent(testEnv.CONTACT_EMAIL)}`);
  return mails.filter((mail) => mail.text.includes(marker));
}

describe("POST /api/sendEmail (the contact page's feedback)", () => {
  it("delivers the message to the support address, with replies going to the sender", async () => {
    const marker = `Scheduler idea ${crypto.randomUUID()}`;
    const response = await send({ feedbackText: `${marker}\nCould boards be sorted <b>by name</b>?`, userEmail: " Reader@Example.com " });
    expect(response.status).toBe(200);
    expect(await read(response)).toEqual({ status: "success" });
    const [mail, ...others] = await supportMailWith(marker);
    expect(others).toEqual([]);
    expect(mail.to).toEqual([testEnv.CONTACT_EMAIL]);
    expect(mail.subject).toBe(`Feedback: ${marker}`);
    expect(mail.replyTo).toEqual(["reader@example.com"]);
    expect(mail.text).toContain("Could boards be sorted <b>by name</b>?");
    expect(mail.text).toContain("would like a response at reader@example.com");
    // The sender's text is shown, never interpreted, in the HTML part.
    expect(mail.html).toContain("Could boards be sorted &lt;b&gt;by name&lt;/b&gt;?");
  });

  it("keeps a carriage return or line break of the message out of the subject, and out of every header sent", async () => {
    const marker = `Header ${crypto.randomUUID()}`;
    // A bare CR (no LF) once reached the subject: "Feedback: <marker>\rBcc: victim@example.com".
    for (const text of [`${marker}\rBcc: victim@example.com`, `${marker}\u2028Bcc: victim@example.com`, `${marker}\r\nBcc: victim@example.com`]) {
      expect(await read(await send({ feedbackText: text }))).toEqual({ status: "success" });
    }
    const mails = await supportMailWith(marker);
    expect(mails).toHaveLength(3);
    for (const mail of mails) expect(mail.subject).toBe(`Feedback: ${marker}`);

    // The client itself: whatever a template builds, no header it sends holds a line break.
    const injected = `Hello ${marker}\r\nBcc: victim@example.com\rX-Evil: 1`;
    const to = `header-${crypto.randomUUID()}@example.com`;
    await sendEmail(testEnv, {
      to: `${to}\r\n`,
      subject: injected,
      text: marker,
      html: `<p>${marker}</p>`,
      replyTo: "reply@example.com\nBcc: victim@example.com",
      headers: { "X-Note": "one\r\ntwo" },
    });
    const [sent] = await sandbox<(Mail & { headers?: Record<string, string> })[]>(`/outbox?to=${encodeURIComponent(to)}`);
    expect(sent).toBeDefined();
    expect(sent!.subject).toBe(`Hello ${marker} Bcc: victim@example.com X-Evil: 1`);
    for (const value of [sent!.subject, ...sent!.to, ...sent!.replyTo, ...Object.values(sent!.headers ?? {})]) expect(value).not.toMatch(/[\r\n]/);
  });

  it("sends a message without an address: no reply-to, and says no response was asked for", async () => {
    const marker = `Anonymous note ${crypto.randomUUID()}`;
    for (const userEmail of [undefined, "", null]) {
      const response = await send({ feedbackText: marker, ...(userEmail === undefined ? {} : { userEmail }) });
      expect(await read(response)).toEqual({ status: "success" });
    }
    const mails = await supportMailWith(marker);
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      expect(mail.replyTo).toEqual([]);
      expect(mail.text).toContain("The sender did not ask for a response.");
    }
  });

  it("refuses bad input with 400 naming the field, and sends nothing", async () => {
    const marker = `Refused ${crypto.randomUUID()}`;
    const cases: [unknown, string, string][] = [
      [{ userEmail: "a@example.com" }, "feedbackText", "feedbackText is required"],
      [{ feedbackText: "   \n  " }, "feedbackText", FEEDBACK_TEXT_REQUIRED],
      [{ feedbackText: 42 }, "feedbackText", "feedbackText must be text"],
      [{ feedbackText: marker + "x".repeat(5001) }, "feedbackText", "Please keep your message under 5000 characters."],
      [{ feedbackText: marker, userEmail: "not-an-address" }, "userEmail", FEEDBACK_EMAIL_INVALID],
      [{ feedbackText: marker, userEmail: "reader@" }, "userEmail", FEEDBACK_EMAIL_INVALID],
      [{ feedbackText: marker, userEmail: 7 }, "userEmail", "userEmail must be text"],
    ];
    for (const [body, field, error] of cases) {
      const response = await send(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await read(response)).toEqual({ error, field });
    }
    expect(await supportMailWith(marker)).toEqual([]);
  });

  it("answers 'fail' when the e-mail provider refuses the message", async () => {
    await sandbox("/faults", { method: "POST", json: { service: "email", method: "POST", path: "/emails", status: 503 } });
    const marker = `Lost note ${crypto.randomUUID()}`;
    const failed = await send({ feedbackText: marker });
    expect(failed.status).toBe(502);
    expect(await read(failed)).toEqual({ status: "fail", error: FEEDBACK_FAILED });
    expect(await supportMailWith(marker)).toEqual([]);
    // The fault was for one call: the next message goes through.
    expect(await read(await send({ feedbackText: marker }))).toEqual({ status: "success" });
    expect(await supportMailWith(marker)).toHaveLength(1);
  });

  it("limits one client address to 5 messages an hour, without sending the refused ones", async () => {
    const ip = freshIp();
    const marker = `Flood ${crypto.randomUUID()}`;
    for (let i = 0; i < 5; i++) expect((await send({ feedbackText: `${marker} ${i}` }, ip)).status).toBe(200);
    const limited = await send({ feedbackText: `${marker} 5` }, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await read(limited)).error).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(await supportMailWith(marker)).toHaveLength(5);
    // Another visitor is not held back.
    expect((await send({ feedbackText: `${marker} other` })).status).toBe(200);
  });
});
