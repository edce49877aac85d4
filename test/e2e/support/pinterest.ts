import type { Page } from "playwright-core";
import { expect } from "vitest";
import { sandboxUrl } from "./browser.ts";

/** The stand-in's first board of every account, with its sections. */
export const BOARD = "Recipes to Try";

/** A Pinterest username no other test or run uses (3-30 letters, digits, _). */
export function uniquePinterestUsername(): string {
  return `e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Connects a new Pinterest profile through the stand-in's consent page, from /scheduling. */
export async function connectProfile(page: Page, username: string) {
  // The stand-in's consent page has no icon: its favicon.ico miss is not the app's.
  await page.route(`${sandboxUrl()}/favicon.ico`, (route) => route.fulfill({ status: 204 }));
  await page.goto("/scheduling");
  await page.waitForSelector('html[data-hydrated="true"]', { state: "attached" });
  await page.getByRole("button", { name: "Connect a Pinterest profile" }).click();
  await page.waitForURL((url) => url.href.startsWith(sandboxUrl()));
  await page.getByLabel("Pinterest username").fill(username);
  await page.getByRole("button", { name: "Give access" }).click();
  await page.waitForURL((url) => url.pathname === "/scheduling");
  await page.getByText(`Pinterest profile ${username} connected`, { exact: true }).waitFor();
}

/** On /generate: selects every pin and schedules them all to BOARD's queue, letting pins that share a link through; waits for the summary. */
export async function scheduleAllPins(page: Page, count: number) {
  const pins = page.getByRole("list", { name: "Generated pins" }).getByRole("listitem");
  await page.getByRole("toolbar", { name: "Selected pins" }).getByLabel("Select all").check();
  await page.getByRole("button", { name: "Schedule selected" }).click();
  const dialog = page.getByRole("dialog", { name: `Schedule ${count} pins` });
  const board = dialog.getByLabel("Board", { exact: true });
  await expect.poll(() => board.locator("option").count(), { timeout: 20_000 }).toBeGreaterThan(1);
  await board.selectOption({ label: BOARD });
  // The board's sections load next and may add a field above the options: wait for them, or a click can land where a field was.
  await dialog.locator('.board-fields[aria-busy="false"]').waitFor();
  await dialog.getByLabel("Post even if the same link goes to this board within 48 hours").check();
  await dialog.getByRole("button", { name: `Schedule ${count} pins` }).click();
  await page.getByText(`${count} pins scheduled to ${BOARD}`, { exact: true }).first().waitFor({ timeout: 60_000 });
  await expect.poll(() => pins.getByText(/^Scheduled( · |$)/).count()).toBe(count);
}
