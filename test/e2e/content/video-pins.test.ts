import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signUpVerified } from "../support/accounts.ts";
import { sandboxUrl, useBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { overflowing } from "../support/layout.ts";
import { BOARD, connectProfile, uniquePinterestUsername } from "../support/pinterest.ts";

/**
 * Issue 15, end to end: a video pin made on /generate from a video template
 * (the FFmpeg service behind the queue), played on its card, uploaded to the
 * Pinterest stand-in's media and scheduled 5 s ahead, then posted by the
 * scheduler as a video pin with its media id.
 */

const browser = useBrowser();
const DEMO_POST = "berry-smoothie-bowls";

interface SandboxPin {
  id: string;
  title: string | null;
  media: { source_type: string; media_id?: string; cover_image_url?: string | null };
}

async function sandboxJson<T>(path: string): Promise<T> {
  const response = await fetch(`${sandboxUrl()}/__sandbox${path}`);
  if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/** A datetime-local value in GMT (the default schedule's zone), with seconds that are not :00 (the field keeps them). */
function gmtFieldValue(ms: number): string {
  const at = ms % 60_000 < 1_000 ? ms + 1_000 : ms;
  return new Date(at).toISOString().slice(0, 19);
}

const cards = (page: Page) => page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");
const videoCards = (page: Page) => page.getByRole("list", { name: "Video pins" }).getByRole("listitem");

describe("video pins", () => {
  it("makes a video pin from a video template, follows it to done, plays it, and schedules it to post 5 s later with its Pinterest media id", async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    await signUpVerified(page);
    const username = uniquePinterestUsername();
    await connectProfile(page, username);

    await page.goto("/generate");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const title = ((await cards(page).first().locator("h3").textContent()) ?? "").trim();

    // Choose a video template by keyboard; no video of the library: the pin's picture zooms and pans.
    await page.getByRole("button", { name: "Make video of pin 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Make a video pin" });
    const templates = dialog.getByRole("group", { name: "Video template" }).getByRole("radio");
    await expect.poll(() => templates.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
    await dialog.getByRole("radio", { name: "Video with caption", exact: true }).focus();
    await page.keyboard.press("Space");
    expect(await dialog.getByRole("radio", { name: "Video with caption", exact: true }).isChecked()).toBe(true);
    await dialog.getByText("No video chosen: the pin's picture slowly zooms and pans there instead.").waitFor();
    expect(await seriousAxeViolations(page, "video pin dialog")).toEqual([]);
    await dialog.getByRole("button", { name: "Create video" }).click();
    // Creating renders the template around its video box first: it may take a few seconds.
    await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);

    // Its card shows where the job stands, with a progress bar, then the video.
    const card = videoCards(page).first();
    await card.getByRole("heading", { name: title }).waitFor();
    await card.getByText("Video with caption", { exact: true }).waitFor();
    const bar = card.getByRole("progressbar");
    // A new card starts queued: its bar is there with a value from 0 to 100 until the video is done.
    await bar.waitFor();
    expect(Number(await bar.getAttribute("aria-valuenow"))).toBeGreaterThanOrEqual(0);
    expect(await bar.getAttribute("aria-valuetext")).toMatch(/^(Queued|Rendering \(\d+%\)|Done)$/);
    const player = card.locator("video");
    await player.waitFor({ timeout: 180_000 });
    const videoURL = (await player.getAttribute("src")) ?? "";
    const poster = (await player.getAttribute("poster")) ?? "";
    expect(videoURL).toMatch(/\/media\/.+\.mp4$/);
    expect(poster).toMatch(/\/media\/.+\.jpe?g$/);
    await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    expect(await player.evaluate((video: HTMLVideoElement) => [video.videoWidth, video.videoHeight])).toEqual([1000, 1500]);
    const download = card.getByRole("link", { name: "Download video pin 1" });
    expect(await download.getAttribute("href")).toBe(videoURL);
    expect(await download.getAttribute("download")).toMatch(/\.mp4$/);
    const file = await page.request.get(videoURL);
    expect(await seriousAxeViolations(page, "a made video pin")).toEqual([]);
    expect(file.headers()["content-type"]).toBe("video/mp4");

    // Schedule it 5 s ahead: uploaded to Pinterest's media, then scheduled.
    await card.getByRole("button", { name: "Schedule video pin 1" }).click();
    const schedule = page.getByRole("dialog", { name: "Schedule 1 pin" });
    const board = schedule.getByLabel("Board", { exact: true });
    await expect.poll(() => board.locator("option").count(), { timeout: 20_000 }).toBeGreaterThan(1);
    await board.selectOption({ label: BOARD });
    await schedule.locator('.board-fields[aria-busy="false"]').waitFor(); // the board's sections may add a field above
    await schedule.getByLabel("At a date and time").check();
    await schedule.getByLabel("Date and time (GMT)").fill(gmtFieldValue(Date.now() + 5_000));
    await schedule.getByRole("button", { name: "Schedule 1 pin" }).click();
    await page.getByText(`1 video pin scheduled to ${BOARD}`, { exact: true }).first().waitFor({ timeout: 60_000 });
    await card.getByRole("button", { name: "Scheduled video pin 1" }).waitFor();

    // The stand-in processed the upload, and the scheduler posts the pin with that media id.
    const media = await sandboxJson<{ media_id: string; status: string; uploaded_bytes: number }[]>(`/pinterest/media?username=${username}`);
    expect(media).toHaveLength(1);
    expect(media[0].status).toBe("succeeded");
    expect(media[0].uploaded_bytes).toBe((await file.body()).length);
    await expect
      .poll(async () => (await sandboxJson<SandboxPin[]>(`/pinterest/pins?username=${username}`)).length, { timeout: 60_000, interval: 1_000 })
      .toBe(1);
    const [pin] = await sandboxJson<SandboxPin[]>(`/pinterest/pins?username=${username}`);
    expect(pin.title).toBe(title);
    expect(pin.media).toMatchObject({ source_type: "video_id", media_id: media[0].media_id, cover_image_url: poster });

    // On a phone the card and its player fit the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    expect(await overflowing(page)).toEqual([]);
    await page.close();
  });

  it("says 'Unable to create video pin' when the video service keeps failing, and the credits come back (on a phone)", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signUpVerified(page);
    await page.goto("/generate");
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    const remaining = () =>
      page.evaluate(async () => {
        const response = await fetch("/api/user/credits", { headers: { authorization: `Bearer ${localStorage.getItem("FBIdToken")}` } });
        return ((await response.json()) as { remaining: number }).remaining;
      });
    const before = await remaining();
    await page.getByLabel("Paste a blog post or web page URL").fill(`${sandboxUrl()}/blog-demo/posts/${DEMO_POST}`);
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect.poll(() => cards(page).count(), { timeout: 20_000 }).toBeGreaterThan(0);

    // Every hand-over to the video service fails: the queue retries, then gives the job up.
    const fault = await fetch(`${sandboxUrl()}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "video", method: "POST", status: 503, times: 50 }),
    });
    expect(fault.ok).toBe(true);
    try {
      await page.getByRole("button", { name: "Make video of pin 1" }).click();
      const dialog = page.getByRole("dialog", { name: "Make a video pin" });
      await expect.poll(() => dialog.getByRole("radio").count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
      expect(await overflowing(page), "the dialog fits the phone").toEqual([]);
      await dialog.getByRole("button", { name: "Create video" }).click();
      const card = videoCards(page).first();
      await card.getByRole("progressbar").waitFor();
      await card.getByRole("alert").filter({ hasText: "Unable to create video pin" }).waitFor({ timeout: 120_000 });
      await page.getByText("Unable to create video pin", { exact: true }).first().waitFor();
      expect(await card.locator("video").count()).toBe(0);
      expect(await card.getByRole("button", { name: "Schedule video pin 1" }).count()).toBe(0);
      await expect.poll(remaining, { timeout: 20_000 }).toBe(before);
      expect(await overflowing(page), "the failed card fits the phone").toEqual([]);
    } finally {
      await fetch(`${sandboxUrl()}/__sandbox/faults`, { method: "DELETE" });
    }
    await page.close();
  });
});
