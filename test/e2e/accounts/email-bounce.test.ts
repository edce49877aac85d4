import { describe, expect, it } from "vitest";
import { signUpInBrowser, uniqueEmail } from "../support/accounts.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";

// Issue 42, decision 097: the stack as `npm start` runs it. The e-mail stand-in, told that an address bounces,
// delivers Resend's signed webhook to the app by itself; the app then sends nothing more and says why.

const browser = useBrowser();

interface StandInEvent {
  type: string;
  delivery: string;
  attempts: { status: number | null }[];
}

async function deliveredEventsTo(address: string, count: number): Promise<StandInEvent[]> {
  for (let attempt = 0; attempt < 80; attempt += 1) {
    const events = (await (await fetch(`${sandboxUrl()}/__sandbox/email/events?to=${encodeURIComponent(address)}`)).json()) as StandInEvent[];
    if (events.length >= count && events.every((event) => event.delivery === "delivered" || event.delivery === "failed")) return events;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the stand-in's events about ${address} were not delivered`);
}

describe("an address that bounces", () => {
  it("is suppressed by the stand-in's own webhook delivery, and asking for the link again says why nothing comes", async () => {
    const email = uniqueEmail("bounces");
    const told = await fetch(`${sandboxUrl()}/__sandbox/email/recipients/${encodeURIComponent(email)}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ behaviour: "bounce" }),
    });
    expect(told.status).toBe(200);
    // The refusal is a 422, which the browser logs as a failed resource.
    const page = await browser.newPage({ allowConsoleErrors: /status of 422/ });
    await signUpInBrowser(page, { email });
    const events = await deliveredEventsTo(email, 2);
    expect(events.map((event) => [event.type, event.delivery, event.attempts.at(-1)?.status])).toEqual([
      ["email.sent", "delivered", 200],
      ["email.bounced", "delivered", 200],
    ]);

    await page.goto("/verify-email");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByRole("button", { name: "Resend verification e-mail" }).click();
    await page.getByText("We can't send e-mail to this address: an earlier message bounced.").waitFor();
    const outbox = (await (await fetch(`${sandboxUrl()}/__sandbox/outbox?to=${encodeURIComponent(email)}`)).json()) as unknown[];
    expect(outbox).toHaveLength(1);
  });
});
