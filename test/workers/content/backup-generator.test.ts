import { and, eq, lt } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_POSTS } from "../../../sandbox/blog-demo/posts.ts";
import { creditLedger, pinHistory } from "../../../workers/db/schema.ts";
import { ledgerOf } from "../../../workers/ledger/client.ts";
import { BATCH_NOT_FOUND } from "../../../workers/services/content/backup-generator.ts";
import { signUpUser, type TestUser } from "../accounts/accounts-support.ts";
import { connectProfile, grantCredits, pinterestName, remainingCredits } from "../pinterest/scheduling-support.ts";
import { app, testEnv } from "../support.ts";

// Issue 20, the backup generator: /backupGenerator's plain forms (no JavaScript) render the pins on
// the server, and a download or a schedule is charged once per form (its hidden idempotency key).

const blogPost = () => `${testEnv.SANDBOX_URL}/blog-demo/posts/${DEMO_POSTS[0].slug}`;

/** Sends a form the way a browser without JavaScript does: urlencoded, with the session cookie and our Origin. */
function sendForm(user: TestUser, path: string, fields: Record<string, string>, origin = "http://app.test") {
  return app(path, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: user.cookie, origin, host: "app.test", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

const page = (user: TestUser, path: string) => app(path, { headers: { cookie: user.cookie } });

async function spends(user: TestUser) {
  return ledgerOf(testEnv, user.userId)
    .db.select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, user.userId), lt(creditLedger.amount, 0)));
}

/** The hidden idempotency keys of a page's forms, in order: [download, schedule] per pin. */
function hiddenReferences(html: string): string[] {
  return [...html.matchAll(/name="reference" value="([^"]+)"/g)].map((match) => match[1]);
}

async function generate(user: TestUser, count = 2): Promise<{ batch: string; html: string }> {
  const response = await sendForm(user, "/backupGenerator", {
    intent: "generate",
    url: blogPost(),
    templateSet: "all",
    color1: "#1d3557",
    color2: "#e63946",
    color3: "#f1faee",
    count: String(count),
  });
  expect(response.status, await response.clone().text()).toBe(303);
  const location = new URL(response.headers.get("location")!, "http://app.test");
  expect(location.pathname).toBe("/backupGenerator");
  const batch = location.searchParams.get("batch")!;
  const shown = await page(user, `/backupGenerator?batch=${batch}`);
  expect(shown.status).toBe(200);
  return { batch, html: await shown.text() };
}

describe("/backupGenerator", () => {
  let user: TestUser;
  let batch: string;
  let html: string;
  beforeAll(async () => {
    user = await signUpUser({ firstName: "Basil" });
    await grantCredits(user, 20);
    ({ batch, html } = await generate(user, 2));
  }, 120_000);

  it("renders the page's pins on the server and shows them as images, with no credit used", async () => {
    const previews = [...html.matchAll(/<img class="backup-pin__image" src="([^"]+)"/g)].map((match) => match[1]);
    expect(previews).toHaveLength(2);
    for (const src of previews) {
      const image = await app(new URL(src).pathname);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/jpeg");
      const bytes = new Uint8Array(await image.arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    }
    expect(html).toContain(DEMO_POSTS[0].title);
    expect(await spends(user)).toEqual([]);
  });

  it("downloads a pin for one credit, and the same form sent again charges nothing more", async () => {
    const [downloadReference] = hiddenReferences(html);
    const fields = { intent: "download", batch, pin: "0", reference: downloadReference };
    const first = await sendForm(user, `/backupGenerator?batch=${batch}`, fields);
    expect(first.status).toBe(200);
    const firstHtml = await first.text();
    expect(firstHtml).toContain("Your pin is ready: 1 credit used.");
    const saved = firstHtml.match(/<a href="([^"]+)" download="([^"]+)">Save the image<\/a>/);
    expect(saved).not.toBeNull();
    const image = await app(new URL(saved![1]).pathname);
    expect(image.headers.get("content-type")).toBe("image/jpeg");

    const again = await sendForm(user, `/backupGenerator?batch=${batch}`, fields);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("already paid for: no credit used");
    const charged = await spends(user);
    expect(charged).toHaveLength(1);
    expect(charged[0].amount).toBe(-1);
    const history = await ledgerOf(testEnv, user.userId).db.select().from(pinHistory).where(eq(pinHistory.userId, user.userId));
    expect(history.map((entry) => entry.action)).toEqual(["downloaded"]);
  });

  it("schedules a pin to a board once per form", async () => {
    const profile = await connectProfile(user, pinterestName("backup"));
    const shown = await (await page(user, `/backupGenerator?batch=${batch}`)).text();
    expect(shown, shown.match(/<select id="backup-board-0"[\s\S]*?<\/select>/)?.[0]).toContain(profile.boards[0].name);
    const scheduleReference = hiddenReferences(shown)[3];
    const before = await remainingCredits(user);
    const fields = { intent: "schedule", batch, pin: "1", reference: scheduleReference, board: `${profile.username}/${profile.boards[0].id}`, when: "" };
    const first = await sendForm(user, `/backupGenerator?batch=${batch}`, fields);
    expect(first.status, await first.clone().text()).toBe(200);
    const firstHtml = await first.text();
    expect(firstHtml).toContain(`Scheduled to ${profile.boards[0].name} for`);
    const again = await sendForm(user, `/backupGenerator?batch=${batch}`, fields);
    expect(await again.text()).toContain("It was already scheduled: no credit used.");
    expect(await remainingCredits(user)).toBe(before - 1);
  }, 60_000);

  it("answers bad input with 400 and a message naming what to fix, changing nothing", async () => {
    const before = await spends(user);
    const cases: [Record<string, string>, string][] = [
      [{ intent: "generate", url: "" }, "Enter the address of a blog post or page"],
      [{ intent: "generate", url: blogPost(), count: "9" }, "Number of pins must be a whole number from 1 to 6"],
      [{ intent: "generate", url: blogPost(), color1: "red" }, "Colour 1 must be a colour such as #51c3a6"],
      [{ intent: "generate", url: blogPost(), templateSet: "No such set" }, "Choose a template set from the list"],
      [{ intent: "download", batch, pin: "0", reference: "x" }, "This form has expired. Reload the page and try again."],
      [{ intent: "schedule", batch, pin: "0", reference: "schedule-ref-0001", board: "" }, "Choose a board"],
    ];
    for (const [fields, message] of cases) {
      const response = await sendForm(user, "/backupGenerator", fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const text = await response.text();
      expect(text.includes(message), `${message} in ${text.match(/"error\\",\\"([^\\]+)/)?.[1]}`).toBe(true);
    }
    const missingPin = await sendForm(user, `/backupGenerator?batch=${batch}`, { intent: "download", batch, pin: "7", reference: "download-ref-0001" });
    expect(missingPin.status).toBe(404);
    expect(await spends(user)).toEqual(before);
  });

  it("keeps a batch to its owner, and refuses forms from other sites", async () => {
    const other = await signUpUser({ firstName: "Other" });
    await grantCredits(other, 5);
    const [downloadReference] = hiddenReferences(html);
    const stolen = await sendForm(other, `/backupGenerator?batch=${batch}`, { intent: "download", batch, pin: "0", reference: downloadReference });
    expect(stolen.status).toBe(404);
    expect(await stolen.text()).toContain(BATCH_NOT_FOUND);
    const shown = await page(other, `/backupGenerator?batch=${batch}`);
    expect(shown.status).toBe(404);
    expect(await shown.text()).not.toContain("backup-pin__image");

    const forged = await sendForm(
      user,
      `/backupGenerator?batch=${batch}`,
      { intent: "download", batch, pin: "1", reference: "forged-ref-0001" },
      "https://evil.example",
    );
    expect(forged.status).toBe(403);
    expect(await spends(other)).toEqual([]);
  });

  it("shows a signed-out visitor the sign-in prompt", async () => {
    const response = await app("/backupGenerator");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Basic pin generator");
  });
});
