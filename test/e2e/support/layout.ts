import type { Page } from "playwright-core";

/** What sticks out to the right of the viewport, for a readable failure of a "fits a phone" check ([] when nothing does). */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}px`),
  );
}
