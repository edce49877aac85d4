import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified, uniqueEmail } from "../support/accounts.ts";
import { callApi } from "../support/admin.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { BOARD, connectProfile, uniquePinterestUsername } from "../support/pinterest.ts";

// Post approvals (issue 20, decision 052), end to end: an owner requires approval on a profile and invites a
// reviewer; the reviewer, in their own browser through the e-mailed link, approves two of three pins and
// rejects one; the two post, and the third's credit comes back on the owner's credits display.

const browser = useBrowser();

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

async function sandboxJson<T>(path: string): Promise<T> {
  const response = await fetch(`${sandboxUrl()}/__sandbox${path}`);
  return (await response.json()) as T;
}

/** The link of the review invitation e-mailed to an address (the sandbox's outbox). */
async function reviewLink(address: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = await sandboxJson<{ subject: string; links: string[] }[]>(`/outbox?to=${encodeURIComponent(address)}`);
        link = mails.at(-1)?.links.find((candidate) => new URL(candidate).pathname === "/post-approvals");
        return Boolean(link);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link as string;
}

/** "3 of 10 pin credits used this month" on the navbar: the used count. */
async function creditsUsed(page: Page): Promise<number> {
  const pill = page.getByTestId("nav-credits").first();
  await pill.waitFor();
  const sentence = (await pill.locator(".visually-hidden").textContent()) ?? "";
  const used = /^(\d+(?:\.\d+)?) of /.exec(sentence)?.[1];
  if (used === undefined) throw new Error(`no credit count in "${sentence}"`);
  return Number(used);
}

describe("post approvals", () => {
  it("asks logged-out visitors to log in", async () => {
    const page = await browser.newPage();
    await open(page, "/post-approvals");
    await page.getByText("Login or sign up to have your pins approved before they are posted.", { exact: true }).waitFor();
  });

  it("an owner invites a reviewer, who approves two of three pins and rejects one: the two post, the third's credit returns", {
    timeout: 300_000,
  }, async () => {
    const owner = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { email: ownerEmail } = await signUpVerified(owner);
    const username = uniquePinterestUsername();
    await connectProfile(owner, username);

    // Approval on, and a reviewer invited by e-mail.
    await open(owner, "/post-approvals");
    const card = owner.getByRole("listitem", { name: username });
    await card.getByLabel("Approval required").check();
    await owner.getByText(`Approval is now required for ${username}`).first().waitFor();
    const reviewerEmail = uniqueEmail("client");
    await card.getByLabel("Reviewer's e-mail").fill(reviewerEmail);
    await card.getByRole("button", { name: "Invite reviewer" }).click();
    await owner.getByText(`Invitation sent to ${reviewerEmail}`).first().waitFor();
    await card.getByRole("button", { name: `Remove ${reviewerEmail}` }).waitFor();
    // Inviting them again the same day sends nothing new (decision 080): the owner is told when it went.
    await card.getByLabel("Reviewer's e-mail").fill(reviewerEmail);
    await card.getByRole("button", { name: "Invite reviewer" }).click();
    await owner.getByText(`An invitation is already on its way to ${reviewerEmail}`).first().waitFor();
    await owner
      .getByText(/^It was e-mailed on \w+day,? \d{1,2} \w+ \d{4},?( at)? \d{2}:\d{2}, less than a day ago, so it was not sent again\. The link in it works\.$/)
      .first()
      .waitFor();
    expect(await sandboxJson<unknown[]>(`/outbox?to=${encodeURIComponent(reviewerEmail)}`)).toHaveLength(1);
    expect(await seriousAxeViolations(owner, "/post-approvals (owner)")).toEqual([]);

    // Three pins scheduled to the profile: each costs a credit and waits for approval.
    await open(owner, "/post-approvals");
    const usedBefore = await creditsUsed(owner);
    const accounts = await sandboxJson<{ username: string; boards: { id: string; name: string }[] }[]>("/pinterest/accounts");
    const board = accounts.find((account) => account.username === username)!.boards.find((b) => b.name === BOARD)!;
    // An hour ahead: the review below never races the pins' time (they are brought forward once approved).
    const dueAt = Date.now() + 3_600_000;
    const titles = ["Amalfi coast in three days", "Where to eat in Positano", "The Path of the Gods at dawn"];
    const scheduled = await callApi(owner, "/api/scheduling/schedulePin", {
      pins: titles.map((title, i) => ({
        title,
        description: `A slow travel guide, part ${i + 1}.`,
        altText: `Cliffs over the sea (${i + 1})`,
        url: `${sandboxUrl()}/blog-demo/posts/amalfi-coast-itinerary?part=${i + 1}`,
        imageURL: `${sandboxUrl()}/blog-demo/images/amalfi-coast-itinerary-1.jpg`,
        boardId: board.id,
        boardName: board.name,
        pinterestProfileUsername: username,
        type: "SpecificDate",
        scheduledTime: dueAt + i * 1_000,
      })),
    });
    expect(scheduled.status).toBe(201);
    expect(scheduled.body.scheduledPins.map((pin: { status: string }) => pin.status)).toEqual(["awaiting", "awaiting", "awaiting"]);
    await open(owner, "/post-approvals");
    await expect.poll(() => creditsUsed(owner)).toBe(usedBefore + 3);
    await card.getByRole("heading", { name: "Waiting for approval (3)" }).waitFor();

    // The reviewer, in a browser of their own, opens the e-mailed link: the three pins, in plain words.
    const reviewer = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await open(reviewer, await reviewLink(reviewerEmail));
    await reviewer.getByRole("heading", { name: "Pins waiting for your approval" }).waitFor();
    const pins = reviewer.locator(".approvals-pins > li");
    await expect.poll(() => pins.count()).toBe(3);
    const first = reviewer.getByRole("listitem", { name: titles[0] });
    await first.getByText(BOARD, { exact: true }).waitFor();
    await first.getByText("A slow travel guide, part 1.", { exact: true }).waitFor();
    expect(await first.getByRole("img", { name: "Cliffs over the sea (1)" }).count()).toBe(1);
    const goesOut = (await first.locator("dd").nth(2).textContent()) ?? "";
    expect(goesOut).not.toMatch(/\d{4}-\d{2}-\d{2}T|Z$/);
    expect(goesOut).toMatch(/^\w+day,? \d{1,2} \w+ \d{4},?( at)? \d{2}:\d{2}$/);
    expect(await seriousAxeViolations(reviewer, "/post-approvals (reviewer, phone)")).toEqual([]);

    // Reject one with a comment, then approve the other two together.
    await reviewer.getByLabel(`Comment on “${titles[2]}” (optional)`).fill("Not this photo, please");
    await reviewer.getByRole("button", { name: `Reject “${titles[2]}”` }).click();
    await reviewer.getByText("1 pin rejected", { exact: true }).first().waitFor();
    await expect.poll(() => pins.count()).toBe(2);
    await reviewer.getByLabel("Select all").check();
    await reviewer.getByRole("button", { name: "Approve selected (2)" }).click();
    await reviewer.getByText("2 pins approved", { exact: true }).first().waitFor();
    await reviewer.getByText("Nothing is waiting for your review right now.").waitFor();

    // The owner: the decisions with the comment, one e-mail for each batch, and the credit back.
    await open(owner, "/post-approvals");
    await card.getByRole("heading", { name: "Waiting for approval (0)" }).waitFor();
    await card.getByText("Not this photo, please").waitFor();
    expect(await card.getByText("Approved", { exact: true }).count()).toBe(2);
    expect(await card.getByText("Rejected", { exact: true }).count()).toBe(1);
    const mails = await sandboxJson<{ subject: string }[]>(`/outbox?to=${encodeURIComponent(ownerEmail)}`);
    expect(mails.filter((mail) => mail.subject.startsWith(`${reviewerEmail} reviewed`)).map((mail) => mail.subject)).toEqual([
      `${reviewerEmail} reviewed a pin for ${username} (1 rejected)`,
      `${reviewerEmail} reviewed 2 pins for ${username} (2 approved)`,
    ]);
    await expect.poll(() => creditsUsed(owner)).toBe(usedBefore + 2);

    // The owner brings the two approved pins forward to a few seconds from now: they post, once each; the
    // rejected one never does.
    const [firstId, secondId] = scheduled.body.scheduledPins.map((pin: { id: string }) => pin.id);
    const soon = Date.now() + 5_000;
    const moved = await callApi(owner, "/api/scheduling/updateScheduledPins", {
      pinterestUsername: username,
      pinsToUpdate: [
        { id: firstId, scheduledTime: soon },
        { id: secondId, scheduledTime: soon + 1_000 },
      ],
    });
    expect(moved.status).toBe(200);
    await expect
      .poll(async () => (await sandboxJson<{ title: string }[]>(`/pinterest/pins?username=${username}`)).map((pin) => pin.title).sort(), {
        timeout: 90_000,
        interval: 1_000,
      })
      .toEqual([titles[0], titles[1]].sort());
  });
});
