import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { callApi } from "../support/admin.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";
import { BOARD, connectProfile, uniquePinterestUsername } from "../support/pinterest.ts";

const browser = useBrowser();

const DEMO_POST = "berry-smoothie-bowls";
/** "One of each image" makes a pin of each of the demo post's three images. */
const DEMO_IMAGES = 3;
const SECTION = "Breakfast";

interface SandboxPin {
  id: string;
  username: string;
  board_id: string;
  board_section_id: string | null;
  title: string;
  link: string;
  media: { source_type: string; url?: string };
}

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

/** The pins the stand-in received for an account. */
async function postedPins(username: string): Promise<SandboxPin[]> {
  const response = await fetch(`${sandboxUrl()}/__sandbox/pinterest/pins?username=${encodeURIComponent(username)}`);
  return (await response.json()) as SandboxPin[];
}

/** A datetime-local value in GMT (the default schedule's zone), with seconds that are not :00 (the field keeps them). */
function gmtFieldValue(ms: number): string {
  const at = ms % 60_000 < 1_000 ? ms + 1_000 : ms;
  return new Date(at).toISOString().slice(0, 19);
}

/** A time as the pages show it in the profile's zone (GMT here), e.g. "Thu, 3 Dec 2026, 09:30". */
function historyTime(ms: number): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: "Etc/GMT",
    hourCycle: "h23",
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(ms));
}

const cards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");

describe("scheduling pins to Pinterest", () => {
  it("asks logged-out visitors to log in on /scheduling and /pin-history", async () => {
    const page = await browser.newPage();
    await open(page, "/scheduling");
    await page.getByText("Login or sign up to edit scheduling settings.", { exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Login" }).first().getAttribute("href")).toBe("/login?redirectTo=%2Fscheduling");
    await open(page, "/pin-history");
    await page.getByText("Login or sign up to see your pin history.", { exact: true }).waitFor();
  });

  it("connects a profile, schedules 3 generated pins to a board, posts the refused duplicates anyway, shows them queued, then posted and once each in the pin history", {
    timeout: 240_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    const username = uniquePinterestUsername();

    // Connect through the consent page: the profile bar and the default settings appear.
    await connectProfile(page, username);
    const profiles = page.getByRole("region", { name: "Pinterest profiles" });
    await profiles.getByText(username, { exact: true }).waitFor();
    await profiles.getByText("Active", { exact: true }).waitFor();
    const times = page.getByRole("list", { name: "Daily posting times" });
    await times.waitFor();
    expect(await times.getByRole("listitem").count(), "the default schedule posts 20 pins a day").toBe(20);
    expect(page.url(), "the OAuth outcome leaves the address").toMatch(/\/scheduling$/);

    // Generate three pins from one blog post.
    await open(page, "/generate");
    const drawer = page.getByRole("complementary", { name: "Design settings" });
    await drawer.getByLabel("One of each image").check();
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBe(DEMO_IMAGES);
    const titles = await cards(page).evaluateAll((items) => items.map((item) => item.querySelector("h3")?.textContent ?? ""));

    // Bulk action: the board picker, at a date and time; a time in the past cannot be chosen.
    await page.getByLabel("Select all").check();
    await page.getByRole("button", { name: "Schedule selected" }).click();
    let dialog = page.getByRole("dialog", { name: `Schedule ${DEMO_IMAGES} pins` });
    const boardField = dialog.getByLabel("Board", { exact: true });
    await expect.poll(() => boardField.locator("option").count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await boardField.selectOption({ label: BOARD });
    await dialog.getByLabel("Section").selectOption({ label: SECTION });
    await dialog.getByLabel("At a date and time").check();
    const when = dialog.getByLabel("Date and time (GMT)");
    expect(Date.parse(`${await when.getAttribute("min")}Z`), "the field starts at now").toBeGreaterThan(Date.now() - 120_000);
    await when.fill(gmtFieldValue(Date.now() - 3_600_000));
    await dialog.getByRole("button", { name: `Schedule ${DEMO_IMAGES} pins` }).click();
    await dialog.getByText("Choose a time in the future", { exact: true }).waitFor();
    // Half an hour ahead, so the checks below never race the pins' time; they are brought forward before posting.
    const dueAt = Date.now() + 30 * 60_000;
    await when.fill(gmtFieldValue(dueAt));
    await dialog.getByRole("button", { name: `Schedule ${DEMO_IMAGES} pins` }).click();

    // Three pins with one link at one time on one board: the first is scheduled; the 48-hour rule refuses the
    // other two, each on its own card, in plain words with the time in the profile's zone; one summary.
    await page.getByText(`1 of ${DEMO_IMAGES} pins scheduled to ${BOARD}`, { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText("2 pins could not be scheduled. Each card says why.", { exact: true }).waitFor();
    expect(
      await cards(page)
        .nth(0)
        .getByText(/^Scheduled( · |$)/)
        .count(),
    ).toBe(1);
    const shownAt = historyTime(Date.parse(`${gmtFieldValue(dueAt)}Z`));
    for (const n of [1, 2]) {
      const problem = (await cards(page).nth(n).locator(".post-card__error").textContent()) ?? "";
      expect(problem).toBe(
        `Not scheduled: the same link is already scheduled to ${BOARD} for ${shownAt} GMT ("${titles[0]}"). A link is posted to a board at most once in 48 hours.`,
      );
      expect(problem).not.toMatch(/allowDuplicate|scheduledTime|409|\d{4}-\d{2}-\d{2}T/);
    }
    expect(await cards(page).locator(".post-card__error").count()).toBe(2);

    // The dialog opens on the queue again, without the duplicate allowance, and keeps the board.
    await page.getByRole("button", { name: "Schedule selected" }).click();
    dialog = page.getByRole("dialog", { name: `Schedule ${DEMO_IMAGES} pins` });
    await expect.poll(() => dialog.getByLabel("The next free times in the queue").isChecked(), { timeout: 20_000 }).toBe(true);
    expect(await dialog.getByLabel("At a date and time").isChecked()).toBe(false);
    expect(await dialog.getByLabel("Post even if the same link goes to this board within 48 hours").isChecked()).toBe(false);
    expect(await dialog.getByLabel("Board", { exact: true }).inputValue(), "the dialog remembers the board").not.toBe("");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);

    // "Post it anyway", one card at a time: each is scheduled for the time chosen.
    for (const n of [2, 3]) {
      await page.getByRole("button", { name: `Post it anyway: pin ${n}` }).click();
      await expect
        .poll(
          () =>
            cards(page)
              .nth(n - 1)
              .getByText(/^Scheduled( · |$)/)
              .count(),
          { timeout: 30_000 },
        )
        .toBe(1);
    }
    expect(await cards(page).locator(".post-card__error").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Post it anyway/ }).count()).toBe(0);

    // The queue of /scheduling lists them (before their time), with board and status; the calendar counts them.
    await open(page, "/scheduling");
    const queue = page.getByRole("list", { name: "Queue" });
    await expect.poll(() => queue.getByRole("listitem").count(), { timeout: 15_000 }).toBe(DEMO_IMAGES);
    expect(Date.now(), "the queue was seen before the pins were due").toBeLessThan(dueAt);
    for (const title of titles) await queue.getByRole("heading", { name: title, exact: true }).first().waitFor();
    expect(await queue.getByText(BOARD, { exact: true }).count()).toBe(DEMO_IMAGES);
    const calendarDay = (at: number) => page.locator(`.calendar button[data-day="${new Date(at).toISOString().slice(0, 10)}"]`);
    await expect.poll(() => calendarDay(dueAt).getAttribute("aria-label")).toMatch(/3 scheduled/);
    await calendarDay(dueAt).click();
    await page.getByRole("heading", { name: /^Pins on / }).waitFor();
    expect(
      await page
        .getByRole("list", { name: /^Pins on / })
        .getByRole("listitem")
        .count(),
    ).toBe(DEMO_IMAGES);

    // Each is scheduled for the time chosen in the dialog, not the click.
    const queued = await page.evaluate(async (name) => {
      const response = await fetch(`/api/scheduling/getScheduledPins/${encodeURIComponent(name)}`, {
        headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` },
      });
      return ((await response.json()) as { scheduledPins: { id: string; scheduledTimeUTCTimestamp: number }[] }).scheduledPins;
    }, username);
    expect(queued).toHaveLength(DEMO_IMAGES);
    for (const pin of queued) expect(Math.abs(pin.scheduledTimeUTCTimestamp - dueAt), "scheduled for the chosen time").toBeLessThan(2_000);

    // Brought forward to a few seconds from now (one change for the three), they post at that time to the board
    // and section, once each.
    const postAt = Date.now() + 5_000;
    const moved = await callApi(page, "/api/scheduling/updateScheduledPins", {
      pinterestUsername: username,
      // Three of one link on one board at one time: the 48-hour rule is waived, as "Post it anyway" did above.
      pinsToUpdate: queued.map((pin) => ({ id: pin.id, scheduledTime: postAt, allowDuplicate: true })),
    });
    expect(moved.status).toBe(200);
    await expect.poll(async () => (await postedPins(username)).length, { timeout: 90_000, interval: 1_000 }).toBe(DEMO_IMAGES);
    const posted = await postedPins(username);
    expect(new Set(posted.map((pin) => pin.board_section_id)).size).toBe(1);
    expect(posted[0].board_section_id).not.toBeNull();
    expect(posted.every((pin) => pin.link.endsWith(`/blog-demo/posts/${DEMO_POST}`))).toBe(true);
    expect(posted.map((pin) => pin.title).sort()).toEqual([...titles].sort());
    expect(posted.every((pin) => pin.media.source_type === "image_url")).toBe(true);

    // /pin-history: one entry per pin, posted, with the time it was scheduled for and the time it was posted
    // (in the profile's zone), its Pinterest link and the credit its scheduling cost.
    await expect
      .poll(
        async () => {
          await open(page, "/pin-history");
          const list = page.getByRole("list", { name: "Pin history" });
          await list
            .or(page.getByText("No pins yet.", { exact: false }))
            .first()
            .waitFor();
          return list.getByRole("listitem", { name: /^Posted: / }).count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(DEMO_IMAGES);
    const history = page.getByRole("list", { name: "Pin history" });
    expect(await history.getByRole("listitem").count(), "one entry per pin").toBe(DEMO_IMAGES);
    const links = await history.getByRole("link", { name: "View on Pinterest" }).evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")));
    expect(links.sort()).toEqual(posted.map((pin) => `https://www.pinterest.com/pin/${pin.id}/`).sort());
    for (const entry of await history.getByRole("listitem").all()) {
      expect(await entry.getByText("1 credit", { exact: true }).count()).toBe(1);
      expect(await entry.locator("dt").allTextContents()).toEqual(["Scheduled for", "Posted"]);
      const [scheduledFor, postedAt] = await entry.locator("time").evaluateAll((nodes) => nodes.map((node) => Date.parse(node.getAttribute("datetime") ?? "")));
      expect(Math.abs(scheduledFor - postAt), "scheduled for the time it was given").toBeLessThan(2_000);
      expect(postedAt).toBeGreaterThanOrEqual(scheduledFor);
      expect(await entry.locator("time").first().textContent()).toBe(`${historyTime(postAt)} GMT`);
    }
    // The history fits a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowing(page)).toEqual([]);
    await page.setViewportSize({ width: 1400, height: 1000 });

    // Back on /scheduling, the posted view holds them and the calendar counts them as posted.
    await open(page, "/scheduling");
    await expect.poll(() => calendarDay(postAt).getAttribute("aria-label"), { timeout: 15_000 }).toMatch(/3 posted/);
    await page.getByLabel("Show", { exact: true }).selectOption("posted");
    await expect.poll(() => page.getByRole("list", { name: "Queue" }).getByText("Posted", { exact: true }).count()).toBe(DEMO_IMAGES);
  });

  it("offers more boards when pins of one post would wait 48 hours each, spreads them, and says when they post (issue 40 point 1)", {
    timeout: 120_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    await connectProfile(page, uniquePinterestUsername());
    await open(page, "/generate");
    await page.getByRole("complementary", { name: "Design settings" }).getByLabel("One of each image").check();
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBe(DEMO_IMAGES);

    await page.getByLabel("Select all").check();
    await page.getByRole("button", { name: "Schedule selected" }).click();
    const dialog = page.getByRole("dialog", { name: `Schedule ${DEMO_IMAGES} pins` });
    const boardField = dialog.getByLabel("Board", { exact: true });
    await expect.poll(() => boardField.locator("option").count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await boardField.selectOption({ label: BOARD });
    await dialog.locator('.board-fields[aria-busy="false"]').waitFor();
    // Three pins of one link on one board: 48 hours apart, the last 4 days after the first; more boards are offered.
    const offer = dialog.getByRole("group", { name: "Post them sooner" });
    await offer
      .getByText(`3 of these pins share one post's link: on ${BOARD} they post 48 hours apart, the last about 4 days from the first.`, { exact: false })
      .waitFor();
    await offer.getByLabel("Also post to Travel Inspiration").check();
    await offer.getByLabel("Also post to Home Decor Ideas").check();
    await offer.getByText("Spread over 3 boards: all within a day.", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: `Schedule ${DEMO_IMAGES} pins` }).click();

    // One summary for the three boards, saying when they post; each card says when.
    const summary = page.getByText(`3 pins scheduled to ${BOARD} and 2 more boards`, { exact: true }).first();
    await summary.waitFor({ timeout: 60_000 });
    await page
      .getByText(/^(All post today, the last at|\d today, the last on|The first on) .*\(GMT time\)\.$/)
      .first()
      .waitFor();
    await expect
      .poll(() =>
        cards(page)
          .getByText(/^Scheduled · \w{3} \d{1,2} \w{3} at \d{2}:\d{2}$/)
          .count(),
      )
      .toBe(DEMO_IMAGES);
    expect(await cards(page).locator(".post-card__error").count()).toBe(0);
  });

  it("schedules a pin repeating every 7 days, lists it under Repeating pins, changes its interval and deletes it", { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signUpVerified(page);
    await connectProfile(page, uniquePinterestUsername());
    await page.getByRole("heading", { name: "Repeating pins" }).waitFor();
    await page.getByText("No repeating pins.", { exact: false }).waitFor();

    await open(page, "/generate");
    await page.getByRole("complementary", { name: "Design settings" }).getByLabel("One of each image").check();
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBe(DEMO_IMAGES);
    const title = (await cards(page).first().locator("h3").textContent()) ?? "";
    await page.getByLabel("Select pin 1", { exact: true }).check();
    await page.getByRole("button", { name: "Schedule selected" }).click();
    const dialog = page.getByRole("dialog", { name: "Schedule 1 pin" });
    const boardField = dialog.getByLabel("Board", { exact: true });
    await expect.poll(() => boardField.locator("option").count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await boardField.selectOption({ label: BOARD });
    await dialog.locator('.board-fields[aria-busy="false"]').waitFor(); // the board's sections may add a field above
    // Two days ahead: the pin stays in the queue for the whole test.
    await dialog.getByLabel("At a date and time").check();
    const chosen = gmtFieldValue(Date.now() + 2 * 86_400_000);
    await dialog.getByLabel("Date and time (GMT)").fill(chosen);
    // Its groups are fieldsets for their legends, never framed in the browser's raw border.
    for (const name of ["When", "Repeat"]) {
      expect(await dialog.getByRole("group", { name }).evaluate((fieldset) => getComputedStyle(fieldset).borderTopStyle), name).toBe("none");
    }

    // The interval is checked before anything is sent, and is reachable by keyboard.
    await dialog.getByLabel("Repeat every 7 days").focus();
    await page.keyboard.press("Space");
    expect(await dialog.getByLabel("Repeat every 7 days").isChecked()).toBe(true);
    await dialog.getByLabel("Days between repeats").fill("1");
    await dialog.getByRole("button", { name: "Schedule 1 pin" }).click();
    await dialog.getByText("Enter whole days from 2 to 365", { exact: true }).waitFor();
    await dialog.getByLabel("Days between repeats").fill("7");
    await dialog.getByRole("button", { name: "Schedule 1 pin" }).click();
    await page.getByText(`1 pin scheduled to ${BOARD}`, { exact: true }).waitFor({ timeout: 30_000 });

    // /pin-history: the pin is scheduled for the time chosen (in the profile's zone), not for the moment of the click.
    await open(page, "/pin-history");
    const entry = page.getByRole("list", { name: "Pin history" }).getByRole("listitem", { name: `Scheduled: ${title}` });
    await entry.waitFor({ timeout: 15_000 });
    expect(await entry.locator("dt").allTextContents()).toEqual(["Scheduled for"]);
    expect(await entry.locator("time").getAttribute("datetime")).toBe(new Date(`${chosen}Z`).toISOString());
    expect(await entry.getByText("1 credit", { exact: true }).count()).toBe(1);

    // /scheduling: the queue holds the first post; the repeating pin posts again 7 days after it.
    await open(page, "/scheduling");
    const queued = page.getByRole("list", { name: "Queue" }).getByRole("listitem");
    await expect.poll(() => queued.count(), { timeout: 15_000 }).toBe(1);
    const repeating = page.getByRole("list", { name: "Repeating pins" }).getByRole("listitem");
    await expect.poll(() => repeating.count(), { timeout: 15_000 }).toBe(1);
    const item = repeating.first();
    await item.getByRole("heading", { name: title, exact: true }).waitFor();
    await item.getByText(BOARD, { exact: true }).waitFor();
    await item.getByText("Every 7 days", { exact: true }).waitFor();
    const firstAt = Date.parse((await queued.first().locator("time").getAttribute("datetime")) ?? "");
    const nextAt = Date.parse((await item.locator("time").getAttribute("datetime")) ?? "");
    expect(nextAt - firstAt).toBe(7 * 86_400_000);

    // Change the interval: saved, and still so after a reload.
    await item.getByRole("button", { name: `Change the interval of ${title}` }).click();
    await item.getByLabel("Repeat every (days)").fill("14");
    await item.getByRole("button", { name: "Save interval" }).click();
    await page.getByText("Updated pins successfully", { exact: true }).waitFor();
    await item.getByText("Every 14 days", { exact: true }).waitFor();
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByRole("list", { name: "Repeating pins" }).getByText("Every 14 days", { exact: true }).waitFor({ timeout: 15_000 });

    // Delete it: gone from the panel (and after a reload); the pin already queued stays.
    await page
      .getByRole("list", { name: "Repeating pins" })
      .getByRole("button", { name: `Delete repeating pin ${title}` })
      .click();
    await page.getByRole("alertdialog", { name: "Delete this repeating pin?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByText("Repeating pin deleted", { exact: true }).waitFor();
    await page.getByText("No repeating pins.", { exact: false }).waitFor();
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByText("No repeating pins.", { exact: false }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByRole("list", { name: "Queue" }).getByRole("listitem").count(), { timeout: 15_000 }).toBe(1);
  });

  it("fits a phone: profiles, settings, queue and calendar stack", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signUpVerified(page);
    await connectProfile(page, uniquePinterestUsername());
    await page.getByRole("list", { name: "Daily posting times" }).waitFor();
    await page.getByRole("heading", { name: "Calendar" }).waitFor();
    expect(await overflowing(page)).toEqual([]);

    // The settings save, and the daily times follow the fields.
    await page.getByLabel("Pins per day").fill("4");
    await expect.poll(() => page.getByRole("list", { name: "Daily posting times" }).getByRole("listitem").count()).toBe(4);
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Scheduling settings saved", { exact: true }).waitFor();
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await expect.poll(() => page.getByLabel("Pins per day").inputValue(), { timeout: 15_000 }).toBe("4");

    // The calendar is reachable by keyboard: arrows move between days.
    await page.locator('.calendar button[tabindex="0"]').focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-day"))).toMatch(/-02$/);
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-day"))).toMatch(/-09$/);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: /^Pins on / }).waitFor();
  });
});
