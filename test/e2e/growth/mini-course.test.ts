import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appUrl, useBrowser } from "../support/browser.ts";
import { overflowing } from "../support/layout.ts";

// /pinterest-mini-course (issue 17): lessons, navigation by keyboard, progress kept in this browser.

const browser = useBrowser();

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
}

const lessonHeading = (page: Page) => page.getByRole("heading", { level: 1 });
const progress = (page: Page) => page.locator("label[for=course-progress]");

describe("/pinterest-mini-course", () => {
  it("is rendered on the server, lesson by lesson", async () => {
    const html = await (await fetch(new URL("/pinterest-mini-course?lesson=keywords", appUrl()))).text();
    expect(html).toContain("Find the words people search for");
    expect(html).toContain("Lesson 3 of 6");
    const overview = await (await fetch(new URL("/pinterest-mini-course", appUrl()))).text();
    expect(overview.match(/course__overview/g)).toHaveLength(1);
  });

  it("moves through the lessons with the keyboard and remembers the lessons marked done", async () => {
    const page = await browser.newPage();
    await open(page, "/pinterest-mini-course");
    expect(await lessonHeading(page).textContent()).toBe("Free Pinterest mini-course");
    expect(await page.locator(".course__overview li").count()).toBe(6);
    await page.getByRole("link", { name: "Start the course" }).click();
    await page.getByText("Lesson 1 of 6").waitFor();
    expect(await lessonHeading(page).textContent()).toBe("How Pinterest sends you traffic");
    expect(await progress(page).textContent()).toBe("0 of 6 lessons done");

    // Keyboard only: mark the lesson done, then Tab to "Next lesson" and follow it.
    const done = page.getByRole("button", { name: "Mark lesson as done" });
    await done.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Lesson done" }).waitFor();
    expect(await page.getByRole("button", { name: "Lesson done" }).getAttribute("aria-pressed")).toBe("true");
    expect(await progress(page).textContent()).toBe("1 of 6 lessons done");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("Next lesson");
    await page.keyboard.press("Enter");
    await page.getByText("Lesson 2 of 6").waitFor();
    expect(await lessonHeading(page).textContent()).toBe("Set up a profile and boards Pinterest understands");
    // Focus moved to the new lesson's heading, where reading starts.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("lesson-title");
    expect(await page.getByRole("link", { name: /Previous lesson/ }).getAttribute("href")).toBe("/pinterest-mini-course?lesson=how-pinterest-works");

    // The outline shows where the reader is and what is done; the progress survives a reload.
    await page.reload();
    await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
    await progress(page).getByText("1 of 6 lessons done").waitFor();
    const outline = page.getByRole("navigation", { name: "Pinterest traffic in six lessons" });
    expect(await outline.getByRole("link", { name: "How Pinterest sends you traffic (done)" }).count()).toBe(1);
    expect(await outline.locator('[aria-current="page"]').textContent()).toBe("2Set up a profile and boards Pinterest understands");

    // Back on the overview, the course continues where the reader left off.
    await outline.getByRole("link", { name: "Pinterest traffic in six lessons" }).click();
    await page.getByRole("link", { name: "Continue with lesson 2" }).click();
    await page.getByText("Lesson 2 of 6").waitFor();

    // Unmarking a lesson counts it out again.
    await open(page, "/pinterest-mini-course?lesson=how-pinterest-works");
    await page.getByRole("button", { name: "Lesson done" }).click();
    await progress(page).getByText("0 of 6 lessons done").waitFor();
  });

  it("ends on the last lesson with a way to start, and fits a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await open(page, "/pinterest-mini-course?lesson=schedule-and-measure");
    expect(await page.getByText("Lesson 6 of 6").count()).toBe(1);
    expect(await page.getByRole("link", { name: /Next lesson/ }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /Course finished/ }).getAttribute("href")).toBe("/signup");
    expect(await overflowing(page)).toEqual([]);
  });
});
